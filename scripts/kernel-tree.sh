#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # variant_tree and its helpers run through with_machine_lock
# Make (or bring up to date) the git worktree of one kernel variant and
# print its path. Trees are derived from a base commit, never edited in
# place:
#   reference  the base without the sched_move_task() fast path (upstream's
#              revert 76f970ce51c8, as Debian 6.12 and mainline have it)
#   regressed  the base with the fast path (a reproducer patch adds it)
#   fixed      the base plus the series of patches/ made for its release
#              (after the series its prerequisites file names;
#              fixed@S: the series patches/S)
#   bugfix     the base plus patches/mainline-fixes/ alone
#   kselftest  the base with the selftests part of the kselftest series
#              (patches/kselftest after its prerequisites) and
#              selftests/sched/ of this project copied in
#
# Under make check, the commands that read or write every file of a tree
# (tar, git add, checkout, am) run through run_untraced: they open the
# tree's own files, which strace would stop at one by one.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The fast path as eff6c8ce8d4d added it (6.12 to v6.18's form of
# sched_move_task()), the same written for the scoped_guard (sched_change,
# ...) form that newer mainline has, and for 6.6's task_rq_lock(tsk, &rf).
REPRODUCER=$SCRIPTS_DIR/kernel/reinstate-sched_move_task-fast-path.patch
REPRODUCER_SCOPED=$SCRIPTS_DIR/kernel/mainline/reinstate-sched_move_task-fast-path.patch
REPRODUCER_RQ_FLAGS=$SCRIPTS_DIR/kernel/6.6/reinstate-sched_move_task-fast-path.patch
# 6.18.35's form: scoped_guard (sched_change, ...) after update_rq_clock(),
# with DEQUEUE_NOCLOCK.
REPRODUCER_SCOPED_NOCLOCK=$SCRIPTS_DIR/kernel/6.18/reinstate-sched_move_task-fast-path.patch
# Upstream's fix of print_cfs_rq() for trees that need it (see
# measured_base); never part of a series.
DEBUG_LOCKING_FIX=$SCRIPTS_DIR/kernel/harness/print_cfs_rq-avg_vruntime-under-rq-lock.patch
GIT_ID=(-c user.name="fork-regression cache" -c user.email=cache@localhost
	-c advice.detachedHead=false -c gc.auto=0)

# suffixes_usage: a line per variant suffix, for usage().
suffixes_usage() {
	local s
	for s in $VARIANT_SUFFIXES; do
		printf '              +%-13s %s\n' "$s" "${VARIANT_SUFFIX_ABOUT[$s]}"
	done
}

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] VARIANT

Print the path of VARIANT's kernel worktree, made first under
\$BUILD_DIR/kernels/ (default build/kernels/) from Debian's
linux-source-6.12 ($DEBIAN_TARBALL, unpacked once into build/src/) or,
with KERNEL_SRC=D, from the HEAD of your kernel git repository D (cloned
--shared, never written to; files whose objects D lacks are left out of
the base). Documentation/harness.md, "Kernels", says more.

  reference   the base without the sched_move_task() fast path
  regressed   the base with it (scripts/kernel/*reinstate-*.patch where needed)
  fixed       plus the series of the base's release line (patches/V.P.y,
              else patches/mainline; SERIES=DIR picks another), after the
              series its prerequisites file names
  fixed@S     the fixed tree of patches/S, whatever SERIES says
  bugfix      the reference tree plus patches/mainline-fixes/ alone
  alt-X       the regressed tree plus scripts/kernel/alternatives/X-*.patch
  V+alt-X     variant V's tree plus that patch (reference+alt-B)
  kselftest   the base with the tools/testing/selftests/ part of
              patches/kselftest-fixes/ and patches/kselftest/, and
              selftests/sched/: what the guests' selftests build from
  series      the base as it is, checked out afresh (make-series.sh)
  V+S         variant V's tree plus a harness patch, never for merging:
$(suffixes_usage)
USAGE
}

# makefile_version: VERSION.PATCHLEVEL.SUBLEVEL of the top Makefile on stdin.
makefile_version() {
	awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3; exit}
		END {print v "." p "." s}'
}

# tree_version REPO COMMIT: the release of COMMIT's Makefile.
tree_version() {
	local makefile
	# Read whole first: behind a pipe, awk's exit at SUBLEVEL would end
	# git show with SIGPIPE, a failure under pipefail.
	makefile=$(git -C "$1" show "$2:Makefile")
	makefile_version <<<"$makefile"
}

# base_without_missing_blobs REPO HEAD: print HEAD, or, when REPO lacks
# objects of some of HEAD's files, a commit on top of HEAD without those
# files (so that worktrees can be checked out at all).
base_without_missing_blobs() {
	local repo=$1 head=$2 files=$1/.git/base-files missing tree
	git -C "$repo" ls-tree -r --format='%(objectname) %(path)' "$head" >"$files"
	missing=$(awk '{ print $1 }' "$files" | git -C "$repo" cat-file --batch-check |
		awk '$2 == "missing" { print $1 }')
	if [ -z "$missing" ]; then
		rm -f "$files"
		echo "$head"
		return
	fi
	awk 'NR == FNR { gone[$1] = 1; next } ($1 in gone) { sub(/^[^ ]* /, ""); print }' \
		<(echo "$missing") "$files" >"$repo/.git/missing-files"
	rm -f "$files"
	log "$(wc -l <"$repo/.git/missing-files") files of $head have no object in KERNEL_SRC: left out of the base"
	GIT_INDEX_FILE=$repo/.git/base-index git -C "$repo" read-tree "$head"
	GIT_INDEX_FILE=$repo/.git/base-index git -C "$repo" update-index --force-remove --stdin \
		<"$repo/.git/missing-files"
	tree=$(GIT_INDEX_FILE=$repo/.git/base-index git -C "$repo" write-tree)
	rm -f "$repo/.git/base-index"
	{
		echo "Base: $head without the files KERNEL_SRC has no object for"
		echo
		sed 's/^/  /' "$repo/.git/missing-files"
	} | git "${GIT_ID[@]}" -C "$repo" commit-tree "$tree" -p "$head"
}

# run_or_die WHAT CMD...: run CMD with its output held back; if it fails,
# stop with one line: WHAT, the first line CMD printed, how many more
# there were and the reason most of them end in (tar on a full disk
# complains once or twice per file, tens of thousands of lines, and its
# first may be "Wrote only 4096 of 8192 bytes"). What a CMD that
# succeeds prints goes to stderr.
run_or_die() {
	local what=$1 out first more reason
	shift
	if out=$("$@" 2>&1); then
		[ -z "$out" ] || printf '%s\n' "$out" >&2
		return 0
	fi
	[ -n "$out" ] || die "$what"
	first=${out%%$'\n'*}
	more=$(($(wc -l <<<"$out") - 1))
	[ "$more" -gt 0 ] || die "$what: $first"
	reason=$(awk -F ': ' 'NF > 1 && ++n[$NF] > most { most = n[$NF]; top = $NF } END { print top }' <<<"$out")
	if [ -z "$reason" ] || [[ $first == *": $reason" ]]; then
		die "$what: $first (and $more more lines)"
	fi
	die "$what: $first (and $more more lines, most ending: $reason)"
}

# remove_stale_temporary_trees: the temporary trees in $BUILD_DIR/src
# (NAME.tmp.PID, see start_temporary_tree) whose script is gone. A run that
# was killed (SIGKILL, the 10 s limit of stop_run, a power loss) had no
# EXIT trap to remove its tree, and each such tree is a kernel's size.
remove_stale_temporary_trees() {
	local tree pid
	for tree in "$BUILD_DIR"/src/*.tmp.*; do
		pid=${tree##*.tmp.}
		# No match leaves the pattern; a pid that runs may be making it.
		if [ ! -e "$tree" ] || [[ ! $pid =~ ^[0-9]+$ ]] || [ -e "/proc/$pid" ]; then
			continue
		fi
		log "removing $tree, left by a run that was killed (pid $pid is gone)"
		rm -rf "$tree"
	done
}

# start_temporary_tree TMP: make way for TMP (FINAL.tmp.PID), the tree a
# repository is made in before it is renamed FINAL, and have the shell
# that calls it (source_repo's: a command substitution) remove TMP when
# it exits. On a signal, stop_run stops every process of the run, and so
# does each nested script's own on_signal, this trap's rm included: so
# the trap ignores INT, TERM and HUP before it starts rm, which inherits
# that and finishes (up to stop_run's SIGKILL 10 s on; what that leaves,
# remove_stale_temporary_trees takes on the next run).
start_temporary_tree() {
	rm -rf "$1"
	# shellcheck disable=SC2064 # this tree's name, now
	trap "trap '' INT TERM HUP; rm -rf '$1'" EXIT
}

# replace_partial_tree FINAL: a FINAL without .git is no repository but
# part of a tree (renamed there before every step had passed, or a
# removal cut short): remove it, or the rename of the new tree onto it
# fails.
replace_partial_tree() {
	[ -e "$1" ] || return 0
	log "removing $1: a tree left half made (it has no .git)"
	rm -rf "$1"
}

# free_space_to_unpack TARBALL DIR: stop, with free-space.sh's one line,
# unless DIR's filesystem holds TARBALL's tree and its git objects:
# twice its uncompressed size, which covers the objects kept loose (see
# gc.auto below) with a margin.
free_space_to_unpack() {
	local size gib=$((1024 * 1024 * 1024))
	size=$(xz --robot --list "$1" | awk '$1 == "totals" { print $5 }')
	[[ $size =~ ^[0-9]+$ ]] || die "cannot read the size of $1 (xz --list)"
	"$SCRIPTS_DIR/free-space.sh" $(((2 * size + gib - 1) / gib)) "$2" || exit 1
}

# kernel_src_head: the HEAD commit of KERNEL_SRC, or stop if it is no
# kernel git repository.
kernel_src_head() {
	local head
	if ! head=$(git -C "$KERNEL_SRC" rev-parse --verify -q 'HEAD^{commit}' 2>/dev/null) ||
		! git -C "$KERNEL_SRC" cat-file -e "$head:kernel/sched/core.c" 2>/dev/null; then
		die "KERNEL_SRC=$KERNEL_SRC is not a kernel git repository (need a HEAD commit with kernel/sched/core.c)"
	fi
	echo "$head"
}

# The git repository all worktrees of one source come from; prints its
# path. It is made in a temporary tree and renamed into place only when
# every step has passed, so its final name always holds a whole
# repository.
source_repo() {
	local id repo tmp version head base
	remove_stale_temporary_trees
	if [ -n "${KERNEL_SRC:-}" ]; then
		head=$(kernel_src_head)
		id="user-v$(tree_version "$KERNEL_SRC" "$head")-${head:0:12}"
		repo=$BUILD_DIR/src/$id
		if [ ! -d "$repo/.git" ]; then
			log "cloning $KERNEL_SRC ($head) into $repo (shared, read-only use)"
			replace_partial_tree "$repo"
			tmp=$repo.tmp.$$
			start_temporary_tree "$tmp"
			run_or_die "cannot clone $KERNEL_SRC into $tmp" \
				git clone -q --shared --no-checkout "$KERNEL_SRC" "$tmp"
			base=$(base_without_missing_blobs "$tmp" "$head")
			# -f: a clone of one of our own repositories has a base tag.
			run_or_die "cannot tag the base in $tmp" git -C "$tmp" tag -f base "$base"
			run_or_die "cannot rename $tmp to $repo" mv -T "$tmp" "$repo"
			trap - EXIT
		fi
	else
		[ -f "$DEBIAN_TARBALL" ] ||
			die "$DEBIAN_TARBALL not found: apt-get install linux-source-6.12, or set KERNEL_SRC"
		need_cmds xz
		# Not the pipeline's status: tar ends on SIGPIPE once awk has
		# read the top Makefile, which is what saves reading the rest.
		version=$(tar -xOf "$DEBIAN_TARBALL" --wildcards '*/Makefile' 2>/dev/null |
			makefile_version) || true
		[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
			die "$DEBIAN_TARBALL has no top Makefile with a kernel version: not a linux-source tarball"
		id=debian-$version
		repo=$BUILD_DIR/src/$id
		if [ ! -d "$repo/.git" ]; then
			replace_partial_tree "$repo"
			tmp=$repo.tmp.$$
			start_temporary_tree "$tmp"
			free_space_to_unpack "$DEBIAN_TARBALL" "$BUILD_DIR/src"
			log "extracting $DEBIAN_TARBALL ($version) into $repo"
			run_or_die "cannot make $tmp" mkdir "$tmp"
			run_or_die "cannot extract $DEBIAN_TARBALL into $tmp" \
				run_untraced tar -xaf "$DEBIAN_TARBALL" -C "$tmp" --strip-components=1
			log "making $repo a git repository"
			# Debian's top-level .gitignore ignores everything (/*): add -f.
			run_or_die "git init in $tmp failed" git -C "$tmp" init -q -b source
			# Its 80000 objects stay loose: no git command run in
			# its worktrees (git am of a test) may start a repack.
			run_or_die "git config in $tmp failed" git -C "$tmp" config gc.auto 0
			run_or_die "git add in $tmp failed" run_untraced git -C "$tmp" add -f -A .
			run_or_die "git commit in $tmp failed" \
				run_untraced git "${GIT_ID[@]}" -C "$tmp" commit -q -m "Debian linux-source-6.12 $version"
			run_or_die "cannot tag the base in $tmp" git -C "$tmp" tag base
			run_or_die "cannot rename $tmp to $repo" mv -T "$tmp" "$repo"
			trap - EXIT
		fi
	fi
	# Build directories and our stamps live inside each worktree (see
	# kernel-build.sh and prepare_worktree).
	local pattern
	for pattern in '/out-*/' '/.*-stamp' '/.reverted'; do
		grep -qxF "$pattern" "$repo/.git/info/exclude" 2>/dev/null ||
			echo "$pattern" >>"$repo/.git/info/exclude"
	done
	echo "$repo"
}

# needs_debug_locking_fix REPO COMMIT: true when COMMIT's avg_vruntime()
# writes zero_vruntime (b3d99f43c72b or its backport) while its
# print_cfs_rq() still calls it after dropping the rq lock.
needs_debug_locking_fix() {
	git -C "$1" show "$2:kernel/sched/fair.c" |
		awk '/^u64 avg_vruntime\(/, /^}/ { if (/update_zero_vruntime\(/) found = 1 } END { exit !found }' &&
		git -C "$1" grep -q 'SPLIT_NS(avg_vruntime(cfs_rq))' "$2" -- kernel/sched/debug.c
}

# measured_base REPO: the commit every variant starts from. That is the
# base tag, the tree as it is, unless it needs the debug.c locking fix:
# then a commit on top of the base with that fix. Without it, reading
# /sys/kernel/debug/sched/debug on busy CPUs, as the stress and bench
# samplers do, oopses reference and fixed alike. The commit's identity
# and date are fixed, so it is the same commit on every call and the
# variants' stamps stay valid. make-series.sh uses the base tag itself.
measured_base() {
	local repo=$1 base index tree
	base=$(git -C "$repo" rev-parse 'refs/tags/base^{commit}')
	if ! needs_debug_locking_fix "$repo" "$base"; then
		echo "$base"
		return
	fi
	# An index of its own per call: tools may run this at the same time.
	index=$(mktemp "$repo/.git/measured-index.XXXXXX")
	if ! GIT_INDEX_FILE=$index git -C "$repo" read-tree "$base" ||
		! GIT_INDEX_FILE=$index git -C "$repo" apply --cached "$DEBUG_LOCKING_FIX" ||
		! tree=$(GIT_INDEX_FILE=$index git -C "$repo" write-tree); then
		rm -f "$index" "$index.lock"
		die "cannot apply $(basename "$DEBUG_LOCKING_FIX") onto $(git -C "$repo" log -1 --format=%h "$base")"
	fi
	rm -f "$index"
	sed -n '1,/^---/p' "$DEBUG_LOCKING_FIX" | sed '$d' |
		{ echo "sched/debug: avg_vruntime() under the rq lock (harness)"; echo; cat; } |
		GIT_AUTHOR_DATE="@0 +0000" GIT_COMMITTER_DATE="@0 +0000" \
			git "${GIT_ID[@]}" -C "$repo" commit-tree "$tree" -p "$base"
}

has_fast_path() {
	git -C "$1" grep -q 'group = sched_get_task_group(tsk);' "$2" -- kernel/sched/core.c
}

# reproducer_for REPO COMMIT: the reproducer written for COMMIT's form of
# sched_move_task(): scoped_guard (sched_change) from v6.19 (after
# update_rq_clock() with DEQUEUE_NOCLOCK as in 6.18.35), the task_rq_lock
# class guard of 6.12 to v6.18, task_rq_lock() with rq_flags before (6.6).
reproducer_for() {
	local move
	move=$(git -C "$1" show "$2:kernel/sched/core.c" | awk '/^void sched_move_task\(/, /^}/')
	if grep -q 'scoped_guard (sched_change' <<<"$move"; then
		if grep -q 'DEQUEUE_NOCLOCK' <<<"$move"; then
			echo "$REPRODUCER_SCOPED_NOCLOCK"
		else
			echo "$REPRODUCER_SCOPED"
		fi
	elif grep -q 'struct rq_flags rf;' <<<"$move"; then
		echo "$REPRODUCER_RQ_FLAGS"
	else
		echo "$REPRODUCER"
	fi
}

# series_dir REPO COMMIT: the directory of the series for COMMIT's release.
series_dir() {
	local vp
	if [ -n "${SERIES:-}" ]; then
		[ -d "$SERIES" ] || die "SERIES=$SERIES is not a directory"
		(cd "$SERIES" && pwd)
		return
	fi
	vp=$(tree_version "$1" "$2")
	vp=${vp%.*}
	if [ -d "$PROJECT_DIR/patches/$vp.y" ]; then
		echo "$PROJECT_DIR/patches/$vp.y"
	else
		echo "$PROJECT_DIR/patches/mainline"
	fi
}

# series_in_tree REPO COMMIT DIR: true when COMMIT has every patch of the
# series DIR already (they come off in reverse order), as a tree made from
# a release plus patches/mainline-fixes/ has that prerequisite.
series_in_tree() {
	local index p patches rc=0
	mapfile -t patches < <(series_patches "$3")
	[ ${#patches[@]} -gt 0 ] || return 1
	index=$(mktemp "$1/.git/series-index.XXXXXX")
	GIT_INDEX_FILE=$index git -C "$1" read-tree "$2" || rc=1
	for ((p = ${#patches[@]} - 1; p >= 0 && rc == 0; p--)); do
		GIT_INDEX_FILE=$index git -C "$1" apply --cached -R "${patches[p]}" 2>/dev/null || rc=1
	done
	rm -f "$index" "$index.lock"
	return "$rc"
}

# whole_worktree WT: true when WT is a worktree git knows. A git worktree
# add killed on its way (the checkout of a kernel tree takes a while, and
# on a signal git removes what it checked out, which can take longer
# than stop_run waits before SIGKILL) leaves a directory without .git,
# or whose .git names an administrative directory that is gone: every
# git command in it would fail.
whole_worktree() {
	[ -f "$1/.git" ] && git -C "$1" rev-parse --verify -q HEAD >/dev/null 2>&1
}

# prepare_worktree REPO VARIANT PARENT STAMP APPLY...: check out PARENT in
# the variant's worktree and apply the patches, unless STAMP says that
# was done already (so unchanged trees keep their mtimes and rebuild
# incrementally).
prepare_worktree() {
	local repo=$1 variant=$2 parent=$3 stamp=$4 wt
	shift 4
	wt=$(dirname "$repo")/../kernels/$(basename "$repo")/$variant
	mkdir -p "$(dirname "$wt")"
	wt=$(cd "$(dirname "$wt")" && pwd)/$variant
	if [ -d "$wt" ] && ! whole_worktree "$wt"; then
		log "$wt is a worktree left half made (git worktree add was killed): making it again"
		# git worktree add locks its record until it is done, and
		# prune keeps a locked one.
		git -C "$repo" worktree unlock "$wt" >/dev/null 2>&1 || true
		rm -rf "$wt"
	fi
	if [ ! -d "$wt" ]; then
		git -C "$repo" worktree prune
		run_untraced git "${GIT_ID[@]}" -C "$repo" worktree add -q --detach "$wt" "$parent"
	fi
	if [ "$(cat "$wt/.variant-stamp" 2>/dev/null)" != "$stamp" ]; then
		log "preparing the $variant tree in $wt"
		git -C "$wt" am --abort >/dev/null 2>&1 || true
		run_untraced git "${GIT_ID[@]}" -C "$wt" checkout -q -f --detach "$parent"
		if [ $# -gt 0 ] && ! run_untraced git "${GIT_ID[@]}" -C "$wt" am -q "$@" >"$wt.am.log" 2>&1; then
			git -C "$wt" am --abort >/dev/null 2>&1 || true
			git "${GIT_ID[@]}" -C "$wt" checkout -q --detach "$parent"
			rm -f "$wt/.variant-stamp"
			die "$(printf '%s ' "$@" | sed "s|$PROJECT_DIR/||g")does not apply onto $variant's base $(git -C "$repo" log -1 --format='%h ("%s")' "$parent"); see $wt.am.log"
		fi
		echo "$stamp" >"$wt/.variant-stamp"
	fi
	echo "$wt"
}

# commit_in_worktree WT PARENT STAMP MESSAGE CMD...: check out PARENT in
# WT, run CMD there and commit what it changed, unless STAMP says that
# was done already.
commit_in_worktree() {
	local wt=$1 parent=$2 stamp=$3 message=$4
	shift 4
	[ "$(cat "$wt/.commit-stamp" 2>/dev/null)" != "$stamp" ] || return 0
	rm -f "$wt/.commit-stamp"
	run_untraced git "${GIT_ID[@]}" -C "$wt" checkout -q -f --detach "$parent" || return 1
	(cd "$wt" && "$@") || return 1
	run_untraced git -C "$wt" add -A . || return 1
	git "${GIT_ID[@]}" -C "$wt" commit -q -m "$message" || return 1
	echo "$stamp" >"$wt/.commit-stamp"
}

# The kselftest series (KSELFTEST_SERIES, the fork placement test, after
# the series its prerequisites file names: cs_prctl_test's install and
# skip), their tools/testing/selftests/ part but for the files of this
# project's selftests/sched/ (their hunks are written against one tree's
# own files), then selftests/sched/ over it. The default run's patch
# (patches/kselftest-default-run/) is left out: the guests build
# TARGETS=sched.
copy_selftest() {
	local p f s exclude=()
	for f in "$PROJECT_DIR"/selftests/sched/* "$PROJECT_DIR"/selftests/sched/.gitignore; do
		exclude+=(--exclude="tools/testing/selftests/sched/$(basename "$f")")
	done
	series_prerequisites "$KSELFTEST_SERIES"
	for s in "${PREREQUISITES[@]}" "$KSELFTEST_SERIES"; do
		for p in $(series_patches "$s"); do
			git apply "${exclude[@]}" --include='tools/testing/selftests/*' "$p" ||
				{ echo "${p#"$PROJECT_DIR"/} does not apply" >&2; return 1; }
		done
	done
	cp -r "$PROJECT_DIR/selftests/sched/." tools/testing/selftests/sched/
}

variant_tree() {
	local variant=$1 repo base wt parent stamp reproducer dir p suffix patches=() more=() s files=()
	local prerequisite_patches=()
	repo=$(source_repo)
	base=$(measured_base "$repo")
	reproducer=$(reproducer_for "$repo" "$base")
	if suffix=$(variant_suffix "$variant"); then
		p=$SCRIPTS_DIR/${VARIANT_SUFFIX_PATCH[$suffix]}
		wt=$(variant_tree "${variant%+"$suffix"}")
		parent=$(git -C "$wt" rev-parse HEAD)
		stamp="$parent-$(sha256sum <"$p" | cut -c1-16)"
		prepare_worktree "$repo" "$variant" "$parent" "$stamp" "$p"
		return
	fi
	case "$variant" in
	reference)
		if has_fast_path "$repo" "$base"; then
			# Revert the fast path with our reproducer, backwards and
			# with one line of context, so v6.13's scx_move_task() and
			# missing for_autogroup argument do not get in the way.
			stamp="$base-revert-$(sha256sum <"$reproducer" | cut -c1-16)"
			wt=$(prepare_worktree "$repo" reference "$base" "$stamp")
			commit_in_worktree "$wt" "$base" "$stamp" \
				"Revert the sched_move_task() fast path (as 76f970ce51c8)" \
				git apply -R -C1 "$reproducer" ||
				die "cannot revert the fast path in $(git -C "$repo" log -1 --format='%h' "$base")"
			echo "$wt"
		else
			prepare_worktree "$repo" reference "$base" "$base"
		fi
		;;
	regressed)
		if has_fast_path "$repo" "$base"; then
			prepare_worktree "$repo" regressed "$base" "$base"
		else
			stamp="$base-$(sha256sum <"$reproducer" | cut -c1-16)"
			prepare_worktree "$repo" regressed "$base" "$stamp" "$reproducer"
		fi
		;;
	*?+alt-?*)
		dir=$(alternative_patch "${variant##*+alt-}")
		wt=$(variant_tree "${variant%+alt-*}")
		parent=$(git -C "$wt" rev-parse HEAD)
		stamp="$parent-$(sha256sum <"$dir" | cut -c1-16)"
		prepare_worktree "$repo" "$variant" "$parent" "$stamp" "$dir"
		;;
	fixed | fixed@?*)
		# fixed@S is what SERIES=patches/S makes of fixed.
		if [ "$variant" = fixed ]; then
			dir=$(series_dir "$repo" "$base")
		else
			dir=$(SERIES=$PROJECT_DIR/patches/${variant#fixed@} series_dir "$repo" "$base")
		fi
		mapfile -t patches < <(series_patches "$dir")
		[ ${#patches[@]} -gt 0 ] || die "${dir#"$PROJECT_DIR"/} holds no series"
		series_prerequisites "$dir"
		for p in "${PREREQUISITES[@]}"; do
			if series_in_tree "$repo" "$base" "$p"; then
				log "${p#"$PROJECT_DIR"/} is in the base already: not applied again"
				continue
			fi
			mapfile -t more < <(series_patches "$p")
			[ ${#more[@]} -gt 0 ] || die "${p#"$PROJECT_DIR"/} holds no series"
			prerequisite_patches+=("${more[@]}")
		done
		if grep -q '^+.*group = sched_get_task_group(tsk);' "${patches[@]}"; then
			has_fast_path "$repo" "$base" &&
				die "${dir#"$PROJECT_DIR"/} adds the fast path, which $(tree_version "$repo" "$base") has already: set SERIES"
			wt=$(variant_tree reference)
		elif [[ "$(basename "$dir")" == mainline* ]]; then
			# Made for mainline, which has the revert: measured on the
			# tree it is posted for, the base as it is.
			wt=$(variant_tree reference)
		else
			wt=$(variant_tree regressed)
		fi
		parent=$(git -C "$wt" rev-parse HEAD)
		patches=("${prerequisite_patches[@]}" "${patches[@]}")
		stamp="$parent-$(cat "${patches[@]}" | sha256sum | cut -c1-16)"
		wt=$(prepare_worktree "$repo" "$variant" "$parent" "$stamp" "${patches[@]}")
		# Which series it is, for make-series.sh and the reports.
		echo "${dir#"$PROJECT_DIR"/}" >"$wt.series"
		echo "$wt"
		;;
	bugfix)
		mapfile -t patches < <(series_patches "$BUGFIX_SERIES")
		[ ${#patches[@]} -gt 0 ] || die "${BUGFIX_SERIES#"$PROJECT_DIR"/} holds no series"
		wt=$(variant_tree reference)
		parent=$(git -C "$wt" rev-parse HEAD)
		if series_in_tree "$repo" "$base" "$BUGFIX_SERIES"; then
			log "${BUGFIX_SERIES#"$PROJECT_DIR"/} is in the base already: bugfix is the reference tree"
			prepare_worktree "$repo" bugfix "$parent" "$parent"
		else
			stamp="$parent-$(cat "${patches[@]}" | sha256sum | cut -c1-16)"
			prepare_worktree "$repo" bugfix "$parent" "$stamp" "${patches[@]}"
		fi
		;;
	alt-*)
		dir=$(alternative_patch "${variant#alt-}")
		wt=$(variant_tree regressed)
		parent=$(git -C "$wt" rev-parse HEAD)
		stamp="$parent-$(sha256sum <"$dir" | cut -c1-16)"
		prepare_worktree "$repo" "$variant" "$parent" "$stamp" "$dir"
		;;
	series)
		# The tree as it is, whatever measured_base adds, afresh.
		base=$(git -C "$repo" rev-parse 'refs/tags/base^{commit}')
		prepare_worktree "$repo" series "$base" "$base-$(date +%s%N)"
		;;
	kselftest)
		series_prerequisites "$KSELFTEST_SERIES"
		files=("$PROJECT_DIR"/selftests/sched/* "$PROJECT_DIR"/selftests/sched/.gitignore)
		for s in "${PREREQUISITES[@]}" "$KSELFTEST_SERIES"; do files+=("$s"/*.patch); done
		stamp="$base-$(cat "${files[@]}" | sha256sum | cut -c1-16)"
		wt=$(prepare_worktree "$repo" kselftest "$base" "$stamp")
		commit_in_worktree "$wt" "$base" "$stamp" "selftests: this project's kselftest series and selftests/sched/" \
			copy_selftest || die "cannot put the kselftest series and selftests/sched/ into $wt"
		echo "$wt"
		;;
	esac
}

# build_dirs: make $BUILD_DIR/src and $BUILD_DIR/kernels, or stop with one
# line (a read-only BUILD_DIR), and keep git from looking above them for a
# repository: in a tree whose .git is missing or broken (a half-made
# one), git -C would find the repository around build/, the project's
# own, and act on it.
build_dirs() {
	local dir out ceilings=${GIT_CEILING_DIRECTORIES:-}
	for dir in "$BUILD_DIR/src" "$BUILD_DIR/kernels"; do
		out=$(mkdir -p "$dir" 2>&1) || die "cannot make $dir (BUILD_DIR): ${out##*: }"
		ceilings+=${ceilings:+:}$(cd "$dir" && pwd -P)
	done
	export GIT_CEILING_DIRECTORIES=$ceilings
}

main() {
	case "${1:-}" in
	-h | --help) usage; exit 0 ;;
	"") usage >&2; exit 2 ;;
	esac
	[ $# -eq 1 ] || usage_error "one variant expected, got: $*"
	case "$1" in kselftest | series) ;; *) check_variant "$1" ;; esac
	need_cmds git tar sha256sum
	# Bad input stops before anything is written or waited for.
	[ -z "${KERNEL_SRC:-}" ] || kernel_src_head >/dev/null
	build_dirs
	# Under the machine lock: two tools that start together would
	# otherwise make the same worktree at once.
	with_machine_lock variant_tree "$1"
}

run_main "$@"
