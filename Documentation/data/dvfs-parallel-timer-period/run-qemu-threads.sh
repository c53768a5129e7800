#!/bin/bash
set -euo pipefail
cd /work/main
out=/tmp/partest3; mkdir -p $out
K=build/kernels/user-v7.1.5-9d1745cf8134/reference+dvfs
arch=arm64; init=build/guest/$arch/initramfs.cpio.gz; img=$K/out-$arch/arch/arm64/boot/Image
for p in 250 4000 off; do
	app="emulated_cpufreq.shared=0 emulated_cpufreq.period_us=$p"; [ $p = off ] && app="emulated_cpufreq.period_us=0"
	( sleep 3; for i in $(seq 40); do pid=$(pgrep -f "^qemu-system-aarch64" | head -1 || true); [ -n "$pid" ] && { echo "t=$i"; ps -L -o tid=,comm=,time=,pcpu= -p $pid 2>/dev/null || true; cat /proc/$pid/task/*/stat 2>/dev/null | awk '{print "stat", $1, $2, $14, $15}'; }; sleep 1; done ) > $out/threads-p$p.txt &
	s=$!
	scripts/guest-boot.sh --job partest --timeout 600 --append "$app" $arch $img $init $out/$arch-p$p.log || echo "boot failed $?"
	kill $s 2>/dev/null || true; wait $s 2>/dev/null || true
done
