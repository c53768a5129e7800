#!/bin/bash
# Experiment: the parallel check with the emulated driver's period changed.
set -euo pipefail
cd /work/main
out=/tmp/partest2; mkdir -p $out
K=build/kernels/user-v7.1.5-9d1745cf8134/reference+dvfs
for arch in x86_64 arm64; do
	init=build/guest/$arch/initramfs.cpio.gz
	img=$K/out-$arch/arch/x86/boot/bzImage; [ $arch = arm64 ] && img=$K/out-$arch/arch/arm64/boot/Image
	for b in 1 2; do
		for p in 4000 250 1000; do
			echo "$(date +%T) $arch $p $b"
			scripts/guest-boot.sh --job partest --timeout 600 --append "emulated_cpufreq.shared=0 emulated_cpufreq.period_us=$p" $arch $img $init $out/$arch-p$p-$b.log || echo "boot failed $?"
		done
	done
done
