#!/bin/bash
# Ablation: the emulated driver without (old) and with (new) its
# constant_tsc declaration, x86_64, v7.1.5 reference+dvfs, dvfs.sh's own
# guest job and driver parameters, every policy shape, interleaved.
set -euo pipefail
cd /work/main
exp=/work/exp/x86-clocksource
out=$exp/ablation; mkdir -p $out
init=$(scripts/guest-initramfs.sh x86_64 | tail -1)
for b in 1 2 3; do
	for policy in per-cpu remote shared; do
		case $policy in
		per-cpu) p="emulated_cpufreq.shared=0 emulated_cpufreq.remote=0" ;;
		remote) p="emulated_cpufreq.shared=0 emulated_cpufreq.remote=1" ;;
		shared) p="emulated_cpufreq.shared=1 emulated_cpufreq.remote=0" ;;
		esac
		for k in old new; do
			echo "$(date +%T) $policy $k $b"
			scripts/guest-boot.sh --job dvfs --args "1 spawn" --append "$p" --timeout 700 \
				x86_64 $exp/$k-reference+dvfs-x86_64.bzImage $init $out/$policy-$k-$b.log \
				2>$out/$policy-$k-$b.log.boot-error || echo "boot failed"
		done
	done
done
