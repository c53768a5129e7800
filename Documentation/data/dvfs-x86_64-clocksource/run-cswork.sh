#!/bin/bash
set -euo pipefail
cd /work/main
exp=/work/exp/x86-clocksource
out=$exp/cswork; mkdir -p $out
cp $exp/cswork.sh scripts/guest/cswork.sh
trap 'rm -f /work/main/scripts/guest/cswork.sh' EXIT
init=$(scripts/guest-initramfs.sh x86_64 | tail -1)
for b in 1 2 3 4 5 6; do
	echo "$(date +%T) $b"
	scripts/guest-boot.sh --job cswork --append "emulated_cpufreq.shared=0" --timeout 300 \
		x86_64 $exp/new-reference+dvfs-x86_64.bzImage $init $out/$b.log || echo "boot failed"
done
