#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The posting flow, scripts/posting/send-series.sh, on a scratch copy of the
# project with a throwaway identity: the mail of patches/6.12.y is made
# on Debian's tree, carries that identity and no other, passes
# checkpatch.pl --strict, git am's onto the base, and git send-email
# --dry-run shows it from that identity; a placeholder identity, or a
# placeholder address in a trailer, stops the run before git send-email;
# a patch that reworks someone's own keeps that author and their
# sign-off, the runner's after it.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 8

ME="Ada Tester <ada.tester@kernel-tester.dev>"
PROJ=$TEST_TMP/project
mkdir -p "$PROJ/patches"
cp -r "$SCRIPTS_DIR" "$PROJ/"
cp -r "$PROJECT_DIR/patches/6.12.y" "$PROJECT_DIR/patches/mainline-fixes" "$PROJ/patches/"
# The project's own trees: the copy's series is the same, so
# kernel-tree.sh's fixed tree stays as it is for the dry run; after the
# changed patch below, the next build of the fixed kernel puts the series
# back (its stamp), rewriting the three files it touches.
FIXED=$("$SCRIPTS_DIR/kernel-tree.sh" fixed)
export BUILD_DIR=${BUILD_DIR:-$PROJECT_DIR/build}

# as IDENTITY CMD...: CMD with IDENTITY ("Name <email>") as the only git
# identity there is.
as() {
	local id=$1 cfg
	shift
	cfg=$(mktemp -p "$TEST_TMP" gitconfig.XXXX)
	git config -f "$cfg" user.name "${id% <*}"
	id=${id#*<}
	git config -f "$cfg" user.email "${id%>}"
	GIT_CONFIG_GLOBAL=$cfg GIT_CONFIG_NOSYSTEM=1 "$@"
}

check "send-series.sh --help" "$PROJ/scripts/posting/send-series.sh" --help

# Before any work on a tree: a series that waits is refused with its
# reason, a mainline series without KERNEL_SRC names what it needs; then
# the posting flow below goes on with 6.12.y as a sender who decided to
# post it would (its hold file gone), on the tree Debian's package has.
refused_at_once() {
	local start=$SECONDS
	as "$ME" fails_with 1 "patches/6.12.y waits: to stable@ once mainline/ and mainline-removal/ are merged" \
		"$PROJ/scripts/posting/send-series.sh" "$PROJ/patches/6.12.y" || return 1
	(
		unset KERNEL_SRC
		as "$ME" fails_with 1 \
			"patches/mainline-fixes is made on mainline (base-commit 155b42bec9cb): set KERNEL_SRC" \
			"$PROJ/scripts/posting/send-series.sh" "$PROJ/patches/mainline-fixes"
	) || return 1
	[ $((SECONDS - start)) -le 5 ] || { echo "took $((SECONDS - start)) s"; return 1; }
	rm "$PROJ/patches/6.12.y/hold"
}
check "a series that waits, or needs KERNEL_SRC, is refused before any tree work" refused_at_once

placeholder_refused() {
	as "Seed maintainers <maintainers@users.noreply.a-seed.example>" \
		fails_with 1 "is a placeholder" "$PROJ/scripts/posting/send-series.sh" "$PROJ/patches/6.12.y"
}
check "a placeholder identity (.example) is refused" placeholder_refused

OUT=$TEST_TMP/outgoing
dry_run() {
	as "$ME" "$PROJ/scripts/posting/send-series.sh" --out "$OUT" "$PROJ/patches/6.12.y" >"$TEST_TMP/dry.out" 2>&1 ||
		{ cat "$TEST_TMP/dry.out"; return 1; }
	grep -q '^Dry-OK' "$TEST_TMP/dry.out" || { cat "$TEST_TMP/dry.out"; return 1; }
	# One message per file, each from the runner, none to a placeholder.
	if [ "$(grep -c '^Dry-OK' "$TEST_TMP/dry.out")" -ne "$(find "$OUT" -name '*.patch' | wc -l)" ] ||
		grep '^From: ' "$TEST_TMP/dry.out" | grep -qvxF "From: $ME" ||
		grep '^MAIL FROM:' "$TEST_TMP/dry.out" | grep -qvxF 'MAIL FROM:<ada.tester@kernel-tester.dev>' ||
		grep -qiE '^RCPT TO:<[^>]*\.(example|invalid|test|localhost)>' "$TEST_TMP/dry.out" ||
		# A stable backport goes to stable@.
		! grep -qx 'To: stable@vger.kernel.org' "$TEST_TMP/dry.out"; then
		grep -E '^(Dry-OK|From|MAIL FROM|RCPT TO):' "$TEST_TMP/dry.out"
		return 1
	fi
}
check "the dry run shows every message from the runner, to stable@ and no placeholder" dry_run

# mail_identities OUT: the mail in OUT git am'd onto the base in a
# scratch worktree; per commit, in order, "author|Signed-off-by,...".
mail_identities() {
	local out=$1 wt=$TEST_TMP/am rc=0
	sparse_worktree "$FIXED" "$wt" 'refs/tags/base^{commit}' "$out"/0[0-9][0-9][1-9]-*.patch || return 1
	git -C "$wt" -c user.name=t -c user.email=t@t am -q "$out"/0[0-9][0-9][1-9]-*.patch || rc=1
	[ "$rc" -ne 0 ] || git -C "$wt" log --reverse \
		--format='%an <%ae>|%(trailers:key=Signed-off-by,valueonly,separator=%x2C)' 'refs/tags/base..HEAD'
	git -C "$FIXED" worktree remove --force "$wt"
	return "$rc"
}

only_the_runner() {
	local ids
	ids=$(mail_identities "$OUT") || return 1
	# The author and exactly one Signed-off-by:, the runner's.
	if [ -z "$ids" ] || grep -vxF "$ME|$ME" <<<"$ids"; then
		echo "$ids"
		return 1
	fi
}
check "the mail git am's onto the base; author and Signed-off-by: the runner's alone" only_the_runner

# checkpatch_mail OUT: checkpatch.pl --strict on each patch of the mail.
checkpatch_mail() {
	local p
	for p in "$1"/0[0-9][0-9][1-9]-*.patch; do
		(cd "$FIXED" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q \
			--ignore UNKNOWN_COMMIT_ID "$p") || { echo "in $p"; return 1; }
	done
}
check "the mail passes checkpatch.pl --strict" checkpatch_mail "$OUT"

ORIG="Orig Author <orig.author@kernel-tester.dev>"
original_author() {
	local p out=$TEST_TMP/outgoing-orig rc=0 ids
	p=$(find "$PROJ/patches/6.12.y" -name '0001-*.patch')
	cp "$p" "$TEST_TMP/0001.saved"
	# The first patch as the original author's, signed by them, with a
	# note on the rework before the committed placeholder's sign-off.
	sed -i -e "0,/^From: .*/s//From: $ORIG/" -e '/^ <maintainers@/d' \
		-e "0,/^Signed-off-by: /s//Signed-off-by: $ORIG\n[ Reworked. ]\n&/" "$p"
	echo "$ORIG  # wrote the patch the first one reworks" >"$PROJ/patches/6.12.y/original-authors"
	as "$ME" "$PROJ/scripts/posting/send-series.sh" --out "$out" "$PROJ/patches/6.12.y" >"$TEST_TMP/orig.out" 2>&1 ||
		{ cat "$TEST_TMP/orig.out"; rc=1; }
	cp "$TEST_TMP/0001.saved" "$p"
	rm "$PROJ/patches/6.12.y/original-authors"
	[ "$rc" -eq 0 ] || return 1
	ids=$(mail_identities "$out") || return 1
	# The first: its author, signed by them and then the runner; the
	# others the runner's alone.
	if [ "$(head -n 1 <<<"$ids")" != "$ORIG|$ORIG,$ME" ] ||
		tail -n +2 <<<"$ids" | grep -vxF "$ME|$ME"; then
		echo "$ids"
		return 1
	fi
	checkpatch_mail "$out"
}
check "an original author stays author of their reworked patch, signed by them, then the runner" original_author

placeholder_trailer() {
	local p
	p=$(find "$PROJ/patches/6.12.y" -name '0001-*.patch')
	sed -i '0,/^Signed-off-by: /s//Tested-by: Nobody <nobody@example.com>\n&/' "$p"
	as "$ME" fails_with 1 "placeholder address nobody@example.com" \
		"$PROJ/scripts/posting/send-series.sh" --out "$TEST_TMP/outgoing-bad" "$PROJ/patches/6.12.y" &&
		! grep -q '^Dry-OK' "$TEST_TMP/fail.out"
}
check "a placeholder address in a trailer stops the run before git send-email" placeholder_trailer

[ "$TEST_FAILED" -eq 0 ]
