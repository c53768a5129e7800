#!/bin/bash
# Experiment: the parallel check with the emulated driver on and off.
set -euo pipefail
cd /work/main
out=/tmp/partest; mkdir -p $out
K=build/kernels/user-v7.1.5-9d1745cf8134/reference+dvfs
for arch in x86_64 arm64; do
	init=$(scripts/guest-initramfs.sh $arch | tail -1)
	img=$K/out-$arch/arch/x86/boot/bzImage; [ $arch = arm64 ] && img=$K/out-$arch/arch/arm64/boot/Image
	for b in 1 2; do
		for mode in on off; do
			app="emulated_cpufreq.shared=0 emulated_cpufreq.remote=0"
			[ $mode = off ] && app="emulated_cpufreq.period_us=0"
			echo "$(date +%T) $arch $mode $b"
			scripts/guest-boot.sh --job partest --timeout 600 --append "$app" $arch $img $init $out/$arch-$mode-$b.log || echo "boot failed $?"
		done
	done
done
