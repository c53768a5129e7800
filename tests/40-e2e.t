#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# End to end: build the reference, regressed and fixed kernels for x86_64
# (and the fixed one for arm64), boot each under QEMU and run the selftest
# the kselftest way. It must fail on the regressed kernel and pass on the
# others. Then the selftest's cleanup paths on cgroup v2, in the guest,
# and the harness's own failures: panic, hang, kernel splat, and
# verify.sh exiting non-zero on a boot without a verdict. And a short
# form of the safety stress: one minute on the fixed kernel's debug build.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 16

declare -A IMAGE INITRAMFS
build() { IMAGE[$1]=$("$SCRIPTS_DIR/kernel-build.sh" x86_64 "$1"); }
for v in reference regressed fixed; do
	check "x86_64 $v kernel builds" build "$v"
done
initramfs() { INITRAMFS[$1]=$("$SCRIPTS_DIR/guest-initramfs.sh" "$1"); }
check "x86_64 initramfs builds" initramfs x86_64
arm64_build() { IMAGE[arm64-fixed]=$("$SCRIPTS_DIR/kernel-build.sh" arm64 fixed); }
check "arm64 fixed kernel builds" arm64_build
check "arm64 initramfs builds" initramfs arm64

# verdict ARCH KERNEL WANT: boot KERNEL, the selftest's result must be WANT.
verdict() {
	local arch=$1 kernel=$2 want=$3 log=$TEST_TMP/$1-$2.log got image
	image=${IMAGE[$kernel]}
	[ "$arch" = x86_64 ] || image=${IMAGE[$arch-$kernel]}
	"$SCRIPTS_DIR/guest-boot.sh" "$arch" "$image" \
		"${INITRAMFS[$arch]}" "$log" || return 1
	got=$("$SCRIPTS_DIR/parse-console.sh" --verdict "$log" "$arch" cores "$kernel" 1)
	grep -E 'summary|ok' "$log"
	echo "verdict: $got"
	[ "${got##*,}" = "$want" ]
}
check "the selftest passes on the reference kernel" verdict x86_64 reference ok
check "the selftest fails on the regressed kernel" verdict x86_64 regressed fail
check "the selftest passes on the fixed kernel" verdict x86_64 fixed ok
check "the selftest passes on the fixed kernel, arm64" verdict arm64 fixed ok

# The selftest's cleanup on cgroup v2 (the host tests cover v1).
guest_cleanup() {
	local log=$TEST_TMP/cleanup.log
	"$SCRIPTS_DIR/guest-boot.sh" --job cleanup x86_64 "${IMAGE[fixed]}" \
		"${INITRAMFS[x86_64]}" "$log" || return 1
	grep '^@@@ cleanup' "$log"
	[ "$(grep -c '^@@@ cleanup ok' "$log")" -eq 4 ] && ! grep -q '^@@@ cleanup not ok' "$log"
}
check "in the guest (cgroup v2), stopped or failing runs leave nothing behind" guest_cleanup

# A guest that panics or hangs ends with a clear error, its log kept.
panics() {
	: | cpio -o -H newc --quiet | gzip >"$TEST_TMP/empty.cpio.gz"
	fails_with 1 "guest panicked" "$SCRIPTS_DIR/guest-boot.sh" --timeout 60 x86_64 \
		"${IMAGE[fixed]}" "$TEST_TMP/empty.cpio.gz" "$TEST_TMP/panic.log" &&
		grep -q 'No working init found' "$TEST_TMP/panic.log"
}
check "a guest that panics: clear error, console log kept" panics

hangs() {
	local root=$TEST_TMP/hang
	mkdir -p "$root/bin"
	cp /bin/busybox "$root/bin/"
	printf '#!/bin/busybox sh\n/bin/busybox sleep 600\n' >"$root/init"
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet -R 0:0 | gzip) >"$TEST_TMP/hang.cpio.gz"
	fails_with 1 "guest hung: no result after 10s" "$SCRIPTS_DIR/guest-boot.sh" --timeout 10 \
		x86_64 "${IMAGE[fixed]}" "$TEST_TMP/hang.cpio.gz" "$TEST_TMP/hang.log" &&
		[ -f "$TEST_TMP/hang.log" ]
}
check "a guest that hangs: clear error after the timeout, console log kept" hangs

# A real WARN() (LKDTM) after which the job still ends normally.
splat() {
	fails_with 1 "kernel splat: .*; console: $TEST_TMP/splat.log" "$SCRIPTS_DIR/guest-boot.sh" \
		--job splat x86_64 "${IMAGE[fixed]}" "${INITRAMFS[x86_64]}" \
		"$TEST_TMP/splat.log" &&
		grep -q 'WARNING: .*lkdtm' "$TEST_TMP/splat.log" && grep -q '^@@@ guest-end' "$TEST_TMP/splat.log" &&
		[ "$("$SCRIPTS_DIR/parse-console.sh" --verdict "$TEST_TMP/splat.log" x86_64 cores fixed 1)" = \
			"x86_64,cores,fixed,1,missing,missing,missing,splat" ]
}
check "a kernel splat fails the boot, whatever the job said" splat

# The whole of verify.sh on one boot whose selftest skips (autogroup off):
# no verdict is an error, named with its console log.
verify_without_verdict() {
	fails_with 1 "verdicts wrong or missing" "$SCRIPTS_DIR/verify.sh" --arch x86_64 \
		--variants fixed --topologies cores --boots 1 --append noautogroup \
		--out "$TEST_TMP/verify" &&
		grep -q "^error: x86_64 cores fixed boot 1: no verdict (skip); console: logs/x86_64-cores-fixed-1.log$" \
			"$TEST_TMP/fail.out"
}
check "verify.sh exits 1 and names the boot when a boot gives no verdict" verify_without_verdict

# The fixed kernel built with scripts/config/debug.config (lockdep, KASAN,
# DEBUG_LIST, ...) through a minute of pelt_stress: no splat, no average
# negative or wrapped while it runs, nothing left on any cfs_rq afterwards
# (the full runs: scripts/stress.sh --minutes 10). Reading the debug file
# on busy CPUs is safe because kernel-tree.sh gives 6.12.117 upstream's
# print_cfs_rq() locking fix (Documentation/results.md, "Safety").
short_stress() {
	"$SCRIPTS_DIR/stress.sh" --arch x86_64 --variants fixed --seconds 60 \
		--out "$TEST_TMP/stress" || return 1
	grep -qx 'x86_64,fixed,1,stress,pass' "$TEST_TMP/stress/stress.csv" &&
		grep -qx 'x86_64,fixed,1,no_leak,pass' "$TEST_TMP/stress/stress.csv" &&
		grep -qx 'x86_64,fixed,1,no_underflow,pass' "$TEST_TMP/stress/stress.csv"
}
check "one minute of stress on the fixed debug kernel: no splat, no underflow, no leak" short_stress

[ "$TEST_FAILED" -eq 0 ]
