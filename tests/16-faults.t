#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # the functions run through check
# kernel-tree.sh when the machine is not as it expects, in seconds: what
# a killed run left (a temporary tree) must not stay. Debian's tarball
# is a tiny one of the same form (DEBIAN_TARBALL).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 1

# shellcheck source=tests/fakes.sh
. "$(dirname "$0")/fakes.sh"

# as_root DESCRIPTION COMMAND...: check, where the test runs as root (mount
# namespaces, another user); else skip.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then check "$@"; else skip_test "$1" "needs root"; fi
}
KERNEL_TREE=$PROJ/scripts/kernel-tree.sh

# The smallest linux-source tarball: a top Makefile with the version, the
# files kernel-tree.sh reads, and 300 files of 8 KiB that a small tmpfs
# cannot hold, each a line of tar's complaints when it is full.
make_tarball() {
	local top=$TEST_TMP/tarball/linux-source-6.12 i
	mkdir -p "$top/kernel/sched" "$top/drivers"
	printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n' >"$top/Makefile"
	: >"$top/kernel/sched/core.c"
	: >"$top/kernel/sched/fair.c"
	for i in $(seq 300); do head -c 8192 /dev/zero >"$top/drivers/f$i.c"; done
	tar -C "$TEST_TMP/tarball" -cJf "$TEST_TMP/linux-source.tar.xz" linux-source-6.12
}
make_tarball
export DEBIAN_TARBALL=$TEST_TMP/linux-source.tar.xz
REPO_NAME=debian-6.12.0

# The temporary tree of a run that is gone is removed (the rm of its
# EXIT trap never ran: SIGKILL, a power loss), one of a run that still
# works on it is kept.
stale_trees() {
	local src=$BUILD_DIR/src gone alive out=$TEST_TMP/stale.out
	sleep 0 &
	gone=$!
	wait "$gone"
	sleep 30 &
	alive=$!
	mkdir -p "$src/$REPO_NAME.tmp.$gone/drivers" "$src/user-v6.12.0-0123456789ab.tmp.$gone" \
		"$src/$REPO_NAME.tmp.$alive"
	"$KERNEL_TREE" reference >"$out" 2>&1 || { cat "$out"; kill "$alive"; return 1; }
	kill "$alive"
	if [ -e "$src/$REPO_NAME.tmp.$gone" ] || [ -e "$src/user-v6.12.0-0123456789ab.tmp.$gone" ] ||
		[ ! -d "$src/$REPO_NAME.tmp.$alive" ] ||
		! grep -q "removing $src/$REPO_NAME.tmp.$gone, left by a run that was killed" "$out"; then
		cat "$out"
		ls -la "$src"
		return 1
	fi
	rm -rf "$src/$REPO_NAME.tmp.$alive"
}
check "a temporary tree of a run that is gone is removed, of one that runs kept" stale_trees

exit "$TEST_FAILED"
