#!/bin/bash
# One line per boot: run, shape, boot, the parallel comparison's two
# sides (last CPU, CPU 0), its verdict (both within 5 % of 1), and the
# schedutil check's util_avg; then counts per tracing arm.
# Run from this directory: ./summary.sh > summary.txt
set -euo pipefail
for f in */*/*/logs/arm64-fixed-[0-9].log fix-alone/dvfs/*/logs/arm64-fixed-[0-9].log; do
	awk -v f="$f" '
		/@@@ dvfs-parallel/ { match($0, /ratio=[0-9.]+/); r[++n] = substr($0, RSTART + 6, RLENGTH - 6) }
		/@@@ dvfs-schedutil/ { match($0, /util_avg=[0-9]+/); u = substr($0, RSTART + 9, RLENGTH - 9) }
		END {
			ok = n == 2 && r[1] >= 0.95 && r[1] <= 1.05 && r[2] >= 0.95 && r[2] <= 1.05
			split(f, p, "/")
			if (p[1] == "fix-alone") p[2] = "alone-1"
			printf "%s %s %s %s %s %s util_avg=%s\n", p[1] "/" p[2], p[3], p[5], r[1], r[2], ok ? "pass" : "fail", u
		}' "$f"
done | sort -u | awk '{ print } { arm = $1; sub(/-[0-9]$/, "", arm); sub(/.*\//, "", arm)
	total[arm]++; if ($6 == "fail") fails[arm]++
	split($7, u, "="); if (!(arm in lo) || u[2] < lo[arm]) lo[arm] = u[2]; if (u[2] > hi[arm]) hi[arm] = u[2] }
	END { print ""; for (a in total) printf "%-7s boots %2d  parallel failed %2d  util_avg %d-%d\n", a, total[a], fails[a] + 0, lo[a], hi[a] }'
