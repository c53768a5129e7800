#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The whole loop: build the reference, regressed and fixed kernels for
# each arch, boot each under QEMU R times, interleaved, run the selftest,
# print the report's table and fail when a verdict is wrong or missing.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [options]

$(experiment_usage)
  --oversubscribe     let a guest have more vCPUs than the host has cores
                      (multi-threaded TCG; the host's scheduler then stops
                      vCPUs at random, see Documentation/harness.md); the
                      selftest skips there, its CPUs not computing at once
                      (--args "-s ..." still gives figures)
  --args "ARGS"       run fork_placement_test directly with ARGS instead of
                      through the kselftest runner
  --host-load cpu     a busy loop on the host for the whole run, beside the
                      guests (none: the default)
cores and smt have 2 vCPUs; coresN, smtCxT, numaNxC and asymBxL are the
machine shapes ($(topology_arches_text)). guest_load=hog or
guest_load=build in --append runs a competing load in the guest beside
the test (scripts/guest/init); --icount is for hosts too slow to show
the defect; --extra-config scripts/config/no-autogroup.config builds
without autogroup. --table DIR reads DIR/logs, whose names give the
arches, topologies, kernels and boots.

KERNEL_SRC=/path/to/linux uses your kernel git tree (see kernel-tree.sh).
Writes DIR/runs.csv (every run), DIR/verdicts.csv (every boot),
DIR/results.csv and DIR/table.txt (the table) and every console log under
DIR/logs/.

Exits 1, naming each row and boot, when the selftest fails on a reference
or fixed kernel, when a boot gives no verdict (skip, bail-out, timeout,
panic, hang) or the kernel prints a splat (warning, BUG, lockdep,
KASAN...). Exits 3, with one "cannot show it here" line per arch and
topology, when nothing of that happened but the regressed kernel passed
on some boot: this host cannot show the defect, so a pass proves nothing
(scripts/report.sh --help). Runs with --args "-s ..." give figures only.
USAGE
}

EXP_NAME=verify EXP_BOOTS=3 EXP_ARCH=$DEFAULT_ARCHES EXP_TOPOLOGY="cores smt"
ARGS="" OVERSUBSCRIBE=() HOST_LOAD=none

exp_option() {
	EXP_SHIFT=2
	case "$1" in
	--args | --host-load) [ $# -ge 2 ] || usage_error "$1 needs a value" ;;
	esac
	case "$1" in
	--args) ARGS=$2 ;;
	--host-load)
		case "$2" in none | cpu) HOST_LOAD=$2 ;; *) usage_error "--host-load is none or cpu" ;; esac
		;;
	--oversubscribe) OVERSUBSCRIBE=(--oversubscribe); EXP_SHIFT=1 ;;
	*) return 1 ;;
	esac
}

# verify.sh reads the common options as every tool does (scripts/lib/
# experiment.sh), but keeps its own flow: every arch and topology in one
# logs/ directory, judged by scripts/report.sh.
main() {
	local out arch t
	experiment_defaults
	experiment_parse "$@"
	if [ -n "$EXP_TABLE" ]; then
		[ -d "$EXP_TABLE/logs" ] || usage_error "--table needs a results directory with logs/"
		table_again "$EXP_TABLE"
		return
	fi
	experiment_check
	out=${EXP_OUT:-$PROJECT_DIR/results/$EXP_NAME-$(date +%Y%m%d-%H%M%S)}
	[ ! -e "$out/runs.csv" ] || usage_error "$out already holds results"
	mkdir -p "$out/logs"

	for arch in $EXP_ARCHES; do
		build_guests "$arch" "" "$EXP_VARIANTS" "${EXP_EXTRA[@]}"
	done

	if [ "$HOST_LOAD" = cpu ]; then
		trap stop_hog EXIT
		start_hog
	fi
	for arch in $EXP_ARCHES; do
		for t in $EXP_TOPOLOGIES; do
			! topology_fits "$arch" "$t" ||
				boot_interleaved "$arch" "$EXP_BOOTS" "$EXP_VARIANTS" "$out" verify --topology "$t" \
					${ARGS:+--args "$ARGS"} ${EXP_APPEND:+--append "$EXP_APPEND"} "${EXP_ICOUNT[@]}" \
					"${OVERSUBSCRIBE[@]}"
		done
	done
	stop_hog
	judge "$out" "$EXP_ARCHES" "$EXP_TOPOLOGIES" "$EXP_VARIANTS" "$EXP_BOOTS"
}

# table_again DIR: judge DIR again, its arches, topologies, kernels and
# boots taken from the names of its console logs,
# ARCH-TOPOLOGY-KERNEL-BOOT.log (a kernel name may hold "-").
table_again() {
	local dir=$1 f name arch rest t v b arches="" topologies="" variants="" boots=0
	for f in "$dir"/logs/*.log; do
		name=$(basename "$f" .log)
		arch=${name%%-*} rest=${name#*-}
		t=${rest%%-*} rest=${rest#*-}
		b=${rest##*-} v=${rest%-*}
		[[ "$b" =~ ^[0-9]+$ ]] || continue
		case " $arches " in *" $arch "*) ;; *) arches+=" $arch" ;; esac
		case " $topologies " in *" $t "*) ;; *) topologies+=" $t" ;; esac
		case " $variants " in *" $v "*) ;; *) variants+=" $v" ;; esac
		[ "$b" -le "$boots" ] || boots=$b
	done
	[ "$boots" -gt 0 ] || die "no console logs ARCH-TOPOLOGY-KERNEL-BOOT.log in $dir/logs"
	# The order of make verify's table: arches as ARCHES lists them,
	# kernels as VARIANTS does, then the rest.
	arches=$(for arch in $ARCHES; do case " $arches " in *" $arch "*) echo "$arch" ;; esac; done)
	topologies=$(tr ' ' '\n' <<<"$topologies" | sort -V)
	variants=$(for v in $VARIANTS; do case " $variants " in *" $v "*) echo "$v" ;; esac; done
		tr ' ' '\n' <<<"$variants" | grep -vxF -e "" -e reference -e regressed -e fixed || true)
	judge "$dir" "$arches" "$topologies" "$variants" "$boots"
}

# judge OUT ARCHES TOPOLOGIES VARIANTS BOOTS: read every console log of
# OUT/logs into OUT/runs.csv and OUT/verdicts.csv, then the table and the
# check (verify.sh's exit status).
judge() {
	local out=$1 arches=$2 topologies=$3 variants=$4 boots=$5 arch t b v log verdict rc=0
	echo "arch,topology,kernel,boot,setup,round,loops_per_s,idle_pct,remote_pct" >"$out/runs.csv"
	echo "arch,topology,kernel,boot,placement,idle,throughput,test" >"$out/verdicts.csv"
	for arch in $arches; do
		for t in $topologies; do
			topology_fits "$arch" "$t" || continue
			for b in $(seq "$boots"); do
				for v in $variants; do
					log=$(console_log "$out" "$arch" "$t" "$v" "$b")
					[ -e "$log" ] || continue
					"$SCRIPTS_DIR/parse-console.sh" --runs "$log" "$arch" "$t" "$v" "$b" >>"$out/runs.csv"
					verdict=$("$SCRIPTS_DIR/parse-console.sh" --verdict "$log" "$arch" "$t" "$v" "$b")
					# A guest that failed but whose log reads like a verdict
					# (QEMU died after the test, say) has none.
					if boot_failed "$log" >/dev/null; then
						case "${verdict##*,}" in ok | fail | figures) verdict=${verdict%,*},error ;; esac
					fi
					echo "$verdict" >>"$out/verdicts.csv"
				done
			done
		done
	done
	"$SCRIPTS_DIR/report.sh" --csv "$out" >"$out/results.csv"
	"$SCRIPTS_DIR/report.sh" "$out" | tee "$out/table.txt"
	"$SCRIPTS_DIR/report.sh" --check "$out" >"$out/problems.txt" || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo >&2
		cat "$out/problems.txt" >&2
	fi
	case "$rc" in
	0) ;;
	3)
		log "this host cannot show the defect: no verdict on the fixes (above; $out/problems.txt)"
		exit 3
		;;
	*) die "verdicts wrong or missing in $out (listed above and in $out/problems.txt)" ;;
	esac
	log "every verdict as expected; results in $out"
}

run_main "$@"
