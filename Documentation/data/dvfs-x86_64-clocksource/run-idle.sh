#!/bin/bash
# Ablation: the driver with the TSC fix (tsc) against the same with its
# timer stopped while the CPU is idle (idlecancel), x86_64, v7.1.5
# reference+dvfs, the parallel check at fmax (partest.sh: 2 comparisons of
# 40 rounds per boot), interleaved.
set -euo pipefail
cd /work/main
exp=/work/exp/x86-clocksource
out=$exp/idle; mkdir -p $out
cp $exp/partest.sh scripts/guest/partest.sh
trap 'rm -f /work/main/scripts/guest/partest.sh' EXIT
init=$(scripts/guest-initramfs.sh x86_64 | tail -1)
for b in 1 2 3 4 5; do
	for k in tsc idlecancel; do
		echo "$(date +%T) $k $b"
		scripts/guest-boot.sh --job partest --append "emulated_cpufreq.shared=0" --timeout 300 \
			x86_64 $exp/$k-reference+dvfs-x86_64.bzImage $init $out/$k-$b.log || echo "boot failed"
	done
done
