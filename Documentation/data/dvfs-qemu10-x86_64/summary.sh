#!/bin/bash
# Per QEMU: boots, how many failed dvfs.sh's parallel check, the range of
# its value (the lower of the two sides) and of schedutil's util_avg, from
# each run's validation.csv. Run from this directory: ./summary.sh > summary.txt
set -euo pipefail
awk -F, 'FNR > 1 && ($5 == "parallel" || $5 == "schedutil_fmax") {
	split(FILENAME, p, "-"); q = p[1]; k = q SUBSEP $5
	if (!(k in lo) || $7 < lo[k]) lo[k] = $7
	if (!(k in hi) || $7 > hi[k]) hi[k] = $7
	if ($5 == "parallel") { boots[q]++; fails[q] += $9 == "fail" }
} END {
	for (q in boots)
		printf "%s: %d boots, parallel failed %d (%s-%s), util_avg %s-%s\n", q, boots[q], fails[q],
			lo[q, "parallel"], hi[q, "parallel"], lo[q, "schedutil_fmax"], hi[q, "schedutil_fmax"]
}' q*-[0-9]/validation.csv | sort
