#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A 32-bit guest end to end, short form: the fixed kernel for i386 (where
# unsigned long is 32 bits wide in kernel/sched/) boots, the PELT bounds
# test passes (no cfs_rq's load_avg or runnable_avg beyond what its tasks
# give, through wakeup migrations, exits and a fair -> FIFO switch), and
# so does the selftest, the kselftest way.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 4

IMAGE=
build() { IMAGE=$("$SCRIPTS_DIR/kernel-build.sh" i386 fixed); }
check "i386 fixed kernel builds" build
INITRAMFS=
initramfs() { INITRAMFS=$("$SCRIPTS_DIR/guest-initramfs.sh" i386); }
check "i386 initramfs builds" initramfs

pelt_bounds() {
	local log=$TEST_TMP/pelt-bounds.log
	"$SCRIPTS_DIR/guest-boot.sh" --job pelt_bounds i386 "$IMAGE" "$INITRAMFS" "$log" || return 1
	tr -d '\r' <"$log" | sed -n '/^@@@ guest-begin/,/^@@@ guest-end/p' >"$log.job"
	cat "$log.job"
	grep -qx 'ok 1 removal' "$log.job" && grep -qx 'ok 2 setscheduler' "$log.job" &&
		grep -qx '@@@ guest-end rc=0' "$log.job"
}
check "i386: every cfs_rq's averages stay within bounds" pelt_bounds

selftest() {
	local log=$TEST_TMP/selftest.log got
	"$SCRIPTS_DIR/guest-boot.sh" i386 "$IMAGE" "$INITRAMFS" "$log" || return 1
	got=$("$SCRIPTS_DIR/parse-console.sh" --verdict "$log" i386 cores fixed 1)
	grep -E 'summary|ok' "$log"
	echo "verdict: $got"
	[ "${got##*,}" = ok ]
}
check "i386: the selftest passes on the fixed kernel" selftest
