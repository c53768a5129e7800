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
# ones are read), exp_boot ARCH TOPOLOGY DIR (what a tool does
# around its boots or how it splits them, calling experiment_boot; by
# default each cell is one experiment_boot), exp_log_dirs DIR (the
# directories whose logs/ hold a cell's console logs, one a line; by
# default DIR), exp_boot_verdict LOG (what a boot that ended gave the
# tool: "judged", "cannot REASON" where this host could not judge, so
# the boot is tried again, or "left REASON"; by default every boot that
# ended is judged), exp_table_args DIR (the options of a recorded run
# that has no DIR/run.args, read from its logs) and exp_done RC (the
# run's last words for its verdict RC). Then main() is
# `experiment_main "$@"`, never in a "|| ..." list, where bash would
# ignore set -e in everything it runs.
#
# A run has a cell per arch and topology that QEMU makes for it: one cell
# writes its logs, CSVs and table.txt in DIR itself, several each in
# DIR/ARCH-TOPOLOGY/; with EXP_SHARED_DIR=yes every cell writes into DIR,
# its logs named ARCH-TOPOLOGY-KERNEL-BOOT.log, and one exp_collect DIR
# judges them all. DIR/run.args keeps the run's options, which
# --table DIR reads first. A new common option is a case in
# experiment_parse and a line in experiment_usage, here only.
#
# The one policy for a boot that gave nothing to judge: the driver
# counts, per cell, the boots the options ask for, those judged and
# those left out, each left out one with its reason (a failed boot, no
# console log, no verdict). A boot on which this host could not judge
# is booted again after the others, up to EXP_RETRIES times. A run with
# any boot left out never passes: 3 when every one of them is one this
# host could not judge, else 1.

EXP_CONFIGS=() EXP_SUFFIX="" EXP_SHARED_DIR="" EXP_OVERSUBSCRIBE=false EXP_RETRIES=2

# experiment_usage: the --help lines of the common options.
experiment_usage() {
	cat <<USAGE
  --arch "A..."       arches (default "${EXP_ARCH:-${DEFAULT_ARCHES%% *}}"; any of: ${EXP_ARCHES_OK:-$ARCHES})
  --boots R           boots per kernel (default $EXP_BOOTS)
  --variants "V..."   kernels (default "$VARIANTS"; kernel-tree.sh --help)
  --topologies "T.."  guest topologies (default "${EXP_TOPOLOGY:-cores}"; $(topology_arches_text))
  --append "PARAMS"   more kernel parameters for every guest
  --icount            guests under QEMU's -icount (guest-boot.sh --help)
  --extra-config F    one more config fragment for every kernel (again for more)
  --out DIR           a new results directory (default results/$EXP_NAME-<timestamp>)
  --table DIR         boot nothing: judge DIR's logs again (DIR/run.args, then these options)
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
	[ -n "${EXP_VARIANTS// /}" ] || usage_error "--variants needs a kernel"
	for v in $EXP_VARIANTS; do check_variant "$v"; done
	positive_option --boots "$EXP_BOOTS"
	[ -n "${EXP_TOPOLOGIES// /}" ] || usage_error "--topologies needs a topology"
	for t in $EXP_TOPOLOGIES; do topology_known "$t"; done
	! declare -F exp_check >/dev/null || exp_check
}

# experiment_check_host CELL...: before any build, that this host can
# boot every cell ("ARCH TOPOLOGY"): the topology is one QEMU makes for
# the arch within CONFIG_NR_CPUS, this host has a core per vCPU (else it
# cannot judge: exit 3), and the arch's QEMU is installed.
experiment_check_host() {
	local cell arch t why qemu
	for cell in "$@"; do
		arch=${cell% *} t=${cell#* }
		topology_check "$arch" "$t"
		why=$(topology_vcpus_fit "$t" "$([ ${#EXP_ICOUNT[@]} -gt 0 ] && echo true || echo false)" \
			"$EXP_OVERSUBSCRIBE") || cannot_judge "$why"
	done
	for arch in $EXP_ARCHES; do
		mapfile -t qemu < <(arch_qemu_machine "$arch" "$GUEST_VCPUS" 0)
		need_cmds "${qemu[0]}" timeout
	done
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
	if [ "$4" -eq 1 ] || [ -n "$EXP_SHARED_DIR" ]; then echo "$1"; else echo "$1/$2-$3"; fi
}

# experiment_log DIR ARCH TOPOLOGY KERNEL BOOT: that boot's console log
# in a cell's DIR (the topology in its name where the cells share one).
experiment_log() {
	console_log "$1" "$2" "${EXP_SHARED_DIR:+$3}" "$4" "$5"
}

# experiment_boot ARCH TOPOLOGY DIR [LABEL [APPEND]]: the boots of a
# cell, each kernel R times, interleaved, with exp_boot_args and the
# common options (APPEND: the tool's own kernel parameters before
# --append's; LABEL: the progress lines' name, default EXP_NAME); then
# again those this host could not judge (experiment_retry). The
# topology goes after the job's options, so that the console logs are
# DIR/logs/ARCH-KERNEL-BOOT.log in every cell (boot_interleaved puts a
# leading --topology in the name), but where the cells share DIR.
experiment_boot() {
	local boot_args append="${5:-}${5:+${EXP_APPEND:+ }}$EXP_APPEND"
	mapfile -t boot_args < <(
		[ -z "$EXP_SHARED_DIR" ] || printf '%s\n' --topology "$2"
		exp_boot_args "$1"
		[ -n "$EXP_SHARED_DIR" ] || printf '%s\n' --topology "$2"
		[ -z "$append" ] || printf '%s\n' --append "$append"
		[ ${#EXP_ICOUNT[@]} -eq 0 ] || printf '%s\n' "${EXP_ICOUNT[@]}"
		! $EXP_OVERSUBSCRIBE || echo --oversubscribe
	)
	boot_interleaved "$1" "$EXP_BOOTS" "$EXP_VARIANTS" "$3" "${4:-$EXP_NAME}" "${boot_args[@]}"
	experiment_retry "$1" "$2" "$3" "${4:-$EXP_NAME}" "${boot_args[@]}"
}

# experiment_retry ARCH TOPOLOGY DIR LABEL GUEST_BOOT_OPTION...: boot
# again, after the others and in the boot loop's order, each boot on
# which this host could not judge (a busy spell of the host passes),
# up to EXP_RETRIES times. An earlier try's console log and the files
# beside it stay, as LOG.tryN and LOG.tryN.*.
experiment_retry() {
	local arch=$1 t=$2 dir=$3 label=$4 try b v log f again
	shift 4
	for try in $(seq "$EXP_RETRIES"); do
		again=()
		for b in $(seq "$EXP_BOOTS"); do
			for v in $EXP_VARIANTS; do
				log=$(experiment_log "$dir" "$arch" "$t" "$v" "$b")
				[[ "$(experiment_boot_judgement "$log")" != cannot\ * ]] || again+=("$b $v")
			done
		done
		[ ${#again[@]} -gt 0 ] || return 0
		log "$label: ${#again[@]} boot(s) this host could not judge, booted again (try $((try + 1)) of $((EXP_RETRIES + 1)))"
		for b in "${again[@]}"; do
			v=${b#* } b=${b%% *}
			log=$(experiment_log "$dir" "$arch" "$t" "$v" "$b")
			for f in "$log" "$log".*; do
				case "$f" in "$log".try*) continue ;; esac
				[ ! -e "$f" ] || mv "$f" "$log.try$try${f#"$log"}"
			done
			boot_one "$arch" "$v" "$b" "$dir" "$label" "$EXP_BOOTS" "$@"
		done
	done
}

# experiment_boot_judgement LOG: what the boot of console log LOG gave:
# "judged", "cannot REASON" (this host could not judge) or "left
# REASON" (a failed boot, no console log, or what exp_boot_verdict says).
experiment_boot_judgement() {
	local log=$1 error
	if [ ! -e "$log" ]; then
		error=$(tail -n 1 "$log.boot-error" 2>/dev/null || true)
		echo "left no console log${error:+: ${error#error: }}"
	elif error=$(boot_failed "$log"); then
		echo "left ${error#error: }"
	elif declare -F exp_boot_verdict >/dev/null; then
		exp_boot_verdict "$log"
	else
		echo judged
	fi
}

# experiment_tally DIR ARCH TOPOLOGY: the boots of a cell the options
# ask for, judged or left out: a line for each one left out, with its
# reason (for one this host could not judge, every try's), then the
# counts. Returns 0 when every boot was judged, 3 when those left out
# are all boots this host could not judge, else 1.
experiment_tally() {
	local dir=$1 arch=$2 t=$3 d b v log j try reasons
	local expected=0 judged=0 left=0 cannot=0
	while read -r d; do
		for b in $(seq "$EXP_BOOTS"); do
			for v in $EXP_VARIANTS; do
				expected=$((expected + 1))
				log=$(experiment_log "$d" "$arch" "$t" "$v" "$b")
				j=$(experiment_boot_judgement "$log")
				case "$j" in
				judged) judged=$((judged + 1)) ;;
				cannot\ *)
					cannot=$((cannot + 1))
					reasons=""
					for try in "$log".try[0-9]; do
						[ ! -e "$try" ] || reasons+="$(experiment_boot_judgement "$try" | cut -d' ' -f2-); "
					done
					echo "cannot judge here: $arch $t $v boot $b: ${reasons}${j#cannot }" >&2
					;;
				*)
					left=$((left + 1))
					echo "error: $arch $t $v boot $b left out: ${j#left }" >&2
					;;
				esac
			done
		done
	done < <(if declare -F exp_log_dirs >/dev/null; then exp_log_dirs "$dir"; else echo "$dir"; fi)
	log "$EXP_NAME $arch $t: $expected boot(s) expected, $judged judged, $((left + cannot)) left out$(
		[ "$cannot" -eq 0 ] || echo " ($cannot where this host could not judge)")"
	[ "$left" -eq 0 ] || return 1
	[ "$cannot" -eq 0 ] || return 3
}

# experiment_worst RC...: the worst of verdicts: 1 where any is neither
# 0 nor 3, else 3 ("cannot judge here") where any is, else 0.
experiment_worst() {
	local rc
	for rc in "$@"; do
		[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || { echo 1; return; }
	done
	case " $* " in *" 3 "*) echo 3 ;; *) echo 0 ;; esac
}

# experiment_defaults: the common options' defaults.
experiment_defaults() {
	EXP_ARCHES=${EXP_ARCH:-${DEFAULT_ARCHES%% *}} EXP_VARIANTS=$VARIANTS
	EXP_TOPOLOGIES=${EXP_TOPOLOGY:-cores}
	EXP_APPEND="" EXP_ICOUNT=() EXP_EXTRA=() EXP_OUT="" EXP_TABLE=""
}

# experiment_main ARG...: the whole run of a tool (see the top of this
# file); returns the worst verdict of its cells, its boots' tally
# included: 1, else 3, else 0.
experiment_main() {
	local cells arch t dir n rc=0 cell_rc run_args=()
	experiment_defaults
	experiment_parse "$@"
	if [ -n "$EXP_TABLE" ]; then
		# The run's own options first, then those given with --table.
		if [ -f "$EXP_TABLE/run.args" ]; then
			mapfile -t run_args <"$EXP_TABLE/run.args"
		elif declare -F exp_table_args >/dev/null; then
			mapfile -t run_args < <(exp_table_args "$EXP_TABLE")
		fi
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
		experiment_check_host "${cells[@]}"
		# Debian's tree and a worktree per kernel and the kselftest's,
		# about 2 GiB each: a full disk half-way through the builds
		# fails late, for one cause.
		"$SCRIPTS_DIR/free-space.sh" $((3 + 2 * ($(wc -w <<<"$EXP_VARIANTS") + 1))) "$BUILD_DIR" ||
			exit 1
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
		cell_rc=0
		experiment_tally "$dir" "$arch" "$t" || cell_rc=$?
		rc=$(experiment_worst "$rc" "$cell_rc")
		[ -z "$EXP_SHARED_DIR" ] || continue
		[ "$n" -eq 1 ] || echo "== $arch $t"
		# In the background, so that set -e holds in exp_collect: in
		# "exp_collect || rc=$?" bash would ignore it there.
		cell_rc=0
		exp_collect "$dir" "$arch" &
		wait "$!" || cell_rc=$?
		rc=$(experiment_worst "$rc" "$cell_rc")
	done
	if [ -n "$EXP_SHARED_DIR" ]; then
		cell_rc=0
		exp_collect "$EXP_OUT" "" &
		wait "$!" || cell_rc=$?
		rc=$(experiment_worst "$rc" "$cell_rc")
	fi
	! declare -F exp_done >/dev/null || exp_done "$rc"
	return "$rc"
}
