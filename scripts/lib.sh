# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source it
# SPDX-License-Identifier: GPL-2.0
# Shared by every script in scripts/: paths, progress lines and errors.
# Sourced, never run.

PROJECT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$PROJECT_DIR/build}
SCRIPTS_DIR=$PROJECT_DIR/scripts
# One clock for a whole run, so nested scripts print the same elapsed time.
export FORK_REGRESSION_T0=${FORK_REGRESSION_T0:-$(date +%s)}
# Every arch the harness builds and boots; the 64-bit ones are the
# default of the tools that take a list (verify.sh, build-matrix.sh).
ARCHES="x86_64 arm64 i386 arm"
DEFAULT_ARCHES="x86_64 arm64"
VARIANTS="reference regressed fixed"
# Not a default variant: the base plus the standalone fixes of bugs in
# released kernels that the rest of the mainline work goes on top of.
BUGFIX_SERIES=$PROJECT_DIR/patches/mainline-fixes
# Every guest has this many vCPUs: never more than the host's cores.
GUEST_VCPUS=2
# Held by every kernel build and every guest: on a 2-core host a guest
# measures nothing while anything else runs. Other tools can take it too
# (flock "$MACHINE_LOCK" CMD).
MACHINE_LOCK=${FORK_REGRESSION_LOCK:-/tmp/fork-regression.machine.lock}

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

# A variant, optionally with +diag: the same tree plus the diagnostics
# patch (scripts/kernel/diagnostics-fork-placement.patch), or +dvfs: plus
# the emulated cpufreq driver (scripts/kernel/harness/
# emulated-cpufreq.patch) and scripts/config/dvfs.config. Besides
# VARIANTS, bugfix is the reference tree plus BUGFIX_SERIES alone, and
# alt-X is a candidate fix weighed against the series: the
# regressed tree plus alternative_patch X; V+alt-X is variant V's tree
# plus that patch (reference+alt-B: (B) without the fast path).
check_variant() {
	local v=${1%+diag}
	v=${v%+dvfs}
	case " $VARIANTS bugfix " in *" $v "*) return ;; esac
	case "$v" in
	*?+alt-?*)
		if [ -n "$(alternative_patch "${v##*+alt-}")" ]; then
			check_variant "${v%+alt-*}"
			return
		fi
		;;
	alt-?*) [ -z "$(alternative_patch "${v#alt-}")" ] || return 0 ;;
	esac
	usage_error "unknown variant '$1': expected one of: $VARIANTS, bugfix, alt-X for scripts/kernel/alternatives/X-*.patch, or one of those followed by +alt-X (each may end in +diag or +dvfs)"
}

# with_machine_lock CMD...: run CMD alone on the machine (see MACHINE_LOCK).
# FORK_REGRESSION_LOCKED=1 marks a process tree that holds it already.
# CMD runs in a child, where set -e holds (in "CMD || rc=$?" bash would
# ignore it in every function CMD calls), so a shell function CMD stops
# at its first failing command and cannot set the caller's variables.
with_machine_lock() {
	local rc=0
	if [ -n "${FORK_REGRESSION_LOCKED:-}" ]; then
		"$@" <&0 &
		wait "$!" || rc=$?
		return "$rc"
	fi
	exec {lock_fd}>>"$MACHINE_LOCK"
	if ! flock -n "$lock_fd"; then
		log "waiting for the machine lock $MACHINE_LOCK (a build or guest runs)"
		flock "$lock_fd"
	fi
	FORK_REGRESSION_LOCKED=1 "$@" <&0 &
	wait "$!" || rc=$?
	exec {lock_fd}>&-
	return "$rc"
}

# Signals. bash runs a trap only after the foreground command it waits
# for has ended, a SIGTERM or SIGHUP sent to a script's process alone (a
# CI timeout, kill PID) reaches none of its children, and timeout(1)
# puts QEMU in a process group of its own that the terminal's Ctrl-C
# does not reach: so a script went on to its next boot when told to
# stop. run_main runs main in a child and waits for it where a trap can
# interrupt the wait; on INT, TERM or HUP, stop_run stops every process
# of the run (builds, QEMU, nested scripts, which remove their temporary
# trees in their EXIT traps) before the script ends with that signal,
# and the machine lock, whose descriptor only they hold, is free again.
# The processes of a run are those below the script and those that
# carry its pid in FORK_REGRESSION_RUNS (":pid:pid:", exported by
# run_main, so inherited by every program started since): a process
# whose parent died first is no longer below the script.

# run_pids: the processes of this script's run, this one left out, and
# those of the command substitution that runs it.
run_pids() {
	local f marked="" self=$BASHPID
	# grep runs without the mark, so it does not find itself.
	for f in $(env -u FORK_REGRESSION_RUNS grep -lzs -- "^FORK_REGRESSION_RUNS=.*:$$:" /proc/[0-9]*/environ); do
		f=${f#/proc/}
		marked+=" ${f%/environ}"
	done
	# The script's own subshells are forks, not programs, and carry no
	# mark in /proc: the tree finds them.
	ps -e -o pid= -o ppid= | awk -v root=$$ -v skip="$self" -v marked="$marked" '
		BEGIN { n = split(marked, m, " "); for (i = 1; i <= n; i++) want[m[i]] = 1 }
		{ parent[$1] = $2 }
		END {
			for (p in parent) {
				below = 0
				for (q = p; q in parent && q > 1; q = parent[q]) {
					if (q == skip) { below = -1; break }
					if (q == root) { below = (p != root); break }
				}
				if (below > 0 || (below == 0 && p in want)) print p
			}
		}' | sort -n
}

# stop_run: SIGSTOP the run's processes until they hold still (a loop
# cannot start its next boot while the others die), then SIGTERM and
# SIGCONT them; SIGKILL what is left after 10 s.
stop_run() {
	local pids now i
	pids=$(run_pids)
	for i in 1 2 3 4 5; do
		[ -n "$pids" ] || return 0
		# shellcheck disable=SC2086 # one word per pid
		kill -STOP $pids 2>/dev/null || true
		now=$(run_pids)
		[ "$now" != "$pids" ] || break
		pids=$now
	done
	# shellcheck disable=SC2086
	kill -TERM $pids 2>/dev/null || true
	# shellcheck disable=SC2086
	kill -CONT $pids 2>/dev/null || true
	for i in $(seq 50); do
		pids=$(run_pids)
		[ -n "$pids" ] || return 0
		sleep 0.2
	done
	# shellcheck disable=SC2086
	kill -KILL $pids 2>/dev/null || true
}

on_signal() {
	trap '' INT TERM HUP
	log "stopping on SIG$1"
	stop_run
	wait 2>/dev/null || true
	trap - "$1" EXIT
	kill -"$1" $$
}

# run_main ARGS...: main ARGS... as above; exits with main's status. main
# ignores INT and HUP, which a terminal sends to the whole process group:
# the script's trap stops it (with TERM), in order.
run_main() {
	local sig rc=0
	for sig in INT TERM HUP; do
		# shellcheck disable=SC2064 # the signal's name, now
		trap "on_signal $sig" "$sig"
	done
	export FORK_REGRESSION_RUNS=${FORK_REGRESSION_RUNS:-:}$$:
	(
		trap '' INT HUP
		main "$@"
	) <&0 &
	wait "$!" || rc=$?
	exit "$rc"
}

# console_splat LOG: print the first line of a kernel warning, BUG, oops,
# lockdep, KASAN/UBSAN or stall report in a console log; false if none.
console_splat() {
	tr -d '\r' <"$1" | grep -m1 -E \
		-e '-+\[ cut here \]-+' -e '(^|[] ])(WARNING|BUG|UBSAN|Oops)[: ]' \
		-e 'kernel BUG at' -e 'Unable to handle kernel' -e 'general protection fault' \
		-e 'INFO: (task .* blocked|rcu_.* stall|possible .*locking)' \
		-e 'rcu: INFO: .* stall' -e 'Call [Tt]race:' -e 'Kernel panic'
}

# series_patches DIR: the patches of a series in patches/, in order, the
# cover letter left out.
series_patches() {
	find "$1" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort
}

# series_prerequisites DIR: set PREREQUISITES to the series that go
# before DIR's, in order: DIR/prerequisites names them, one directory of
# patches/ per line. Run in the caller's shell, so that a bad name stops it.
series_prerequisites() {
	local name
	PREREQUISITES=()
	[ -f "$1/prerequisites" ] || return 0
	while read -r name; do
		[ -n "$name" ] || continue
		[ -d "$PROJECT_DIR/patches/$name" ] ||
			die "${1#"$PROJECT_DIR"/}/prerequisites names $name, which is not a directory of patches/"
		PREREQUISITES+=("$PROJECT_DIR/patches/$name")
	done <"$1/prerequisites"
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

# build_guests ARCH SUFFIX "VARIANTS" [KERNEL_BUILD_ARG...]: build the
# kernel of each variant (VARIANT+SUFFIX, e.g. +diag) and the initramfs
# of ARCH, all before any guest boots: no guest may run while a build
# does. Sets GUEST_IMAGE[ARCH-VARIANT].
declare -A GUEST_IMAGE
build_guests() {
	local arch=$1 suffix=$2 variants=$3 v
	shift 3
	for v in $variants; do
		GUEST_IMAGE[$arch-$v]=$("$SCRIPTS_DIR/kernel-build.sh" "$@" "$arch" "$v$suffix")
	done
	# A build like the kernels': alone on the machine, and never two at
	# once into the same build/guest/ARCH (two tools may start together).
	with_machine_lock "$SCRIPTS_DIR/guest-initramfs.sh" "$arch" >/dev/null
}

# Cross compiler prefix and kernel image of an arch.
cross_compile() {
	case "$1" in
	x86_64) echo "" ;;
	arm64) echo "aarch64-linux-gnu-" ;;
	i386) echo "i686-linux-gnu-" ;;
	arm) echo "arm-linux-gnueabihf-" ;;
	esac
}

kernel_image() {
	case "$1" in
	x86_64 | i386) echo "arch/x86/boot/bzImage" ;;
	arm64) echo "arch/arm64/boot/Image" ;;
	arm) echo "arch/arm/boot/zImage" ;;
	esac
}

# The options of the tools that boot each kernel R times (cost.sh,
# diagnose.sh, phantom-attach.sh, stress.sh, bench.sh). run_defaults BOOTS NAME sets RUN_ARCH,
# RUN_BOOTS, RUN_VARIANTS and RUN_OUT to their defaults; run_option
# "$@" takes --arch, --boots, --variants or --out with its value (the
# caller shifts 2), or returns 1 for any other word; run_options_check
# validates them and makes RUN_OUT results/NAME-<timestamp> if unset.
run_defaults() {
	RUN_ARCH=x86_64 RUN_BOOTS=$1 RUN_VARIANTS=$VARIANTS RUN_OUT="" RUN_NAME=$2
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

# run_options_usage BOOTS NAME: the --help lines of those options.
run_options_usage() {
	cat <<USAGE
  --arch A            x86_64 (default), arm64, i386 or arm
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

# boot_interleaved ARCH BOOTS "VARIANTS" OUT NAME GUEST_BOOT_OPTION...:
# the one boot loop of the harness. Boot every kernel of build_guests
# BOOTS times, interleaved (reference, regressed, fixed, reference, ...),
# so that drift of the host hits every kernel alike, with guest-boot.sh's
# options (--job ...); console logs in OUT/logs/ARCH-KERNEL-BOOT.log, or
# ARCH-TOPOLOGY-KERNEL-BOOT.log when the options begin with --topology
# TOPOLOGY (console_log names them). A boot that fails (splat, panic,
# hang) leaves its reason in LOG.boot-error (boot_failed reads it) and
# does not stop the others.
boot_interleaved() {
	local arch=$1 boots=$2 variants=$3 out=$4 name=$5 topology="" b v console
	shift 5
	[ "${1:-}" != --topology ] || topology=$2
	for b in $(seq "$boots"); do
		for v in $variants; do
			log "$name boot $b/$boots: $arch${topology:+ $topology} $v"
			console=$(console_log "$out" "$arch" "$topology" "$v" "$b")
			"$SCRIPTS_DIR/guest-boot.sh" "$@" "$arch" "${GUEST_IMAGE[$arch-$v]}" \
				"$BUILD_DIR/guest/$arch/initramfs.cpio.gz" "$console" 2>"$console.boot-error" ||
				log "boot failed: $(tail -n 1 "$console.boot-error")"
		done
	done
}

# boots_all_finished OUT: every boot under OUT/logs finished; else its
# errors, one line each, and false (for the tools whose table is data).
boots_all_finished() {
	local f failed=0 error
	for f in "$1"/logs/*.log; do
		if error=$(boot_failed "$f"); then
			echo "$error (boot ${f#"$1"/logs/})" >&2
			failed=$((failed + 1))
		fi
	done
	[ "$failed" -eq 0 ] || die "$failed boot(s) failed: their figures are missing from the table"
}

# console_log OUT ARCH TOPOLOGY KERNEL BOOT: the console log of that boot
# of boot_interleaved (TOPOLOGY empty: the default, left out of the name).
console_log() {
	echo "$1/logs/$2${3:+-$3}-$4-$5.log"
}

# boot_failed LOG: guest-boot.sh failed that boot (splat, panic, hang, a
# job that must pass and did not); prints its error line.
boot_failed() {
	[ -s "$1.boot-error" ] && grep -m1 '^error: ' "$1.boot-error"
}

# tap_rows ARCH KERNEL BOOT LOG: one CSV row (ARCH,KERNEL,BOOT,test,result)
# per TAP result of a guest's console log; a boot without a plan, or
# with fewer results than planned, is a fail.
tap_rows() {
	tr -d '\r' <"$4" | awk -v pre="$1,$2,$3" '
		/^1\.\.[0-9]+/ { plan = substr($1, 4) + 0; seen_plan = 1 }
		/^(not )?ok [0-9]+ / {
			line = $0
			result = ($1 == "not") ? "fail" : "pass"
			if (line ~ /# SKIP/) result = "skip"
			sub(/^(not )?ok [0-9]+ /, "", line)
			sub(/ #.*/, "", line)
			gsub(/,/, ";", line)
			printf "%s,%s,%s\n", pre, line, result
			done++
		}
		END {
			if (!seen_plan) printf "%s,no TAP plan,fail\n", pre
			else if (done < plan) printf "%s,%d of %d results,fail\n", pre, done, plan
		}'
}

# tap_boot_rows ARCH KERNEL BOOT LOG: tap_rows, and a fail row for a boot
# that guest-boot.sh failed (splat, panic, hang: LOG.boot-error).
tap_boot_rows() {
	local error
	tap_rows "$@"
	if error=$(boot_failed "$4"); then
		echo "$1,$2,$3,boot: $(tr , ';' <<<"$error"),fail"
	fi
}

# run_tap_job NAME JOB "$@": the whole of a tool whose guests run one TAP
# job (phantom-attach.sh, pelt-bounds.sh): parse the run options, build,
# boot every kernel R times interleaved, write DIR/NAME.csv
# (arch,kernel,boot,test,result) and DIR/table.txt; returns 1 when any
# test failed or a boot gave no verdict.
run_tap_job() {
	local name=$1 job=$2 arch boots variants out v b rc=0
	shift 2
	parse_run_options 3 "$name" "$@"
	arch=$RUN_ARCH boots=$RUN_BOOTS variants=$RUN_VARIANTS out=$RUN_OUT
	[ ! -e "$out/$name.csv" ] || usage_error "$out already holds results"
	mkdir -p "$out/logs"
	build_guests "$arch" "" "$variants"
	boot_interleaved "$arch" "$boots" "$variants" "$out" "$name" --job "$job"
	echo "arch,kernel,boot,test,result" >"$out/$name.csv"
	for b in $(seq "$boots"); do
		for v in $variants; do
			tap_boot_rows "$arch" "$v" "$b" "$out/logs/$arch-$v-$b.log" >>"$out/$name.csv"
		done
	done
	tap_table "$out/$name.csv" | tee "$out/table.txt"
	if grep -q ',fail$' "$out/$name.csv"; then
		grep ',fail$' "$out/$name.csv" | sed "s/^/$name fail or no verdict: /" >&2
		rc=1
	fi
	return "$rc"
}

# tap_table CSV: per kernel and test, how many boots passed, failed and
# skipped (markdown), from rows of tap_boot_rows under a header line.
tap_table() {
	awk -F, 'NR > 1 { k = $2 " | " $4; if (!(k in n)) order[++m] = k; n[k]++; r[k, $5]++ }
		END {
			print "| kernel | test | boots | pass | fail | skip |"
			print "|---|---|---|---|---|---|"
			for (i = 1; i <= m; i++)
				printf "| %s | %d | %d | %d | %d |\n", order[i], n[order[i]],
					r[order[i], "pass"], r[order[i], "fail"], r[order[i], "skip"]
		}' "$1"
}

# margin NAME: a margin of the selftest (#define NAME in its source), so
# the harness judges by the same numbers as the test.
SELFTEST_SOURCE=$PROJECT_DIR/selftests/sched/fork_placement_test.c
margin() {
	awk -v name="$1" '$1 == "#define" && $2 == name { print $3; found = 1 }
		END { exit !found }' "$SELFTEST_SOURCE" ||
		die "no #define $1 in $SELFTEST_SOURCE"
}
