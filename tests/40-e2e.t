#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# End to end, on one arch (E2E_ARCH: arm64 in make check, x86_64 in make
# check-arches through tests/41): build the regressed and fixed kernels,
# boot each under QEMU and run the selftest the kselftest way. It must
# fail on the regressed kernel and pass on the fixed one, and skip on a
# guest whose vCPUs share host cores. Then the selftest's cleanup paths
# on cgroup v2, in the guest, and the harness's own failures: panic,
# hang, kernel splat, and verify.sh exiting non-zero on a boot without a
# verdict.
# make check keeps one arch's two kernels, the ones tests/50 boots as
# well (the reference kernel's runs, the debug kernels' stress and the
# other arches are make check-arches's, make verify's and make stress's):
# its time on a new machine with a cold ccache must stay inside 30
# minutes, and each arch's cold kernel build is 6 to 9 minutes of it
# (Documentation/data/ci-cold-2026-12-07-trace-forks/).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 13

ARCH=${E2E_ARCH:-arm64}
[ -f "$SCRIPTS_DIR/arch/$ARCH.sh" ] || { echo "Bail out! E2E_ARCH=$ARCH: no scripts/arch/$ARCH.sh"; exit 1; }
# On arm64 the two kernels carry the emulated cpufreq driver (+dvfs), so
# that the fixed one is the kernel tests/50 boots: one cold build serves
# both. cpufreq.off=1 keeps the driver from registering here, and both
# kernels differ in the series alone.
SUFFIX=
APPEND=
if [ "$ARCH" = arm64 ]; then
	SUFFIX=+dvfs
	APPEND=cpufreq.off=1
fi

declare -A IMAGE INITRAMFS
build() { IMAGE[$1]=$("$SCRIPTS_DIR/kernel-build.sh" "$ARCH" "$1$SUFFIX"); }
check "$ARCH regressed kernel builds" build regressed
# A new build directory of the fixed kernel starts from regressed's (or
# reference's, where make verify built it; kernel-build.sh
# seed_build_dir): make compiles what the series changes, not a whole
# kernel (73 s instead of 201 s of a cold make check,
# Documentation/data/ci-cold-2026-12-07/).
build_fixed() {
	local out err=$TEST_TMP/fixed-build.err new=false
	out=$("$SCRIPTS_DIR/kernel-tree.sh" "fixed$SUFFIX")/out-$ARCH || return 1
	[ -f "$out/.config" ] || new=true
	build fixed 2>"$err" || { cat "$err"; return 1; }
	cat "$err"
	! $new || grep -q "^\[[0-9:]*\] starting $out from .*/out-$ARCH " "$err"
}
check "$ARCH fixed kernel builds, a new build directory from a built variant's" build_fixed
initramfs() { INITRAMFS[$1]=$("$SCRIPTS_DIR/guest-initramfs.sh" "$1"); }
check "$ARCH initramfs builds" initramfs "$ARCH"

# boot KERNEL INITRAMFS LOG PARAMS [guest-boot.sh options...]: boot
# KERNEL's image with INITRAMFS, the console to LOG, PARAMS (kernel
# parameters) after the arch's own.
boot() {
	local kernel=$1 initramfs=$2 log=$3 params=$4
	shift 4
	"$SCRIPTS_DIR/guest-boot.sh" "$@" --append "$APPEND $params" "$ARCH" "${IMAGE[$kernel]}" \
		"$initramfs" "$log"
}

# verdict KERNEL WANT: boot KERNEL, the selftest's result must be WANT.
# What says more of this host than of the kernel is booted again, up to
# three boots in all: a skip because the test's CPUs did not compute at
# once (busy), and a pass of the regressed kernel, the positive control
# (a host slower at that moment, fewer deaths a second: make verify's
# "cannot show it here"); a fixed kernel's fail never is.
verdict() {
	local kernel=$1 want=$2 log=$TEST_TMP/$1.log got try
	for try in 1 2 3; do
		boot "$kernel" "${INITRAMFS[$ARCH]}" "$log" "" || return 1
		got=$("$SCRIPTS_DIR/parse-console.sh" --verdict "$log" "$ARCH" cores "$kernel" 1)
		grep -E 'summary|ok|computed' "$log"
		echo "verdict (boot $try): $got"
		case "${got##*,}" in
		busy) ;;
		ok) [ "$want" = fail ] || break ;;
		*) break ;;
		esac
	done
	[ "${got##*,}" = "$want" ]
}
check "the selftest fails on the regressed kernel" verdict regressed fail
check "the selftest passes on the fixed kernel" verdict fixed ok
# The default kselftest run's sched collection on a kernel without core
# scheduling (the guests' tinyconfig has none): cs_prctl_test skips.
collection() {
	# The log without CRs, read once; grep -q reads it from a string, so
	# no writer is left on a pipe that its early exit closes (pipefail).
	local log
	log=$(tr -d '\r' <"$TEST_TMP/fixed.log")
	grep '^ok [0-9]* selftests: sched:' <<<"$log"
	grep -q '^ok [0-9]* selftests: sched: cs_prctl_test # SKIP$' <<<"$log" &&
		grep -q '^# 1\.\.0 # SKIP no core scheduling: CONFIG_SCHED_CORE=n$' <<<"$log"
}
check "in the same run, cs_prctl_test skips without core scheduling" collection

# A guest of 4 vCPUs on 2 host CPUs (taskset, whatever the host has):
# its vCPUs stop while its kernel sees them run, and the test must say
# that it cannot judge there instead of giving a verdict.
oversubscribed() {
	local log=$TEST_TMP/oversubscribed.log
	taskset -c 0,1 "$SCRIPTS_DIR/guest-boot.sh" --topology cores4 --oversubscribe --append "$APPEND" \
		"$ARCH" "${IMAGE[fixed]}" "${INITRAMFS[$ARCH]}" "$log" || return 1
	tr -d '\r' <"$log" | grep -E 'computed|fork_placement_test'
	tr -d '\r' <"$log" |
		grep -q "^# 1\.\.0 # SKIP the test's CPUs do not compute at once (0\.[0-9]* of what each did alone)"
}
check "on 4 vCPUs sharing 2 host CPUs, the selftest skips: cannot judge" oversubscribed

# The selftest's cleanup on cgroup v2 (the host tests cover v1).
guest_cleanup() {
	local log=$TEST_TMP/cleanup.log
	boot fixed "${INITRAMFS[$ARCH]}" "$log" "" --job cleanup || return 1
	grep '^@@@ cleanup' "$log"
	[ "$(grep -c '^@@@ cleanup ok' "$log")" -eq 4 ] && ! grep -q '^@@@ cleanup not ok' "$log"
}
check "in the guest (cgroup v2), stopped or failing runs leave nothing behind" guest_cleanup

# Where the selftest cannot judge it must skip, with the true reason:
# autogroup off (with and without its sysctl), a read-only cgroupfs, a
# cgroup namespace, a v1 cpu hierarchy seen below its root; it must run
# on cgroup v1, -s must skip its verdict, and a run removes the cgroups
# that a killed one left (scripts/guest/environments.sh).
environments() {
	local log=$TEST_TMP/environments.log
	boot fixed "${INITRAMFS[$ARCH]}" "$log" noautogroup --job environments || return 1
	tr -d '\r' <"$log" | sed -n '/^@@@ guest-begin/,/^@@@ guest-end/p'
	[ "$(tr -d '\r' <"$log" | grep -c '^@@@ environment ok')" -eq 8 ] &&
		! grep -q '^@@@ environment not ok' "$log"
}
check "the selftest skips with its reason where it cannot judge, and runs on cgroup v1" environments

# A guest that panics or hangs ends with a clear error, its log kept.
panics() {
	: | cpio -o -H newc --quiet | gzip >"$TEST_TMP/empty.cpio.gz"
	fails_with 1 "guest panicked" boot fixed "$TEST_TMP/empty.cpio.gz" "$TEST_TMP/panic.log" "" \
		--timeout 60 && grep -q 'No working init found' "$TEST_TMP/panic.log"
}
check "a guest that panics: clear error, console log kept" panics

# The hanging init is the arch's busybox, taken from its initramfs.
hangs() {
	local root=$TEST_TMP/hang
	mkdir -p "$root"
	gzip -dc "${INITRAMFS[$ARCH]}" | (cd "$root" && cpio -id --quiet bin/busybox) || return 1
	printf '#!/bin/busybox sh\n/bin/busybox sleep 600\n' >"$root/init"
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet -R 0:0 | gzip) >"$TEST_TMP/hang.cpio.gz"
	fails_with 1 "guest hung: no result after 10s" boot fixed "$TEST_TMP/hang.cpio.gz" \
		"$TEST_TMP/hang.log" "" --timeout 10 &&
		[ -f "$TEST_TMP/hang.log" ]
}
check "a guest that hangs: clear error after the timeout, console log kept" hangs

# A real WARN() (LKDTM) after which the job still ends normally.
splat() {
	fails_with 1 "kernel splat: .*; console: $TEST_TMP/splat.log" boot fixed "${INITRAMFS[$ARCH]}" \
		"$TEST_TMP/splat.log" "" --job splat &&
		grep -q 'WARNING: .*lkdtm' "$TEST_TMP/splat.log" && grep -q '^@@@ guest-end' "$TEST_TMP/splat.log" &&
		[ "$("$SCRIPTS_DIR/parse-console.sh" --verdict "$TEST_TMP/splat.log" "$ARCH" cores fixed 1)" = \
			"$ARCH,cores,fixed,1,missing,missing,missing,splat" ]
}
check "a kernel splat fails the boot, whatever the job said" splat

# The whole of verify.sh on one boot whose selftest skips (autogroup off):
# no verdict is an error, named with its console log.
verify_without_verdict() {
	fails_with 1 "verdicts wrong or missing" "$SCRIPTS_DIR/verify.sh" --arch "$ARCH" \
		--variants "fixed$SUFFIX" --topologies cores --boots 1 --append "$APPEND noautogroup" \
		--out "$TEST_TMP/verify" &&
		grep -qxF "error: $ARCH cores fixed$SUFFIX boot 1: no verdict (skip); console: logs/$ARCH-cores-fixed$SUFFIX-1.log" \
			"$TEST_TMP/fail.out"
}
check "verify.sh exits 1 and names the boot when a boot gives no verdict" verify_without_verdict

[ "$TEST_FAILED" -eq 0 ]
