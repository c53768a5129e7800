# shellcheck shell=bash disable=SC2034 # read by scripts/lib/arch.sh
# SPDX-License-Identifier: GPL-2.0
# The i386 guest: QEMU's pc machine, a 32-bit x86 kernel (unsigned long
# is 32 bits wide in kernel/sched/); the kernel fragment is i386.config.
# Every field is described in scripts/lib/arch.sh.
ARCH_RANK=3
ARCH_DEFAULT=no
ARCH_KERNEL=i386
ARCH_CROSS_COMPILE=i686-linux-gnu-
ARCH_IMAGE=arch/x86/boot/bzImage
ARCH_CONSOLE=ttyS0
ARCH_DEBIAN=i386
ARCH_PACKAGES="gcc-i686-linux-gnu libc6-dev-i386-cross qemu-system-x86"
# The smt shape is not tried here (make verify boots it on x86_64).
# No emulated DVFS driver for it (the patch covers the two 64-bit arches).

# arch_qemu VCPUS POSSIBLE: QEMU's program and machine, one word a line.
arch_qemu() {
	printf '%s\n' qemu-system-i386
}
