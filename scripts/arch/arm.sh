# shellcheck shell=bash disable=SC2034 # read by scripts/lib/arch.sh
# SPDX-License-Identifier: GPL-2.0
# The 32-bit arm guest: QEMU's virt machine with armv7 and the
# virtualization extensions, as 32-bit arm SoCs of the last decade have
# them (generic timer, GICv2, PSCI to start CPU1); the kernel fragment
# is arm.config. Every field is described in scripts/lib/arch.sh.
ARCH_RANK=4
ARCH_DEFAULT=no
ARCH_KERNEL=arm
ARCH_CROSS_COMPILE=arm-linux-gnueabihf-
ARCH_IMAGE=arch/arm/boot/zImage
ARCH_CONSOLE=ttyAMA0
ARCH_DEBIAN=armhf
ARCH_PACKAGES="gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-system-arm"
ARCH_DT_CPU=arm,cortex-a15

# arch_qemu VCPUS POSSIBLE: QEMU's program and machine, one word a line.
arch_qemu() {
	printf '%s\n' qemu-system-arm -machine virt -cpu cortex-a15
}
