#!/bin/bash
set -euo pipefail
cd /work/main
K=build/kernels/user-v7.1.5-9d1745cf8134
out=results/shelltrace-shared
mkdir -p $out
INITRAMFS=$(scripts/guest-initramfs.sh arm64)
for r in 1 2 3 4 5 6 7 8; do
	for v in reference regressed fixed fixed@mainline-fast-path; do
		echo "[$(date +%T)] $v $r"
		scripts/guest-boot.sh --job shelltrace --args 3 --append "emulated_cpufreq.shared=1 emulated_cpufreq.remote=0" \
			arm64 $K/$v+dvfs/out-arm64/arch/arm64/boot/Image "$INITRAMFS" $out/$v-$r.log || echo "boot failed $v $r"
	done
done
