#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# End to end on x86_64: build the reference, regressed and fixed kernels,
# boot each under QEMU and run the selftest the kselftest way. It must
# fail on the regressed kernel and pass on the others. Then the
# selftest's cleanup paths on cgroup v2, in the guest.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 10

declare -A IMAGE
build() { IMAGE[$1]=$("$SCRIPTS_DIR/kernel-build.sh" x86_64 "$1"); }
for v in reference regressed fixed; do
	check "x86_64 $v kernel builds" build "$v"
done
check "x86_64 initramfs builds" "$SCRIPTS_DIR/guest-initramfs.sh" x86_64

# verdict KERNEL WANT: boot KERNEL, the selftest's result must be WANT.
verdict() {
	local log=$TEST_TMP/$1.log got
	"$SCRIPTS_DIR/guest-boot.sh" x86_64 "${IMAGE[$1]}" \
		"$PROJECT_DIR/build/guest/x86_64/initramfs.cpio.gz" "$log" || return 1
	got=$("$SCRIPTS_DIR/parse-console.sh" --verdict "$log" x86_64 cores "$1" 1)
	grep -E 'summary|ok' "$log"
	echo "verdict: $got"
	[ "${got##*,}" = "$2" ]
}
check "the selftest passes on the reference kernel" verdict reference ok
check "the selftest fails on the regressed kernel" verdict regressed fail
check "the selftest passes on the fixed kernel" verdict fixed ok

# The selftest's cleanup on cgroup v2 (the host tests cover v1).
guest_cleanup() {
	local log=$TEST_TMP/cleanup.log
	"$SCRIPTS_DIR/guest-boot.sh" --job cleanup x86_64 "${IMAGE[fixed]}" \
		"$PROJECT_DIR/build/guest/x86_64/initramfs.cpio.gz" "$log" || return 1
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

[ "$TEST_FAILED" -eq 0 ]
