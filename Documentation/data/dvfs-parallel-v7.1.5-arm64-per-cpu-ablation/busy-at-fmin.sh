#!/bin/bash
# Busy time (ms) each boot's CPUs spent at fmin (500000 kHz) during the
# shell load, per kernel and boot, from the console logs' dvfs-time lines.
set -euo pipefail
cd "$(dirname "$0")/per-cpu/logs"
for v in reference fixed fixed@mainline-fast-path fixed@mainline-fast-path+alt-G \
	fixed@mainline-fast-path+alt-H fixed@mainline-fast-path+alt-I; do
	printf '%-32s' "$v"
	for b in 1 2 3 4 5; do
		awk '/@@@ dvfs-time load=shell/ && / khz=500000 / { split($6, a, "="); s += a[2] }
			END { printf "%5d", s / 1000 }' "arm64-$v-$b.log"
	done
	echo
done
