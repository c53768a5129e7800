#!/bin/bash
set -euo pipefail
cd /work/main
out=/work/exp/x86-clocksource/cs; mkdir -p $out
cp /work/exp/x86-clocksource/cstest.sh scripts/guest/cstest.sh
trap 'rm -f /work/main/scripts/guest/cstest.sh' EXIT
K=build/kernels/user-v7.1.5-9d1745cf8134/reference+dvfs
arch=x86_64
init=$(scripts/guest-initramfs.sh $arch | tail -1)
img=$K/out-$arch/arch/x86/boot/bzImage
i=0
for a in "" "tsc=reliable" "clocksource=tsc" "tsc=reliable clocksource=tsc" "tsc=nowatchdog"; do
	i=$((i+1))
	echo "$(date +%T) [$a]"
	scripts/guest-boot.sh --job cstest --timeout 300 --append "$a" $arch $img $init $out/$i.log || echo "boot failed $?"
done
