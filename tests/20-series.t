#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series in patches/: tags, git am onto the regressed tree,
# checkpatch.pl --strict, and the selftest in it equal to selftests/.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 8

PATCHES=$PROJECT_DIR/patches
fix_patches() { grep -L '^diff --git a/tools/testing/selftests/' "$PATCHES"/0*.patch | grep -v /0000-; }

has_tags() {
	local p
	[ -n "$(fix_patches)" ] || { echo "no fix patch in patches/"; return 1; }
	for p in $(fix_patches); do
		if ! grep -q '^Fixes: eff6c8ce8d4d ("sched/core: Reduce cost of sched_move_task when config autogroup")$' "$p" ||
			! grep -q '^Reported-by: Hagar Hemdan <hagarhem@amazon.com>$' "$p" ||
			! grep -q '^Closes: https://lore.kernel.org/r/20250205151026.13061-1-hagarhem@amazon.com$' "$p" ||
			! grep -q '^Signed-off-by: ' "$p"; then
			echo "tags missing in $p"
			return 1
		fi
	done
}
check "fix patches carry Fixes:, Reported-by:, Closes:, Signed-off-by:" has_tags

cover_letter() {
	local c=$PATCHES/0000-cover-letter.patch
	grep -q '^base-commit: [0-9a-f]\{40\}$' "$c" && grep -q '^To: ' "$c" &&
		! grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE' "$c"
}
check "cover letter: subject, text, recipients, base-commit" cover_letter

FIXED=""
applies() { FIXED=$("$SCRIPTS_DIR/kernel-tree.sh" fixed); }
check "the series applies with git am onto the regressed tree" applies

checkpatch_clean() {
	local p
	for p in "$PATCHES"/0*.patch; do
		case "$p" in */0000-*) continue ;; esac
		# Debian's tree has no upstream history to look commit ids up in.
		(cd "$FIXED" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q \
			--ignore UNKNOWN_COMMIT_ID "$p") || return 1
	done
}
check "checkpatch.pl --strict is clean" checkpatch_clean

selftest_in_series() {
	local f
	for f in "$PROJECT_DIR"/selftests/sched/* "$PROJECT_DIR"/selftests/sched/.gitignore; do
		cmp "$f" "$FIXED/tools/testing/selftests/sched/$(basename "$f")" || return 1
	done
}
check "the selftest files in the series equal selftests/sched/" selftest_in_series

check "MAINTAINERS-snippet is in the series" \
	grep -qx 'F:	tools/testing/selftests/sched/' "$FIXED/MAINTAINERS"

broken_series() {
	local proj=$TEST_TMP/project
	mkdir -p "$proj/patches"
	cp -r "$SCRIPTS_DIR" "$proj/"
	sed 's/^-	if (group == tsk->sched_task_group)$/-	if (nothing_like_this)/' \
		"$SCRIPTS_DIR/kernel/reinstate-sched_move_task-fast-path.patch" \
		>"$proj/patches/0001-broken.patch"
	sed -i 's/^+	if (group == tsk->sched_task_group)$/+	if (nothing_like_this)/; s/^-	struct rq \*rq;$/-	struct rq *does_not_exist;/' \
		"$proj/patches/0001-broken.patch"
	BUILD_DIR=$TEST_TMP/build KERNEL_SRC=$(git -C "$FIXED" rev-parse --path-format=absolute --git-common-dir)/.. \
		fails_with 1 "does not apply onto fixed's base" "$proj/scripts/kernel-tree.sh" fixed
}
check "a series that does not apply names the base it expects" broken_series

# A user's tree that still has the fast path (like v6.13.1) is the
# regressed kernel as it is; its reference must revert the fast path to
# exactly what Debian's tree (which has the revert) holds.
user_tree_with_fast_path() {
	local user=$TEST_TMP/linux regressed reference
	regressed=$("$SCRIPTS_DIR/kernel-tree.sh" regressed)
	git clone -q --shared --no-checkout "$(git -C "$regressed" rev-parse --path-format=absolute --git-common-dir)" "$user"
	git -C "$user" -c advice.detachedHead=false checkout -q "$(git -C "$regressed" rev-parse HEAD)"
	reference=$(BUILD_DIR=$TEST_TMP/build KERNEL_SRC=$user "$SCRIPTS_DIR/kernel-tree.sh" reference)
	cmp "$reference/kernel/sched/core.c" "$("$SCRIPTS_DIR/kernel-tree.sh" reference)/kernel/sched/core.c" &&
		[ -z "$(git -C "$user" status --porcelain)" ]
}
check "KERNEL_SRC with the fast path: reference reverts it exactly, user tree untouched" \
	user_tree_with_fast_path

[ "$TEST_FAILED" -eq 0 ]
