#!/bin/bash
# Experiment: is x86_64's loss of parallelism under the emulated driver the
# clocksource (HPET reads are MMIO under QEMU's big lock; TSC reads are not)?
# At fmax (userspace governor), driver period 1000 us, default clocksource
# (TSC found unstable -> hpet) against tsc=reliable, interleaved.
set -euo pipefail
cd /work/main
out=/work/exp/x86-clocksource/at-fmax; mkdir -p $out
cp /work/exp/x86-clocksource/partest.sh scripts/guest/partest.sh
trap 'rm -f /work/main/scripts/guest/partest.sh' EXIT
K=build/kernels/user-v7.1.5-9d1745cf8134/reference+dvfs
arch=x86_64
init=$(scripts/guest-initramfs.sh $arch | tail -1)
img=$K/out-$arch/arch/x86/boot/bzImage
for b in 1 2 3 4; do
	for cs in default tsc-reliable; do
		extra=""; [ $cs = tsc-reliable ] && extra="tsc=reliable"
		echo "$(date +%T) $arch $cs $b"
		scripts/guest-boot.sh --job partest --timeout 600 --append "emulated_cpufreq.shared=0 $extra" $arch $img $init $out/$arch-$cs-$b.log || echo "boot failed $?"
	done
done
