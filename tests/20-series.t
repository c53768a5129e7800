#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series in patches/: tags, cover letters, checkpatch.pl --strict,
# git am of the Debian-based series onto Debian's tree, the selftest of
# the kselftest series and the MAINTAINERS hunk of kselftest-fixes, and
# how kernel-tree.sh picks a series and copes with the trees users have.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 20

PATCHES=$PROJECT_DIR/patches
REPORT=https://lore.kernel.org/r/20250205151026.13061-1-hagarhem@amazon.com
series_dirs() { find "$PATCHES" -mindepth 1 -maxdepth 1 -type d | sort; }
patches_of() { find "$1" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort; }

four_series() {
	local d
	for d in 6.6.y 6.12.y 6.13.y 6.18.y mainline-fixes mainline mainline-removal mainline-fast-path \
		kselftest-fixes kselftest kselftest-default-run; do
		[ -n "$(patches_of "$PATCHES/$d")" ] || { echo "no series in patches/$d"; return 1; }
	done
	[ -z "$(find "$PATCHES" -maxdepth 1 -name '*.patch')" ] ||
		{ echo "patches outside a series directory:"; find "$PATCHES" -maxdepth 1 -name '*.patch'; return 1; }
}
check "patches/ holds the 6.6.y, 6.12.y, 6.13.y, 6.18.y, mainline-fixes, mainline, mainline-removal, mainline-fast-path, kselftest-fixes, kselftest and kselftest-default-run series and nothing loose" four_series

# The standalone fixes go first: mainline's series is made on top of
# them, as the fork placement test is on kselftest-fixes and the default
# run on both; every series a prerequisites file names exists.
prerequisites() {
	local d name
	[ "$(cat "$PATCHES/mainline/prerequisites")" = mainline-fixes ] || return 1
	[ "$(cat "$PATCHES/kselftest/prerequisites")" = kselftest-fixes ] ||
		{ echo "patches/kselftest does not go on top of kselftest-fixes"; return 1; }
	[ "$(cat "$PATCHES/kselftest-default-run/prerequisites")" = "kselftest-fixes
kselftest" ] || { echo "patches/kselftest-default-run does not go on top of kselftest-fixes and kselftest"; return 1; }
	for d in mainline-removal mainline-fast-path; do
		[ "$(cat "$PATCHES/$d/prerequisites")" = "mainline-fixes
mainline" ] || { echo "patches/$d does not go on top of mainline-fixes and mainline"; return 1; }
	done
	for d in $(series_dirs); do
		[ -f "$d/prerequisites" ] || continue
		while read -r name; do
			[ -d "$PATCHES/$name" ] || { echo "$d/prerequisites: no patches/$name"; return 1; }
		done <"$d/prerequisites"
	done
	for d in mainline mainline-removal mainline-fast-path; do
		grep -q '^prerequisite-patch-id: [0-9a-f]\{40\}$' "$PATCHES/$d/0000-cover-letter.patch" ||
			{ echo "the cover letter of patches/$d lists no prerequisite-patch-id"; return 1; }
	done
}
check "mainline goes on top of mainline-fixes, the removal and the fast path on both, as their cover letters list; the kselftest series on kselftest-fixes" prerequisites

# The PELT fix predates eff6c8ce8d4d and the report is closed by the
# revert: no Fixes: eff6c8ce8d4d, no Closes:, a Link: to the report on
# each patch the report is about (those that tell of eff6c8ce8d4d or
# of its revert, 76f970ce51c8).
# Every patch is signed off.
pelt_fix_tags() {
	local d p
	for d in $(series_dirs); do
		for p in $(patches_of "$d"); do
			grep -q '^Signed-off-by: ' "$p" || { echo "no Signed-off-by: in $p"; return 1; }
			if grep -q '^Fixes: eff6c8ce8d4d' "$p" || grep -q '^Closes: ' "$p"; then
				echo "Fixes: eff6c8ce8d4d or Closes: in $p"
				return 1
			fi
			if grep -q 'eff6c8ce8d4d\|76f970ce51c8' < <(sed '/^---$/q' "$p"); then
				grep -q "^Link: $REPORT\( # .*\)\?$" "$p" || { echo "no Link: to the report in $p"; return 1; }
			fi
		done
	done
}
check "tags: no Fixes: eff6c8ce8d4d or Closes:, Link: to the report, Signed-off-by:" pelt_fix_tags

cover_letters() {
	local d c
	for d in $(series_dirs); do
		c=$d/0000-cover-letter.patch
		# Notes for whoever posts it are in patches/README, not in the mail.
		if ! grep -q '^To: ' "$c" || grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE' "$c" ||
			grep -q '^Notes for the submitter' "$c"; then
			echo "incomplete cover letter $c"
			return 1
		fi
	done
	for d in mainline mainline-fixes mainline-removal mainline-fast-path kselftest-fixes kselftest \
		kselftest-default-run; do
		grep -q '^base-commit: [0-9a-f]\{40\}$' "$PATCHES/$d/0000-cover-letter.patch" ||
			{ echo "no base-commit in patches/$d"; return 1; }
	done
}
# One status per series: each patch's subject prefix is its cover
# letter's (RFC or not, version), numbered 1..N of N.
one_prefix() {
	local d prefix n i p subject want
	for d in $(series_dirs); do
		prefix=$(sed -n 's/^Subject: \[\(.*\) 0\/\([0-9]*\)\] .*/\1/p' "$d/0000-cover-letter.patch")
		n=$(sed -n 's/^Subject: \[.* 0\/\([0-9]*\)\] .*/\1/p' "$d/0000-cover-letter.patch")
		[ -n "$prefix" ] || { echo "no [PREFIX 0/N] subject in $d"; return 1; }
		i=0
		for p in $(patches_of "$d"); do
			i=$((i + 1))
			subject=$(sed -n 's/^Subject: //p' "$p")
			[[ "$subject" == "[$prefix $i/$n] "* ]] || { echo "$p: $subject, expected [$prefix $i/$n]"; return 1; }
		done
		[ "$i" = "$n" ] || { echo "$d: $i patches, cover letter says $n"; return 1; }
	done
	# RFC until real machines have measured the fix or run the test.
	for want in "mainline:RFC PATCH v4" "mainline-removal:RFC PATCH v3" \
		"mainline-fast-path:RFC PATCH v3" "kselftest:RFC PATCH" "kselftest-fixes:PATCH" \
		"kselftest-default-run:PATCH"; do
		d=${want%%:*}
		grep -q "^Subject: \\[${want#*:} 0/" "$PATCHES/$d/0000-cover-letter.patch" ||
			{ echo "patches/$d is not a [${want#*:}] series"; return 1; }
	done
}
check "each series has one subject prefix; mainline is RFC v4, mainline-removal and the fast path RFC v3, the fork placement test RFC, kselftest-fixes and the default run PATCH" one_prefix

check "cover letters: subject, text, recipients, no notes for the submitter; the mainline and kselftest series name their base-commit" cover_letters

# A maintainer decides in a cover letter's first screen: its summary,
# from the subject to "Changes in", the references or the shortlog,
# fits in 80 lines (a table included); the detailed figures live
# in Documentation/, one link away.
COVER_SUMMARY_LINES=80
short_covers() {
	local d n
	for d in $(series_dirs); do
		n=$(awk '/^Subject:/ { on = 1 }
			on && (/^Changes in v/ || /^\[1\] / || /^[^ ].* \([0-9]+\):$/) { exit }
			on { n++ } END { print n + 0 }' "$d/0000-cover-letter.patch")
		[ "$n" -le $COVER_SUMMARY_LINES ] ||
			{ echo "the summary of $d's cover letter has $n lines, more than $COVER_SUMMARY_LINES"; return 1; }
	done
}
check "every cover letter's summary fits in $COVER_SUMMARY_LINES lines" short_covers

FIXED=""
applies() { FIXED=$("$SCRIPTS_DIR/kernel-tree.sh" fixed) && [ "$(cat "$FIXED.series")" = patches/6.12.y ]; }
check "Debian's 6.12 tree takes patches/6.12.y, and it applies with git am" applies

# The stable series is for 6.12.y as it is (with the revert), not only
# for the regressed tree make verify measures it on.
applies_as_is() {
	local wt=$TEST_TMP/as-is patches rc
	mapfile -t patches < <(patches_of "$PATCHES/6.12.y")
	sparse_worktree "$FIXED" "$wt" 'refs/tags/base^{commit}' "${patches[@]}" &&
		git -C "$wt" -c user.name=t -c user.email=t@t am -q "${patches[@]}"
	rc=$?
	git -C "$FIXED" worktree remove --force "$wt"
	return "$rc"
}
check "patches/6.12.y applies with git am onto Debian's 6.12.117 as it is" applies_as_is

checkpatch_clean() {
	local d p s ignore
	for d in $(series_dirs); do
		# No upstream history to look commit ids up in. A series whose
		# MAINTAINERS patch (its own, or one of a series it goes on)
		# covers the files another patch adds cannot show checkpatch that
		# patch: FILE_PATH_CHANGES is then moot.
		ignore=UNKNOWN_COMMIT_ID
		for s in "$d" $(sed "s|^|$PATCHES/|" "$d/prerequisites" 2>/dev/null); do
			! grep -q '^diff --git a/MAINTAINERS ' "$s"/0*.patch || ignore=UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES
		done
		for p in $(patches_of "$d"); do
			(cd "$FIXED" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q \
				--ignore "$ignore" "$p") || { echo "in $p"; return 1; }
		done
	done
}
check "checkpatch.pl --strict is clean on every series" checkpatch_clean

# The fork placement test's series (patches/kselftest/) carries the
# selftest as it is in selftests/sched/.
selftest_in_kselftest_series() {
	local f out=$TEST_TMP/selftest-patch
	mkdir -p "$out"
	git -C "$out" init -q
	git -C "$out" apply --include='tools/testing/selftests/sched/fork_placement_test.c' \
		--include='tools/testing/selftests/sched/settings' "$PATCHES"/kselftest/*-selftests-sched-Add-*.patch
	for f in fork_placement_test.c settings; do
		cmp "$PROJECT_DIR/selftests/sched/$f" "$out/tools/testing/selftests/sched/$f" || return 1
	done
}
check "the kselftest series' selftest patch holds selftests/sched/ as it is" selftest_in_kselftest_series

snippet_in_series() {
	diff <(sed -n '/^diff --git/,$p' "$PROJECT_DIR/MAINTAINERS-snippet") \
		<(sed -n '/^diff --git/,/^-- $/p' "$PATCHES"/kselftest-fixes/*-MAINTAINERS-*.patch | sed '/^index /d; /^-- $/d')
}
check "MAINTAINERS-snippet is the hunk of kselftest-fixes' MAINTAINERS patch" snippet_in_series

# contains_text FILE TEXT-FILE: FILE holds TEXT-FILE's lines, in a row.
contains_text() {
	awk 'NR == FNR { want[++n] = $0; next }
		{ line[++m] = $0 }
		END {
			for (i = 1; i + n - 1 <= m; i++) {
				for (j = 1; j <= n && line[i + j - 1] == want[j]; j++) ;
				if (j > n) exit 0
			}
			exit 1
		}' "$2" "$1"
}
# files_hold_table TABLE FILE...: each FILE holds TABLE's lines, in a row.
files_hold_table() {
	local table=$1 f
	shift
	for f; do
		contains_text "$f" "$table" || { echo "$f lacks the table:"; cat "$table"; return 1; }
	done
}
# The removal series' benchmark table, in its cover letter and in
# records/2026-12-05-removal-wakeup-loads.md, is what bench.sh
# --mail-table makes of the data.
removal_table_from_data() {
	local data=$PROJECT_DIR/Documentation/data
	"$SCRIPTS_DIR/experiments/bench/bench.sh" --mail-table "$data/wakeup-v7.1.5-x86_64" "$data/wakeup-v7.1.5-arm64" \
		>"$TEST_TMP/mail-table" || return 1
	[ "$(wc -l <"$TEST_TMP/mail-table")" -eq 25 ] || { cat "$TEST_TMP/mail-table"; return 1; }
	files_hold_table "$TEST_TMP/mail-table" "$PATCHES/mainline-removal/0000-cover-letter.patch" \
		"$PROJECT_DIR/Documentation/records/2026-12-05-removal-wakeup-loads.md"
}
check "the removal series' benchmark table is bench.sh --mail-table of its data" removal_table_from_data

# The v7.1.5 table of patches/mainline/'s cover letter and the README's
# first table are make verify's table.txt of the run they name, whole.
mainline_table_from_data() {
	files_hold_table "$PROJECT_DIR/Documentation/data/verify-v7.1.5-v4/table.txt" \
		"$PATCHES/mainline/0000-cover-letter.patch" "$PROJECT_DIR/README.md"
}
check "the mainline cover letter's and the README's table is make verify's of its data" mainline_table_from_data

# What the fast path saves, as its changelog, cover letter and the README
# say it: the time per sched_move_task() call of cost.sh's table, and
# the saving recomputed from it.
fast_path_saving_from_data() {
	local patch=("$PATCHES"/mainline-fast-path/0001-*.patch) table ref fixed fast vs_ref vs_fixed f
	per_call() { awk -v k="$1" '$1 == k && $2 == "sched_move_task" { print $4 }' "$table"; }
	pct_less() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", 100 * (1 - a / b) }'; }
	# saving_of ARCH: the per-call times of ARCH's cost.sh table and the
	# fast path's saving against v7.1.5 and against the PELT fix.
	saving_of() {
		table=$PROJECT_DIR/Documentation/data/cost-fast-path-v7.1.5-$1-no-sleep-time/table.txt
		ref=$(per_call reference+dvfs)
		fixed=$(per_call fixed+dvfs)
		fast=$(per_call fixed@mainline-fast-path+dvfs)
		vs_ref=$(pct_less "$fast" "$ref")
		vs_fixed=$(pct_less "$fast" "$fixed")
		echo "$1 per call: $ref, $fixed, $fast us: $vs_ref % and $vs_fixed % less"
	}
	saving_of arm64
	tr '\n' ' ' <"${patch[0]}" | grep -q "took $fast us per exit with the early return against $ref us on v7.1.5 and $fixed us with the PELT patches alone, $vs_ref % and $vs_fixed % less" ||
		{ echo "the changelog's saving is not the table's"; return 1; }
	for f in "$PATCHES/mainline-fast-path/0000-cover-letter.patch" "$PROJECT_DIR/README.md"; do
		tr '\n' ' ' <"$f" | grep -q "$vs_ref % less time" || { echo "$f: not $vs_ref % less time"; return 1; }
	done
	# x86_64's run of the same command.
	saving_of x86_64
	tr '\n' ' ' <"${patch[0]}" | grep -q "On x86_64 guests: $fast us against $ref and $fixed, $vs_ref % and $vs_fixed % less" ||
		{ echo "the changelog's x86_64 saving is not the table's"; return 1; }
	tr '\n' ' ' <"$PROJECT_DIR/README.md" | grep -q "$vs_ref % on x86_64" || { echo "README.md: not $vs_ref % on x86_64"; return 1; }
}
check "the fast path's saving in its changelog, cover letter and the README is cost.sh's table" fast_path_saving_from_data

# quotes_table FILE TABLE: FILE has each block of TABLE (a --mail-table
# output) by its header line, and each line it quotes under that header,
# up to a blank line, is a line of that block: rows may be left out,
# none changed.
quotes_table() {
	awk 'NR == FNR {
			if ($0 == "") { header = ""; next }
			if (header == "") { header = $0; headers[++nh] = $0; next }
			row[header, $0] = 1
			next
		}
		FNR == 1 { for (i = 1; i <= nh; i++) found_header[headers[i]] = 1 }
		$0 in found_header { in_block = $0; quoted[$0] = 0; next }
		in_block != "" && $0 == "" { in_block = ""; next }
		in_block != "" {
			if (!((in_block, $0) in row)) { print "not in the table: " $0; bad = 1 }
			quoted[in_block]++
		}
		END {
			for (i = 1; i <= nh; i++)
				if (quoted[headers[i]] < 5) { print "block not quoted: " headers[i]; bad = 1 }
			exit bad
		}' "$2" "$1"
}
# The DVFS table that v3's cover letter of patches/mainline/ had, now in
# Documentation/mainline-measurements.md, quotes the rows bench.sh
# --mail-table makes of the run it names.
mainline_dvfs_table_from_data() {
	"$SCRIPTS_DIR/experiments/bench/bench.sh" --mail-table "$PROJECT_DIR/Documentation/data/dvfs-v7.1.5-arm64-pelt-alone" \
		>"$TEST_TMP/dvfs-table" || return 1
	quotes_table "$PROJECT_DIR/Documentation/mainline-measurements.md" "$TEST_TMP/dvfs-table"
}
check "the mainline series' DVFS rows are bench.sh --mail-table's of their data" mainline_dvfs_table_from_data

# variant_commit VARIANT: the commit of Debian's reference (the base tag:
# Debian has the revert, and the harness's own fix on top of it is not in
# kernel/sched/core.c) or regressed tree, without a checkout of its own.
variant_commit() {
	case "$1" in
	reference) echo 'refs/tags/base^{commit}' ;;
	*) git -C "$("$SCRIPTS_DIR/kernel-tree.sh" "$1")" rev-parse HEAD ;;
	esac
}

# fake_tree DIR VERSION PATCHLEVEL [all [VARIANT]]: a small stand-in for
# a user's tree, in seconds where a kernel tree's checkout takes half a
# minute: Debian's core.c (all: the whole of kernel/sched/, which the
# stable series apply to; VARIANT's, default reference, e.g. regressed
# for a tree with the fast path) in a repository whose Makefile says
# VERSION.PATCHLEVEL, with one file whose object is gone (as in snapshots
# that lack their largest files).
fake_tree() {
	local dir=$1 version=$2 patchlevel=$3 blob commit
	commit=$(variant_commit "${5:-reference}")
	mkdir -p "$dir/kernel/sched" "$dir/drivers/big"
	if [ "${4:-}" = all ]; then
		git -C "$FIXED" archive "$commit" kernel/sched | tar -x -C "$dir"
	else
		git -C "$FIXED" show "$commit:kernel/sched/core.c" >"$dir/kernel/sched/core.c"
	fi
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 5\n' "$version" "$patchlevel" >"$dir/Makefile"
	echo "a blob this repository lacks" >"$dir/drivers/big/regs.h"
	git -C "$dir" init -q
	git -C "$dir" add -A
	git -C "$dir" -c user.name=t -c user.email=t@t commit -q -m "v$version.$patchlevel.5"
	blob=$(git -C "$dir" rev-parse HEAD:drivers/big/regs.h)
	rm "$dir/.git/objects/${blob:0:2}/${blob:2}"
}

broken_series() {
	local proj=$TEST_TMP/project
	mkdir -p "$proj/patches/6.12.y"
	cp -r "$SCRIPTS_DIR" "$proj/"
	# The first line the fix takes out is one no tree has.
	sed '0,/^-\t/s/^-\t/-\tno_such_line_/' "$PATCHES"/6.12.y/0001-*.patch \
		>"$proj/patches/6.12.y/0001-broken.patch"
	fake_tree "$TEST_TMP/broken-base" 6 12 all
	BUILD_DIR=$TEST_TMP/build KERNEL_SRC=$TEST_TMP/broken-base \
		fails_with 1 "patches/6.12.y/0001-broken.patch does not apply onto fixed's base" \
		"$proj/scripts/kernel-tree.sh" fixed
}
check "a series that does not apply names itself and the base it expects" broken_series

# A user's tree that still has the fast path (like v6.13.1) is the
# regressed kernel as it is; its reference must revert the fast path to
# exactly what Debian's tree (which has the revert) holds.
user_tree_with_fast_path() {
	local user=$TEST_TMP/linux reference
	fake_tree "$user" 6 12 all regressed
	reference=$(BUILD_DIR=$TEST_TMP/build KERNEL_SRC=$user "$SCRIPTS_DIR/kernel-tree.sh" reference)
	cmp "$reference/kernel/sched/core.c" <(git -C "$FIXED" show "$(variant_commit reference):kernel/sched/core.c") &&
		[ -z "$(git -C "$user" status --porcelain)" ] &&
		[ "$(git -C "$user" worktree list --porcelain | grep -c '^worktree ')" -eq 1 ]
}
check "KERNEL_SRC with the fast path: reference reverts it exactly, user tree untouched" \
	user_tree_with_fast_path

missing_blobs() {
	local user=$TEST_TMP/snapshot wt
	fake_tree "$user" 7 1
	wt=$(BUILD_DIR=$TEST_TMP/build-snapshot KERNEL_SRC=$user "$SCRIPTS_DIR/kernel-tree.sh" reference) &&
		[ -f "$wt/kernel/sched/core.c" ] && [ ! -e "$wt/drivers/big/regs.h" ] &&
		git -C "$wt" log -1 --format=%B | grep -qx '  drivers/big/regs.h'
}
check "KERNEL_SRC lacking objects: the base leaves those files out and says which" missing_blobs

# kernel-tree.sh picks patches/V.P.y by the Makefile, else mainline
# after mainline-fixes; bugfix takes mainline-fixes alone; a series that
# does not fit says so by name.
picks_series() {
	local t v p variant want
	for t in "6 12 fixed patches/6.12.y/" "7 1 fixed patches/mainline-fixes/0001-.*patches/mainline/0001-" \
		"6 13 fixed patches/6.13.y/" "6 6 fixed patches/6.6.y/" "7 1 bugfix patches/mainline-fixes/" \
		"7 1 fixed@mainline-removal patches/mainline-fixes/0001-.*patches/mainline/0001-.*patches/mainline-removal/0001-"; do
		read -r v p variant want <<<"$t"
		[ -d "$TEST_TMP/v$v.$p" ] || fake_tree "$TEST_TMP/v$v.$p" "$v" "$p"
		BUILD_DIR=$TEST_TMP/build-v$v.$p KERNEL_SRC=$TEST_TMP/v$v.$p \
			fails_with 1 "$want" "$SCRIPTS_DIR/kernel-tree.sh" "$variant" || return 1
	done
}
check "fixed takes patches/V.P.y, else mainline-fixes and mainline; fixed@S patches/S after its prerequisites; bugfix mainline-fixes" picks_series

# A user's tree that has mainline-fixes already (a release with the fixes
# applied): the fixed tree does not apply them again, and bugfix is the
# reference tree.
prerequisite_in_base() {
	local proj=$TEST_TMP/prereq-project user=$TEST_TMP/prereq-tree fixed bugfix
	mkdir -p "$proj/patches/mainline-fixes" "$proj/patches/mainline"
	cp -r "$SCRIPTS_DIR" "$proj/"
	echo mainline-fixes >"$proj/patches/mainline/prerequisites"
	fake_tree "$user" 7 1
	echo "/* the fix */" >>"$user/kernel/sched/core.c"
	git -C "$user" -c user.name=t -c user.email=t@t commit -q -a -m "sched: the fix"
	git -C "$user" format-patch -q -1 -o "$proj/patches/mainline-fixes"
	echo "/* the series */" >>"$user/kernel/sched/core.c"
	git -C "$user" -c user.name=t -c user.email=t@t commit -q -a -m "sched: the series"
	git -C "$user" format-patch -q -1 -o "$proj/patches/mainline"
	git -C "$user" reset -q --hard HEAD~1
	fixed=$(BUILD_DIR=$TEST_TMP/build-prereq KERNEL_SRC=$user "$proj/scripts/kernel-tree.sh" fixed 2>"$TEST_TMP/prereq.err") ||
		{ cat "$TEST_TMP/prereq.err"; return 1; }
	grep -q 'patches/mainline-fixes is in the base already: not applied again' "$TEST_TMP/prereq.err" &&
		[ "$(grep -c 'the fix' "$fixed/kernel/sched/core.c")" -eq 1 ] &&
		grep -q 'the series' "$fixed/kernel/sched/core.c" || return 1
	bugfix=$(BUILD_DIR=$TEST_TMP/build-prereq KERNEL_SRC=$user "$proj/scripts/kernel-tree.sh" bugfix 2>"$TEST_TMP/prereq.err") &&
		grep -q 'bugfix is the reference tree' "$TEST_TMP/prereq.err" &&
		cmp "$bugfix/kernel/sched/core.c" "$user/kernel/sched/core.c"
}
check "a base with mainline-fixes in it: fixed does not apply them again, bugfix is reference" \
	prerequisite_in_base

[ "$TEST_FAILED" -eq 0 ]
