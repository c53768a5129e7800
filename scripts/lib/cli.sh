# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source lib.sh
# SPDX-License-Identifier: GPL-2.0
# Command lines and messages: progress, errors, the arch and variant
# grammar, the run options of the tools that boot each kernel R times,
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
# variant V's tree plus S's patch (under scripts/kernel/), built with
# S's config fragment (under scripts/config/) if it has one. The one
# table of them: kernel-tree.sh, kernel-build.sh and check_variant read
# it, so a new suffix is a line here.
VARIANT_SUFFIXES="diag dvfs removal-wrap"
declare -A VARIANT_SUFFIX_PATCH=(
	[diag]=diagnostics-fork-placement.patch
	[dvfs]=harness/emulated-cpufreq.patch
	[removal-wrap]=harness/v7.0-removal-on-6.12.patch
)
declare -A VARIANT_SUFFIX_CONFIG=([dvfs]=dvfs.config)
declare -A VARIANT_SUFFIX_ABOUT=(
	[diag]="counters in /sys/kernel/debug/fork_diag"
	[dvfs]="an emulated DVFS driver for schedutil, 6.12 and later"
	[removal-wrap]="v7.0's 32-bit wrapping removal of averages, on 6.12"
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

# A variant, optionally ending in +S for suffixes S of VARIANT_SUFFIXES
# (above). Besides VARIANTS, bugfix is the reference tree plus BUGFIX_SERIES alone, and
# alt-X is a candidate fix weighed against the series: the
# regressed tree plus alternative_patch X; V+alt-X is variant V's tree
# plus that patch (reference+alt-B: (B) without the fast path);
# fixed@S is the fixed tree of the series patches/S (as SERIES=patches/S
# makes it), so that two series can be booted side by side.
check_variant() {
	local v=$1 s
	while s=$(variant_suffix "$v"); do v=${v%+"$s"}; done
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

# The options of the tools that boot each kernel R times (cost.sh,
# diagnose.sh, phantom-attach.sh, stress.sh, bench.sh). run_defaults BOOTS NAME sets RUN_ARCH,
# RUN_BOOTS, RUN_VARIANTS and RUN_OUT to their defaults; run_option
# "$@" takes --arch, --boots, --variants or --out with its value (the
# caller shifts 2), or returns 1 for any other word; run_options_check
# validates them and makes RUN_OUT results/NAME-<timestamp> if unset.
run_defaults() {
	RUN_ARCH=${DEFAULT_ARCHES%% *} RUN_BOOTS=$1 RUN_VARIANTS=$VARIANTS RUN_OUT="" RUN_NAME=$2
}

run_option() {
	case "$1" in
	--arch | --boots | --variants | --out) [ $# -ge 2 ] || usage_error "$1 needs a value" ;;
	*) return 1 ;;
	esac
	case "$1" in
	--arch) RUN_ARCH=$2 ;;
	--boots) RUN_BOOTS=$2 ;;
	--variants) RUN_VARIANTS=$2 ;;
	--out) RUN_OUT=$2 ;;
	esac
}

# positive_option OPTION VALUE: VALUE must be a positive whole number.
positive_option() {
	[[ "$2" =~ ^[1-9][0-9]*$ ]] || usage_error "$1 takes a positive number"
}

run_options_check() {
	local v
	check_arch "$RUN_ARCH"
	for v in $RUN_VARIANTS; do check_variant "$v"; done
	positive_option --boots "$RUN_BOOTS"
	[ -n "$RUN_OUT" ] || RUN_OUT=$PROJECT_DIR/results/$RUN_NAME-$(date +%Y%m%d-%H%M%S)
}

# run_options_usage BOOTS NAME [DEFAULT_ARCH "ARCHES"]: the --help lines
# of those options (by default the first of DEFAULT_ARCHES, any arch).
run_options_usage() {
	local default=${3:-${DEFAULT_ARCHES%% *}} allowed
	read -ra allowed <<<"${4:-$ARCHES}"
	cat <<USAGE
  --arch A            $(arch_list_text "${allowed[@]}") (default $default)
  --boots R           boots per kernel (default $1)
  --variants "V..."   kernels (default: "$VARIANTS")
  --out DIR           results directory (default results/$2-<timestamp>)
USAGE
}

# parse_run_options BOOTS NAME ARGS...: all of the above for a tool that
# has no other options (--help runs the caller's usage()).
parse_run_options() {
	run_defaults "$1" "$2"
	shift 2
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		*) run_option "$@" || usage_error "unknown argument $1"; shift 2 ;;
		esac
	done
	run_options_check
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
