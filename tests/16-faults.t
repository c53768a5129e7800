#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # the functions run through check
# kernel-tree.sh and the machine lock when the machine is not as they
# expect, in seconds: a read-only or full BUILD_DIR must stop at the
# first error with one line and leave no tree behind; what a killed run
# left (a temporary tree, a partial tree at the final name, a worktree
# half made) must not break the next run; and the machine lock must
# work for every user and name who holds it. Debian's tarball is a tiny
# one of the same form (DEBIAN_TARBALL), full and read-only disks are
# tmpfs mounts in a mount namespace of their own (root only).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 14

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

# A df that says every filesystem has room, so that the free-space check
# passes and tar meets the full disk itself.
mkdir -p "$TEST_TMP/roomy"
cat >"$TEST_TMP/roomy/df" <<'ROOMY'
#!/bin/sh
echo "Filesystem 1024-blocks Used Available Capacity Mounted on"
echo "fake 1073741824 0 1073741824 0% /"
ROOMY
chmod +x "$TEST_TMP/roomy/df"

# on_tmpfs DIR OPTIONS CMD...: CMD with a tmpfs mounted on DIR (mount
# options OPTIONS) that no other process sees. Under make check's tracer
# CMD runs its untraced commands itself (no FORK_REGRESSION_UNTRACED):
# the tracer's server, outside this mount namespace, would not see the
# tmpfs.
on_tmpfs() {
	local dir=$1 options=$2
	shift 2
	mkdir -p "$dir"
	# shellcheck disable=SC2016 # for the inner shell
	env -u FORK_REGRESSION_UNTRACED unshare -m bash -c 'mount -t tmpfs -o "$1" tmpfs "$2" && shift 2 && "$@"' \
		_ "$options" "$dir" "$@"
}

# one_error OUT: OUT holds exactly one error: line and no line of a git
# step after the failed one.
one_error() {
	local errors
	errors=$(grep -c '^error: ' "$1") || true
	if [ "$errors" -ne 1 ] || grep -q 'a git repository$' "$1"; then
		echo "expected one error: line and no git step:"
		cat "$1"
		return 1
	fi
}

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

# set -e in every script holds inside $(...) too: a function run for its
# output stops at its first failed command (else repo=$(source_repo)
# would go on past a failed tar).
errexit_in_substitutions() {
	local rc=0 out
	# shellcheck disable=SC2016 # for the inner shell
	out=$(bash -c 'set -euo pipefail; . "$1"; step() { false; echo "went on"; }; made=$(step); echo "$made"' \
		_ "$PROJ/scripts/lib.sh" 2>&1) || rc=$?
	if [ "$rc" -ne 1 ] || [ -n "$out" ]; then
		echo "exit $rc: $out"
		return 1
	fi
}
check "set -e holds inside command substitutions" errexit_in_substitutions

# In the root of a read-only filesystem BUILD_DIR/src cannot be made.
read_only_empty() {
	local out=$TEST_TMP/ro-empty.out rc=0
	BUILD_DIR=$TEST_TMP/ro on_tmpfs "$TEST_TMP/ro" ro "$KERNEL_TREE" reference >"$out" 2>&1 || rc=$?
	[ "$rc" -eq 1 ] || { echo "exit $rc"; cat "$out"; return 1; }
	if ! grep -q '^error: cannot make .*Read-only file system$' "$out" || [ "$(wc -l <"$out")" -ne 1 ]; then
		cat "$out"
		return 1
	fi
}
as_root "a read-only BUILD_DIR: one error line, exit 1" read_only_empty

# BUILD_DIR/src exists, and the filesystem was made read-only since.
read_only_later() {
	local dir=$TEST_TMP/ro out=$TEST_TMP/ro-later.out rc=0
	# shellcheck disable=SC2016 # for the inner shell
	BUILD_DIR=$dir on_tmpfs "$dir" rw bash -c 'mkdir -p "$1/src" "$1/kernels" && mount -o remount,ro "$1" &&
		"$2" reference >"$3" 2>&1; rc=$?; find "$1/src" -mindepth 1 >>"$3"; exit "$rc"' _ \
		"$dir" "$KERNEL_TREE" "$out" || rc=$?
	[ "$rc" -eq 1 ] || { echo "exit $rc"; cat "$out"; return 1; }
	one_error "$out" || return 1
	if ! grep -q '^error: cannot make .*Read-only file system$' "$out" || grep -q "^$dir/src/" "$out"; then
		cat "$out"
		return 1
	fi
}
as_root "a BUILD_DIR made read-only later: one error line, no git step, exit 1" read_only_later

# tar on a full disk: one line for its hundreds, no git step after it,
# and neither the temporary tree nor a partial tree at the final name.
full_disk() {
	local dir=$TEST_TMP/full out=$TEST_TMP/full.out rc=0
	# shellcheck disable=SC2016 # for the inner shell
	PATH=$TEST_TMP/roomy:$PATH BUILD_DIR=$dir on_tmpfs "$dir" size=512k bash -c \
		'"$1" reference >"$2" 2>&1; rc=$?; find "$3/src" -mindepth 1 -maxdepth 1 >>"$2"; exit "$rc"' _ \
		"$KERNEL_TREE" "$out" "$dir" || rc=$?
	[ "$rc" -eq 1 ] || { echo "exit $rc"; cat "$out"; return 1; }
	one_error "$out" || return 1
	if ! grep -Eq '^error: cannot extract .*(: No space left on device \(and [0-9]+ more lines|, most ending: No space left on device)\)$' "$out" ||
		grep -q "^$dir/src/" "$out" || [ "$(wc -l <"$out")" -gt 2 ]; then
		cat "$out"
		return 1
	fi
}
as_root "a full disk under the extraction: one error line, nothing left, exit 1" full_disk

# The free-space check (scripts/free-space.sh) refuses before tar runs.
short_of_space() {
	local dir=$TEST_TMP/small out=$TEST_TMP/small.out rc=0
	# shellcheck disable=SC2016 # for the inner shell
	BUILD_DIR=$dir on_tmpfs "$dir" size=1m bash -c \
		'"$1" reference >"$2" 2>&1; rc=$?; find "$3/src" -mindepth 1 -maxdepth 1 >>"$2"; exit "$rc"' _ \
		"$KERNEL_TREE" "$out" "$dir" || rc=$?
	[ "$rc" -eq 1 ] || { echo "exit $rc"; cat "$out"; return 1; }
	if ! grep -qx "error: $dir/src has 0.0 GiB free; this run needs about 1 GiB there" "$out" ||
		[ "$(wc -l <"$out")" -ne 1 ]; then
		cat "$out"
		return 1
	fi
}
as_root "too little free space for the tree: refused before extracting, one line" short_of_space

# A tree at the final name without .git (renamed there before its git
# steps had passed) is replaced, not filled.
partial_tree() {
	local repo=$BUILD_DIR/src/$REPO_NAME out=$TEST_TMP/partial.out
	rm -rf "$repo" "$BUILD_DIR/kernels"
	mkdir -p "$repo/drivers"
	"$KERNEL_TREE" reference >"$out" 2>&1 || { cat "$out"; return 1; }
	if ! grep -q "removing $repo: a tree left half made" "$out" ||
		! git -C "$repo" rev-parse -q --verify refs/tags/base >/dev/null ||
		[ -n "$(find "$repo" -maxdepth 1 -name '*.tmp.*')" ]; then
		cat "$out"
		ls -la "$repo"
		return 1
	fi
}
check "a partial tree at the final name is replaced by a whole repository" partial_tree

# A git worktree add that was killed leaves a directory that is no
# worktree: its .git names an administrative directory that is gone, or
# it has no .git yet (and git's own record of it is locked). BUILD_DIR
# lies in a git repository, as build/ does in the project's: git must
# not find that one instead.
WT=$BUILD_DIR/kernels/$REPO_NAME/reference
half_made() {
	local out=$TEST_TMP/half.out head
	head=$(git -C "$BUILD_DIR/src/$REPO_NAME" rev-parse 'refs/tags/base^{commit}')
	rm -f "$WT/.variant-stamp"
	"$@"
	"$KERNEL_TREE" reference >"$out" 2>&1 || { cat "$out"; return 1; }
	if ! grep -q "$WT is a worktree left half made" "$out" ||
		[ "$(git -C "$WT" rev-parse HEAD)" != "$head" ] ||
		git -C "$TEST_TMP" rev-parse -q --verify HEAD >/dev/null; then
		cat "$out"
		return 1
	fi
}
admin_gone() { rm -rf "$BUILD_DIR/src/$REPO_NAME/.git/worktrees/reference"; }
no_dot_git() {
	rm -f "$WT/.git"
	echo initializing >"$BUILD_DIR/src/$REPO_NAME/.git/worktrees/reference/locked"
}
git -C "$TEST_TMP" init -q
check "a worktree whose git directory is gone is made again" half_made admin_gone
check "a worktree without .git is made again, the repository around it untouched" half_made no_dot_git

# The machine lock as another user: nobody, in a sticky directory open to
# all as /tmp is, with the project copy readable.
chmod 711 "$TEST_TMP"
SHARED=$TEST_TMP/shared
mkdir -m 1777 "$SHARED"
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
# lock_and_run LOCK [WRAP...]: take LOCK as every tool does, under WRAP,
# and run true there.
lock_and_run() {
	local lock=$1
	shift
	# shellcheck disable=SC2016 # for the inner shell
	FORK_REGRESSION_LOCK=$lock "$@" bash -c 'set -euo pipefail; . "$1"; with_machine_lock true' _ "$PROJ/scripts/lib.sh"
}

lock_made_for_all() {
	lock_and_run "$SHARED/new.lock" || return 1
	[ "$(stat -c %a "$SHARED/new.lock")" = 666 ] || { ls -l "$SHARED/new.lock"; return 1; }
}
check "a missing machine lock is made writable for every user" lock_made_for_all

others_lock() {
	: >"$SHARED/root.lock"
	chmod 644 "$SHARED/root.lock"
	lock_and_run "$SHARED/root.lock" "${NOBODY[@]}"
}
as_root "another user's machine lock (0644) works" others_lock

unreadable_lock() {
	local out=$TEST_TMP/closed.out
	: >"$SHARED/closed.lock"
	chmod 600 "$SHARED/closed.lock"
	fails_with 1 "FORK_REGRESSION_LOCK" lock_and_run "$SHARED/closed.lock" "${NOBODY[@]}" || return 1
	if ! grep -q "^error: cannot open the machine lock $SHARED/closed.lock (Permission denied): " "$TEST_TMP/fail.out" ||
		[ "$(wc -l <"$TEST_TMP/fail.out")" -ne 1 ]; then
		cat "$TEST_TMP/fail.out"
		return 1
	fi
}
as_root "a machine lock that cannot be opened: one error line naming it and FORK_REGRESSION_LOCK" unreadable_lock

# waits_for_holder WRAP...: wait 1 s, under WRAP, for a machine lock that
# a tool holds (a shell in with_machine_lock, as every tool takes it);
# print the holder's pid and what the waiter said.
waits_for_holder() {
	local lock=$SHARED/held.lock release=$TEST_TMP/release holder
	mkfifo "$release"
	# shellcheck disable=SC2016 # for the inner shell
	FORK_REGRESSION_LOCK=$lock bash -c '. "$1" && with_machine_lock cat "$2"' holding-tool \
		"$PROJ/scripts/lib.sh" "$release" >/dev/null &
	holder=$!
	until [ -e "$lock" ] && ! flock -n "$lock" true; do sleep 0.1; done
	# shellcheck disable=SC2016 # for the inner shell
	FORK_REGRESSION_LOCK=$lock timeout 1 "$@" bash -c '. "$1" && with_machine_lock true' _ "$PROJ/scripts/lib.sh" \
		>"$TEST_TMP/waiter.out" 2>&1 || true
	: >"$release"
	wait "$holder"
	rm -f "$release"
	echo "holder $holder"
	cat "$TEST_TMP/waiter.out"
}
names_holder() {
	local out holder
	out=$(waits_for_holder)
	holder=$(awk '$1 == "holder" { print $2 }' <<<"$out")
	grep -q "waiting for the machine lock .*, held by pid $holder (bash -c \. .* with_machine_lock cat \"\$2\" holding-tool " <<<"$out" ||
		{ echo "$out"; return 1; }
}
check "waiting for the machine lock names the holder's pid and command line" names_holder
unknown_holder() {
	local out
	out=$(waits_for_holder unshare -pf --mount-proc)
	grep -q "waiting for the machine lock .*, held by an unknown holder" <<<"$out" || { echo "$out"; return 1; }
}
as_root "and says unknown holder where it cannot see it (another pid namespace)" unknown_holder

exit "$TEST_FAILED"
