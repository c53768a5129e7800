# shellcheck shell=bash disable=SC2034 # read by scripts/lib/arch.sh
# SPDX-License-Identifier: GPL-2.0
# The arm64 guest: QEMU's virt machine; the kernel fragment is arm64.config.
# Every field is described in scripts/lib/arch.sh.
ARCH_RANK=2
ARCH_DEFAULT=yes
ARCH_KERNEL=arm64
ARCH_CROSS_COMPILE=aarch64-linux-gnu-
ARCH_IMAGE=arch/arm64/boot/Image
ARCH_CONSOLE=ttyAMA0
ARCH_DEBIAN=arm64
ARCH_PACKAGES="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm"
# Asymmetric CPU capacity from the device tree (capacity-dmips-mhz);
# arm64 is always SMP, so no uniprocessor build.
ARCH_TOPOLOGIES="asym"
# Possible CPUs beyond the topology's: device tree CPU nodes QEMU has no
# CPU for (PSCI CPU_ON fails), so they stay offline.
ARCH_POSSIBLE_CPUS=yes
# The emulated DVFS clock (scripts/experiments/dvfs/dvfs.sh): frequency
# invariance as the cpufreq core gives it on real arm64 hardware, so
# scripts/experiments/dvfs/dvfs.sh's default arch. The vCPUs' own counter is
# the generic timer's.
ARCH_DVFS=preferred
ARCH_CLOCKSOURCE=arch_sys_counter
ARCH_DT_CPU=arm,cortex-a57

# arch_qemu VCPUS POSSIBLE: QEMU's program and machine, one word a line.
# GICv2 serves at most 8 CPUs (possible ones too: its driver keeps a CPU
# map of 8).
arch_qemu() {
	local virt=virt
	[ "$1" -le 8 ] && [ "$2" -le 8 ] || virt=virt,gic-version=3
	printf '%s\n' qemu-system-aarch64 -machine "$virt" -cpu "max,pauth-impdef=on"
}
