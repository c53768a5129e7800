#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make (or bring up to date) the git worktree of one kernel variant and
# print its path. Trees are derived, never edited in place:
#   reference  the base with upstream's revert 76f970ce51c8 (as Debian ships it)
#   regressed  reference plus scripts/kernel/reinstate-sched_move_task-fast-path.patch
#   fixed      regressed plus the series in patches/ (git am)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

REPRODUCER=$SCRIPTS_DIR/kernel/reinstate-sched_move_task-fast-path.patch
DIAGNOSTICS=$SCRIPTS_DIR/kernel/diagnostics-fork-placement.patch
DEBIAN_TARBALL=/usr/src/linux-source-6.12.tar.xz
GIT_ID=(-c user.name="fork-regression cache" -c user.email=cache@localhost
	-c advice.detachedHead=false -c gc.auto=0)

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] VARIANT

Print the path of the kernel worktree for VARIANT (one of: $VARIANTS),
creating it under \$BUILD_DIR/kernels/ (default build/kernels/) first.
VARIANT+diag is that tree plus $(basename "$DIAGNOSTICS")
(counters in /sys/kernel/debug/fork_diag; never for merging).

Source of the trees:
  default       Debian's linux-source-6.12 package ($DEBIAN_TARBALL),
                extracted once into build/src/ and made a git repository.
  KERNEL_SRC=D  the HEAD commit of your own kernel git tree D. It is cloned
                with --shared into build/src/; D itself is never written to.
                A tree that still has the fast path (v6.13.1, 6.12.0-20) is
                the regressed kernel as it is; its reference reverts the fast
                path.
USAGE
}

# The git repository all worktrees of one source come from; prints its path.
source_repo() {
	local id repo tmp version head
	if [ -n "${KERNEL_SRC:-}" ]; then
		if [ ! -f "$KERNEL_SRC/kernel/sched/core.c" ] ||
			! head=$(git -C "$KERNEL_SRC" rev-parse --verify -q 'HEAD^{commit}'); then
			die "KERNEL_SRC=$KERNEL_SRC is not a kernel git tree (need kernel/sched/core.c and a HEAD commit)"
		fi
		id="user-$(basename "$(cd "$KERNEL_SRC" && pwd)")-${head:0:12}"
		repo=$BUILD_DIR/src/$id
		if [ ! -d "$repo/.git" ]; then
			log "cloning $KERNEL_SRC ($head) into $repo (shared, read-only use)"
			tmp=$repo.tmp.$$
			rm -rf "$tmp"
			git clone -q --shared --no-checkout "$KERNEL_SRC" "$tmp"
			git -C "$tmp" tag base "$head"
			mv "$tmp" "$repo"
		fi
	else
		[ -f "$DEBIAN_TARBALL" ] ||
			die "$DEBIAN_TARBALL not found: apt-get install linux-source-6.12, or set KERNEL_SRC"
		version=$(tar -xOf "$DEBIAN_TARBALL" --wildcards '*/Makefile' 2>/dev/null |
			awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3; exit}
			     END {print v "." p "." s}')
		id=debian-$version
		repo=$BUILD_DIR/src/$id
		if [ ! -d "$repo/.git" ]; then
			log "extracting $DEBIAN_TARBALL ($version) into $repo"
			tmp=$repo.tmp.$$
			rm -rf "$tmp"
			mkdir -p "$tmp"
			tar -xaf "$DEBIAN_TARBALL" -C "$tmp" --strip-components=1
			log "making $repo a git repository"
			# Debian's top-level .gitignore ignores everything (/*): add -f.
			git -C "$tmp" init -q -b source
			git -C "$tmp" add -f -A .
			git "${GIT_ID[@]}" -C "$tmp" commit -q -m "Debian linux-source-6.12 $version"
			git -C "$tmp" tag base
			mv "$tmp" "$repo"
		fi
	fi
	# Build directories live inside each worktree (see kernel-build.sh).
	grep -qx '/out-\*/' "$repo/.git/info/exclude" 2>/dev/null ||
		echo '/out-*/' >>"$repo/.git/info/exclude"
	echo "$repo"
}

has_fast_path() {
	git -C "$1" grep -q 'group = sched_get_task_group(tsk);' "$2" -- kernel/sched/core.c
}

# series_patches: the patches of our series, cover letter left out.
series_patches() {
	find "$PROJECT_DIR/patches" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
		! -name '0000-*' | sort
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
	if [ ! -d "$wt" ]; then
		git -C "$repo" worktree prune
		git "${GIT_ID[@]}" -C "$repo" worktree add -q --detach "$wt" "$parent"
	fi
	if [ "$(cat "$wt/.variant-stamp" 2>/dev/null)" != "$stamp" ]; then
		log "preparing the $variant tree in $wt"
		git -C "$wt" am --abort >/dev/null 2>&1 || true
		git "${GIT_ID[@]}" -C "$wt" checkout -q --detach "$parent"
		if [ $# -gt 0 ] && ! git "${GIT_ID[@]}" -C "$wt" am -q "$@" >"$wt.am.log" 2>&1; then
			git -C "$wt" am --abort >/dev/null 2>&1 || true
			git "${GIT_ID[@]}" -C "$wt" checkout -q --detach "$parent"
			rm -f "$wt/.variant-stamp"
			die "$(printf '%s ' "$@" | sed "s|$PROJECT_DIR/||g")does not apply onto $variant's base $(git -C "$repo" log -1 --format='%h ("%s")' "$parent"); see $wt.am.log"
		fi
		echo "$stamp" >"$wt/.variant-stamp"
	fi
	echo "$wt"
}

variant_tree() {
	local variant=$1 repo base wt parent stamp patches=()
	repo=$(source_repo)
	base=$(git -C "$repo" rev-parse 'refs/tags/base^{commit}')
	case "$variant" in
	*+diag)
		wt=$(variant_tree "${variant%+diag}")
		parent=$(git -C "$wt" rev-parse HEAD)
		stamp="$parent-$(sha256sum <"$DIAGNOSTICS" | cut -c1-16)"
		prepare_worktree "$repo" "$variant" "$parent" "$stamp" "$DIAGNOSTICS"
		;;
	reference)
		if has_fast_path "$repo" "$base"; then
			# Revert the fast path with our reproducer, backwards and
			# with one line of context, so v6.13's scx_move_task() and
			# missing for_autogroup argument do not get in the way.
			wt=$(prepare_worktree "$repo" reference "$base" "$base-revert" )
			if [ ! -f "$wt/.reverted" ]; then
				git -C "$wt" apply -R -C1 "$REPRODUCER" ||
					die "cannot revert the fast path in $(git -C "$repo" log -1 --format='%h' "$base")"
				git "${GIT_ID[@]}" -C "$wt" commit -q -a -m "Revert the sched_move_task() fast path (as 76f970ce51c8)"
				touch "$wt/.reverted"
			fi
			echo "$wt"
		else
			prepare_worktree "$repo" reference "$base" "$base"
		fi
		;;
	regressed)
		if has_fast_path "$repo" "$base"; then
			prepare_worktree "$repo" regressed "$base" "$base"
		else
			stamp="$base-$(sha256sum <"$REPRODUCER" | cut -c1-16)"
			prepare_worktree "$repo" regressed "$base" "$stamp" "$REPRODUCER"
		fi
		;;
	fixed)
		wt=$(variant_tree regressed)
		parent=$(git -C "$wt" rev-parse HEAD)
		mapfile -t patches < <(series_patches)
		stamp="$parent-$(cat "${patches[@]}" /dev/null | sha256sum | cut -c1-16)"
		[ ${#patches[@]} -gt 0 ] || log "patches/ holds no series yet: fixed equals regressed"
		prepare_worktree "$repo" fixed "$parent" "$stamp" "${patches[@]}"
		;;
	esac
}

main() {
	case "${1:-}" in
	-h | --help) usage; exit 0 ;;
	"") usage >&2; exit 2 ;;
	esac
	[ $# -eq 1 ] || usage_error "one variant expected, got: $*"
	check_variant "$1"
	need_cmds git tar sha256sum
	variant_tree "$1"
}

main "$@"
