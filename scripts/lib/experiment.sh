# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source lib.sh
# SPDX-License-Identifier: GPL-2.0
# The one experiment driver: the common options of every tool that builds
# kernels and boots each R times (bench, cost, diagnose, dvfs,
# phantom-attach, pelt-bounds, stress), the results directory, the
# builds before any boot, the boots interleaved per arch and topology,
# and --table DIR, which judges recorded console logs again.
# Sourced by scripts/lib.sh, never run.
#
# A tool sets EXP_NAME (its name in results/ and the progress lines) and
# EXP_BOOTS (its default boots per kernel), optionally EXP_SUFFIX (the
# variant suffix its kernels are built with, e.g. +diag), EXP_CONFIGS
# (config fragments every kernel of it is built with) and EXP_ARCHES_OK
# and EXP_ARCH (the arches it can run and its default --arch), and
# EXP_TOPOLOGY (its default --topologies, else cores), defines
#   usage              its --help text, as every script: what it does,
#                      "$(experiment_usage)", then its own options
#   exp_option ARG...  takes one option of its own and sets EXP_SHIFT to
#                      the words it took; returns 1 for any other word
#   exp_boot_args ARCH guest-boot.sh's options of its job (--job ...), one
#                      word a line
#   exp_collect DIR ARCH  reads DIR/logs/ARCH-KERNEL-BOOT.log of every
#                      kernel and boot into its CSVs and DIR/table.txt
#                      (printed too), and returns its verdict: 0, 1 (a
#                      check failed or a figure is missing) or 3 (cannot
#                      judge on this host)
# and may define exp_check (validates its own options once the common
# ones are read) and exp_boot ARCH TOPOLOGY DIR (what a tool does
# around its boots or how it splits them, calling experiment_boot; by
# default each cell is one experiment_boot). Then main() is
# `experiment_main "$@"`.
#
# A run has a cell per arch and topology that QEMU makes for it: one cell
# writes its logs, CSVs and table.txt in DIR itself, several each in
# DIR/ARCH-TOPOLOGY/. DIR/run.args keeps the run's options, which
# --table DIR reads first. A new common option is a case in
# experiment_parse and a line in experiment_usage, here only.

EXP_CONFIGS=() EXP_SUFFIX=""

# experiment_usage: the --help lines of the common options.
experiment_usage() {
	cat <<USAGE
  --arch "A..."       arches (default "${EXP_ARCH:-${DEFAULT_ARCHES%% *}}"; any of: ${EXP_ARCHES_OK:-$ARCHES})
  --boots R           boots per kernel (default $EXP_BOOTS)
  --variants "V..."   kernels (default: "$VARIANTS";
                      see kernel-tree.sh --help)
  --topologies "T.."  guest topologies (default "${EXP_TOPOLOGY:-cores}"), each booted on the
                      arches that have it (see guest-boot.sh --help)
  --append "PARAMS"   more kernel parameters for every guest
  --icount            guests under QEMU's -icount (see guest-boot.sh --help)
  --extra-config F    build every kernel with one more config fragment
                      (again for more)
  --out DIR           results directory, a new one (default
                      results/$EXP_NAME-<timestamp>)
  --table DIR         boot nothing: read the console logs of an earlier run
                      in DIR again, with the parser and rules as they are
                      now, with the run's options (DIR/run.args) and then
                      any given here; rewrite its CSVs and tables, judge
USAGE
}

# experiment_parse ARG...: the common options into EXP_*, a tool's own
# through exp_option; a usage error for any other word.
experiment_parse() {
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--icount) EXP_ICOUNT=(--icount); shift; continue ;;
		--arch | --boots | --variants | --topologies | --append | --extra-config | --out | --table)
			[ $# -ge 2 ] || usage_error "$1 needs a value"
			;;
		*)
			EXP_SHIFT=0
			exp_option "$@" || usage_error "unknown argument $1"
			# A tool's exp_option that took a word but said none
			# would loop here for ever.
			[ "$EXP_SHIFT" -gt 0 ] || die "$EXP_NAME: exp_option took $1 but set no EXP_SHIFT"
			shift "$EXP_SHIFT"
			continue
			;;
		esac
		case "$1" in
		--arch) EXP_ARCHES=$2 ;;
		--boots) EXP_BOOTS=$2 ;;
		--variants) EXP_VARIANTS=$2 ;;
		--topologies) EXP_TOPOLOGIES=$2 ;;
		--append) EXP_APPEND+="${EXP_APPEND:+ }$2" ;;
		--extra-config)
			[ -f "$2" ] || usage_error "--extra-config needs a readable file"
			EXP_EXTRA+=(--extra-config "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")")
			;;
		--out) EXP_OUT=$2 ;;
		--table)
			[ -d "$2" ] || usage_error "--table takes the results directory of a run"
			EXP_TABLE=$2
			;;
		esac
		shift 2
	done
}

# experiment_check: the common options' values, then the tool's own.
experiment_check() {
	local arch v t
	for arch in $EXP_ARCHES; do
		check_arch "$arch"
		case " ${EXP_ARCHES_OK:-$ARCHES} " in
		*" $arch "*) ;;
		*) usage_error "--arch: $EXP_NAME runs on ${EXP_ARCHES_OK:-$ARCHES} only, not $arch" ;;
		esac
	done
	[ -n "$EXP_ARCHES" ] || usage_error "--arch needs an arch"
	for v in $EXP_VARIANTS; do check_variant "$v"; done
	positive_option --boots "$EXP_BOOTS"
	for t in $EXP_TOPOLOGIES; do topology_known "$t"; done
	! declare -F exp_check >/dev/null || exp_check
}

# experiment_cells: "ARCH TOPOLOGY" a line, for every topology that QEMU
# makes for the arch.
experiment_cells() {
	local arch t
	for arch in $EXP_ARCHES; do
		for t in $EXP_TOPOLOGIES; do
			! topology_fits "$arch" "$t" || echo "$arch $t"
		done
	done
}

# experiment_cell_dir OUT ARCH TOPOLOGY CELLS: where a cell's results go.
experiment_cell_dir() {
	if [ "$4" -eq 1 ]; then echo "$1"; else echo "$1/$2-$3"; fi
}

# experiment_boot ARCH TOPOLOGY DIR [LABEL [APPEND]]: the boots of a
# cell, each kernel R times, interleaved, with exp_boot_args and the
# common options (APPEND: the tool's own kernel parameters before
# --append's; LABEL: the progress lines' name, default EXP_NAME). The
# topology goes after the job's options, so that the console logs are
# DIR/logs/ARCH-KERNEL-BOOT.log in every cell (boot_interleaved puts a
# leading --topology in the name).
experiment_boot() {
	local job_args append="${5:-}${5:+${EXP_APPEND:+ }}$EXP_APPEND"
	mapfile -t job_args < <(exp_boot_args "$1")
	boot_interleaved "$1" "$EXP_BOOTS" "$EXP_VARIANTS" "$3" "${4:-$EXP_NAME}" "${job_args[@]}" \
		--topology "$2" ${append:+--append "$append"} "${EXP_ICOUNT[@]}"
}

# experiment_defaults: the common options' defaults.
experiment_defaults() {
	EXP_ARCHES=${EXP_ARCH:-${DEFAULT_ARCHES%% *}} EXP_VARIANTS=$VARIANTS
	EXP_TOPOLOGIES=${EXP_TOPOLOGY:-cores}
	EXP_APPEND="" EXP_ICOUNT=() EXP_EXTRA=() EXP_OUT="" EXP_TABLE=""
}

# experiment_main ARG...: the whole run of a tool (see the top of this
# file); returns the worst verdict of its cells: 1, else 3, else 0.
experiment_main() {
	local cells arch t dir n rc=0 cell_rc run_args=()
	experiment_defaults
	experiment_parse "$@"
	if [ -n "$EXP_TABLE" ] && [ -f "$EXP_TABLE/run.args" ]; then
		# The run's own options first, then those given with --table.
		mapfile -t run_args <"$EXP_TABLE/run.args"
		EXP_APPEND="" EXP_EXTRA=()
		experiment_parse "${run_args[@]}" "$@"
	fi
	experiment_check
	mapfile -t cells < <(experiment_cells)
	n=${#cells[@]}
	[ "$n" -gt 0 ] || usage_error "no topology of \"$EXP_TOPOLOGIES\" exists on \"$EXP_ARCHES\""
	if [ -n "$EXP_TABLE" ]; then
		EXP_OUT=$EXP_TABLE
	else
		[ -n "$EXP_OUT" ] || EXP_OUT=$PROJECT_DIR/results/$EXP_NAME-$(date +%Y%m%d-%H%M%S)
		# A new directory, or an empty one: a run never mixes its
		# logs and tables with another's.
		[ -z "$(ls -A "$EXP_OUT" 2>/dev/null)" ] || usage_error "$EXP_OUT already holds results"
		mkdir -p "$EXP_OUT"
		# One word a line; none for a run with the defaults.
		{ [ $# -eq 0 ] || printf '%s\n' "$@"; } >"$EXP_OUT/run.args"
		for arch in $EXP_ARCHES; do
			build_guests "$arch" "$EXP_SUFFIX" "$EXP_VARIANTS" "${EXP_CONFIGS[@]}" "${EXP_EXTRA[@]}"
		done
		for cell in "${cells[@]}"; do
			arch=${cell% *} t=${cell#* }
			dir=$(experiment_cell_dir "$EXP_OUT" "$arch" "$t" "$n")
			mkdir -p "$dir/logs"
			if declare -F exp_boot >/dev/null; then
				exp_boot "$arch" "$t" "$dir"
			else
				experiment_boot "$arch" "$t" "$dir"
			fi
		done
	fi
	for cell in "${cells[@]}"; do
		arch=${cell% *} t=${cell#* }
		dir=$(experiment_cell_dir "$EXP_OUT" "$arch" "$t" "$n")
		[ -d "$dir" ] || die "$dir: no results of $arch $t (--table with other options than the run's?)"
		[ "$n" -eq 1 ] || echo "== $arch $t"
		cell_rc=0
		exp_collect "$dir" "$arch" || cell_rc=$?
		case "$cell_rc" in
		0) ;;
		3) [ "$rc" -eq 1 ] || rc=3 ;;
		*) rc=1 ;;
		esac
	done
	return "$rc"
}
