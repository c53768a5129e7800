#!/bin/bash
# One line per boot: run, shape, boot, the parallel comparison's two
# sides (last CPU, CPU 0), its verdict (both within 5 % of 1) and the
# schedutil check's util_avg; then counts per QEMU.
# Run from this directory: ./summary.sh > summary.txt
set -euo pipefail
for f in q*-[0-9]/*/logs/x86_64-fixed-[0-9].log; do
	awk -v f="$f" '
		/@@@ dvfs-parallel/ { match($0, /ratio=[0-9.]+/); r[++n] = substr($0, RSTART + 6, RLENGTH - 6) }
		/@@@ dvfs-schedutil/ { match($0, /util_avg=[0-9]+/); u = substr($0, RSTART + 9, RLENGTH - 9) }
		END {
			ok = n == 2 && r[1] >= 0.95 && r[1] <= 1.05 && r[2] >= 0.95 && r[2] <= 1.05
			split(f, p, "/")
			printf "%s %s %s %s %s %s util_avg=%s\n", p[1], p[2], p[4], r[1], r[2], ok ? "pass" : "fail", u
		}' "$f"
done | awk '{ print } { q = $1; sub(/-[0-9]$/, "", q); total[q]++; if ($6 == "fail") fails[q]++
	if (!(q in lo) || $4 < lo[q]) lo[q] = $4; if ($4 > hi[q]) hi[q] = $4 }
	END { print ""; for (q in total) printf "%s boots %d  parallel failed %d  last CPU side %s-%s\n", q, total[q], fails[q] + 0, lo[q], hi[q] }'
