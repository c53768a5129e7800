#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Everything the tests before this one used (make check traces them with
# scripts/deps/deps-trace.sh) comes from a package that a fresh Debian 12
# machine gets from scripts/install-deps.sh. Derived from what ran: the
# builds of the kernels and initramfs of every arch make check boots
# (of the kernel's compile and the whole-tree git and tar commands, the
# programs: they run beside strace, scripts/lib/trace.sh), the kselftest
# build and install, QEMU, the series checks.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 4

TRACE=${FORK_REGRESSION_DEPS_TRACE:-}
if [ -z "$TRACE" ] || [ ! -s "$TRACE" ]; then
	for t in "install-deps.sh provides all" "without rsync" "without the arm64 libc" "without libelf-dev"; do
		skip_test "$t" "no trace: run through make check"
	done
	exit 0
fi

check "every program and file used comes from install-deps.sh's packages" \
	"$SCRIPTS_DIR/deps/check-deps.sh" "$TRACE"

# The check would have caught the two packages a fresh machine lacked:
# rsync (kselftest install) and the arm64 libc headers (static selftest).
check "without rsync, the check names it" \
	fails_with 1 "in package rsync," "$SCRIPTS_DIR/deps/check-deps.sh" --without rsync "$TRACE"
check "without libc6-dev-arm64-cross, the check names it" \
	fails_with 1 "in package libc6-dev-arm64-cross," \
	"$SCRIPTS_DIR/deps/check-deps.sh" --without libc6-dev-arm64-cross "$TRACE"

# The kernel's compile runs beside strace (scripts/lib/trace.sh), but
# the prepare step that builds objtool against libelf stays traced.
check "without libelf-dev (objtool, in make prepare), the check names it" \
	fails_with 1 "in package libelf-dev," "$SCRIPTS_DIR/deps/check-deps.sh" --without libelf-dev "$TRACE"

[ "$TEST_FAILED" -eq 0 ]
