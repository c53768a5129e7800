#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Everything the tests before this one used (make check and make
# check-arches trace them with scripts/deps/deps-trace.sh, each its own
# file) comes from a package that a fresh Debian 12 machine gets from
# scripts/install-deps.sh. Derived from what ran: the builds of the
# kernels and initramfs of every arch the run boots (of the kernel's
# compile and the whole-tree git and tar commands, the programs: they run
# beside strace, scripts/lib/trace.sh), the kselftest build and install,
# QEMU, the series checks. The two runs together use every arch's
# packages.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 4

TRACE=${FORK_REGRESSION_DEPS_TRACE:-}
if [ -z "$TRACE" ] || [ ! -s "$TRACE" ]; then
	for t in "install-deps.sh provides all" "without rsync" "without a guest's C library" "without libelf-dev"; do
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

# guest_libc: the cross C library package of the first arch (as ARCHES
# lists them) whose headers the traced run opened, building its guest's
# programs: arm64's in make check, a 32-bit arch's in make check-arches.
guest_libc() {
	bash -c '. "$1/lib.sh"
		for arch in $ARCHES; do
			cross=$(arch_field "$arch" ARCH_CROSS_COMPILE)
			[ -n "$cross" ] && grep -q "^o /usr/${cross%-}/include/" "$2" || continue
			for p in $(arch_field "$arch" ARCH_PACKAGES); do
				case $p in libc6-dev-*-cross) echo "$p"; exit 0 ;; esac
			done
		done
		exit 1' _ "$SCRIPTS_DIR" "$TRACE"
}
if LIBC=$(guest_libc); then
	check "without $LIBC, the check names it" \
		fails_with 1 "in package $LIBC," "$SCRIPTS_DIR/deps/check-deps.sh" --without "$LIBC" "$TRACE"
else
	check "a guest of another arch than the host's was built" false
fi

# The kernel's compile runs beside strace (scripts/lib/trace.sh), but
# the prepare step that builds objtool against libelf stays traced: where
# an x86_64 kernel was built (make check-arches; kernel-build.sh, traced,
# opened its build.log), libelf-dev must be named. objtool is x86_64's.
if grep -q '^o .*/out-x86_64\(-[^/]*\)\?/build\.log$' "$TRACE"; then
	check "without libelf-dev (objtool, in make prepare), the check names it" \
		fails_with 1 "in package libelf-dev," "$SCRIPTS_DIR/deps/check-deps.sh" --without libelf-dev "$TRACE"
else
	skip_test "without libelf-dev (objtool, in make prepare), the check names it" \
		"no x86_64 kernel built in this run (make check-arches builds one)"
fi

[ "$TEST_FAILED" -eq 0 ]
