# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source lib.sh
# SPDX-License-Identifier: GPL-2.0
# Command lines and messages: progress, errors, the arch and variant
# grammar and its suffixes,
# the tools they need, the selftest's margins.
# Sourced by scripts/lib.sh, never run.

log() {
	local now elapsed
	now=$(date +%s)
	elapsed=$((now - FORK_REGRESSION_T0))
	printf '[%02d:%02d] %s\n' $((elapsed / 60)) $((elapsed % 60)) "$*" >&2
}

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# cannot_judge MESSAGE: this host cannot give the verdict asked for (too
# few cores, say): exit 3, as a run whose verdicts prove nothing here.
cannot_judge() {
	printf 'cannot judge here: %s\n' "$*" >&2
	exit 3
}

# usage_error MESSAGE: bad input on the command line.
usage_error() {
	printf 'error: %s (see --help)\n' "$*" >&2
	exit 2
}

check_arch() {
	case " $ARCHES " in
	*" $1 "*) ;;
	*) usage_error "unknown arch '$1': expected one of: $ARCHES" ;;
	esac
}

# alternative_patch X: the patch of candidate fix alt-X, the one file
# scripts/kernel/alternatives/X-*.patch; empty when there is none.
alternative_patch() {
	local f
	for f in "$SCRIPTS_DIR/kernel/alternatives/$1"-*.patch; do
		[ -f "$f" ] && echo "$f"
		return
	done
}

# The harness's additions to a variant's tree, never for merging: V+S is
# variant V's tree plus S's patch, built with S's config fragment if it
# has one (paths under scripts/: an experiment's own are in its folder
# of scripts/experiments/). The one
# table of them: kernel-tree.sh, kernel-build.sh and check_variant read
# it, so a new suffix is a line here.
VARIANT_SUFFIXES="diag dvfs removal-wrap count"
declare -A VARIANT_SUFFIX_PATCH=(
	[diag]=experiments/diagnose/diagnostics-fork-placement.patch
	[dvfs]=experiments/dvfs/emulated-cpufreq.patch
	[removal-wrap]=kernel/harness/v7.0-removal-on-6.12.patch
	[count]=experiments/count/count-post-init-and-frequency-requests.patch
)
declare -A VARIANT_SUFFIX_CONFIG=([dvfs]=experiments/dvfs/dvfs.config)
declare -A VARIANT_SUFFIX_ABOUT=(
	[diag]="counters in /sys/kernel/debug/fork_diag"
	[dvfs]="an emulated DVFS driver for schedutil, 6.12 and later"
	[removal-wrap]="v7.0's 32-bit wrapping removal of averages, on 6.12"
	[count]="per-fork post_init and per-exit frequency-request counters in /sys/kernel/debug/sched_count"
)

# variant_suffix VARIANT: the suffix of VARIANT_SUFFIXES it ends in (+S);
# false if none.
variant_suffix() {
	local s
	for s in $VARIANT_SUFFIXES; do
		case "$1" in ?*+"$s") echo "$s"; return 0 ;; esac
	done
	return 1
}

# base_variant VARIANT: VARIANT without its suffixes of VARIANT_SUFFIXES.
base_variant() {
	local v=$1 s
	while s=$(variant_suffix "$v"); do v=${v%+"$s"}; done
	echo "$v"
}

# A variant, optionally ending in +S for suffixes S of VARIANT_SUFFIXES
# (above). Besides VARIANTS, bugfix is the reference tree plus BUGFIX_SERIES
# alone, and alt-X is a candidate fix weighed against the series: the
# regressed tree plus alternative_patch X; V+alt-X is variant V's tree plus
# that patch (reference+alt-B: (B) without the fast path); fixed@S is the
# fixed tree of the series patches/S (as SERIES=patches/S makes it), so that
# two series can be booted side by side.
check_variant() {
	local v
	v=$(base_variant "$1")
	case " $VARIANTS bugfix " in *" $v "*) return ;; esac
	# V+alt-X before fixed@S, as kernel-tree.sh reads it: fixed@S+alt-X is
	# the series S plus candidate X.
	case "$v" in
	*?+alt-?*)
		if [ -n "$(alternative_patch "${v##*+alt-}")" ]; then
			check_variant "${v%+alt-*}"
			return
		fi
		;;
	fixed@?*)
		[[ "${v#fixed@}" == */* || ! -d "$PROJECT_DIR/patches/${v#fixed@}" ]] || return 0
		;;
	alt-?*) [ -z "$(alternative_patch "${v#alt-}")" ] || return 0 ;;
	esac
	usage_error "unknown variant '$1': expected one of: $VARIANTS, bugfix, alt-X for scripts/kernel/alternatives/X-*.patch, fixed@S for the series patches/S, or one of those followed by +alt-X (each may end in +${VARIANT_SUFFIXES// /, +})"
}

# need_cmds CMD...: stop with the list of missing tools and how to get them.
need_cmds() {
	local cmd missing=()
	for cmd in "$@"; do
		command -v "$cmd" >/dev/null 2>&1 || missing+=("$cmd")
	done
	[ ${#missing[@]} -eq 0 ] ||
		die "missing tools: ${missing[*]} (run scripts/install-deps.sh as root)"
}

# positive_option OPTION VALUE: VALUE must be a positive whole number.
positive_option() {
	[[ "$2" =~ ^[1-9][0-9]*$ ]] || usage_error "$1 takes a positive number"
}

# margin NAME: a margin of the selftest (#define NAME in its source), so
# the harness judges by the same numbers as the test: the whole value,
# without parentheses ("(5.0 / 1024)" gives "5.0 / 1024").
SELFTEST_SOURCE=$PROJECT_DIR/selftests/sched/fork_placement_test.c
margin() {
	awk -v name="$1" '$1 == "#define" && $2 == name {
			$1 = $2 = ""; gsub(/^ +|[()]/, ""); print; found = 1
		} END { exit !found }' "$SELFTEST_SOURCE" ||
		die "no #define $1 in $SELFTEST_SOURCE"
}
