# shellcheck shell=bash disable=SC2034 # read by scripts/lib/arch.sh
# SPDX-License-Identifier: GPL-2.0
# The x86_64 guest: QEMU's pc machine; the kernel fragment is x86_64.config.
# Every field is described in scripts/lib/arch.sh.
ARCH_RANK=1
ARCH_DEFAULT=yes
ARCH_KERNEL=x86_64
ARCH_IMAGE=arch/x86/boot/bzImage
ARCH_CONSOLE=ttyS0
ARCH_DEBIAN=amd64
ARCH_PACKAGES="qemu-system-x86"
# SMT: QEMU gives x86 CPUs threads (-smp threads=2) the kernel sees as
# siblings; a uniprocessor kernel builds here (no-smp.config).
ARCH_TOPOLOGIES="smt"
ARCH_CONFIGS="no-smp"
# An x86 kernel counts the firmware's hot-pluggable CPUs as possible only
# under a hypervisor it recognises, which TCG is not: no --possible-cpus.
ARCH_POSSIBLE_CPUS=no
# The emulated DVFS clock (scripts/experiments/dvfs/dvfs.sh). The vCPUs' own
# counter is the TSC: the HPET (MMIO) and ACPI PM timer (an I/O port) are
# devices QEMU serves under its global lock, one vCPU at a time, so two vCPUs
# reading them (every ktime_get(), every hrtimer interrupt) wait for each
# other, and did on every boot until the driver declared the TSC constant
# (Documentation/data/dvfs-x86_64-clocksource/). Under TCG there is no
# APERF/MPERF: the driver sets the frequency scale itself. tsc=reliable: no
# clocksource watchdog on the TSC (QEMU's is the host's counter); its
# reference, the HPET, lags under QEMU: a boot had its TSC marked
# unstable for "frequency skew" and ran its loads on the HPET
# (Documentation/data/dvfs-x86_64-clocksource/watchdog/).
ARCH_DVFS=yes
ARCH_CLOCKSOURCE=tsc
ARCH_DVFS_APPEND="tsc=reliable"

# arch_qemu VCPUS POSSIBLE: QEMU's program and machine, one word a line.
# QEMU warns that its AMD-like default CPU lacks topoext, but the guest
# finds the siblings all the same (init prints cpu0-siblings).
arch_qemu() {
	printf '%s\n' qemu-system-x86_64
}
