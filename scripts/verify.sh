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

  --arch "A..."       arches to run (default: "$DEFAULT_ARCHES"; any of "$ARCHES")
  --boots R           boots per kernel and topology (default 3)
  --variants "V..."   kernels (default: "$VARIANTS")
  --topologies "T.."  guest topologies (default "cores smt"), each booted on
                      the arches that have it: cores and smt have 2 vCPUs;
                      coresN, smtCxT, numaNxC and asymBxL are the machine
                      shapes ($(topology_arches_text); see
                      guest-boot.sh --help)
  --oversubscribe     let a guest have more vCPUs than the host has cores
                      (multi-threaded TCG; the host's scheduler then stops
                      vCPUs at random, see Documentation/harness.md); the
                      selftest skips there, its CPUs not computing at once
                      (--args "-s ..." still gives figures)
  --args "ARGS"       run fork_placement_test directly with ARGS instead of
                      through the kselftest runner
  --append "PARAMS"   more kernel parameters for every guest; guest_load=hog
                      or guest_load=build runs a competing load in the
                      guest beside the test (scripts/guest/init)
  --host-load cpu     a busy loop on the host for the whole run, beside the
                      guests (none: the default)
  --icount            run guests with QEMU's -icount (see guest-boot.sh
                      --help): for hosts too slow to show the defect
  --extra-config F    build every kernel with one more config fragment
                      (e.g. scripts/config/no-autogroup.config)
  --out DIR           results directory (default results/<timestamp>)
  --table DIR         boot nothing: read the console logs of an earlier run
                      in DIR/logs again (with the parser and rules as they
                      are now), rewrite its CSVs and table, and judge it

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

main() {
	local arches=$DEFAULT_ARCHES boots=3 variants=$VARIANTS topologies="cores smt"
	local args="" append="" icount=() out="" extra=() arch v t
	local oversubscribe=() host_load=none
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--arch) arches=${2:-}; shift 2 || usage_error "--arch needs a value" ;;
		--boots) boots=${2:-}; shift 2 || usage_error "--boots needs a value" ;;
		--variants) variants=${2:-}; shift 2 || usage_error "--variants needs a value" ;;
		--topologies) topologies=${2:-}; shift 2 || usage_error "--topologies needs a value" ;;
		--args) args=${2:-}; shift 2 || usage_error "--args needs a value" ;;
		--append) append=${2:-}; shift 2 || usage_error "--append needs a value" ;;
		--icount) icount=(--icount); shift ;;
		--oversubscribe) oversubscribe=(--oversubscribe); shift ;;
		--host-load) host_load=${2:-}; shift 2 || usage_error "--host-load needs a value" ;;
		--out) out=${2:-}; shift 2 || usage_error "--out needs a value" ;;
		--extra-config) extra=(--extra-config "${2:-}"); shift 2 || usage_error "--extra-config needs a file" ;;
		--table)
			[ -d "${2:-}/logs" ] || usage_error "--table needs a results directory with logs/"
			table_again "$2"
			return
			;;
		*) usage_error "unknown argument $1" ;;
		esac
	done
	positive_option --boots "$boots"
	case "$host_load" in none | cpu) ;; *) usage_error "--host-load is none or cpu" ;; esac
	for arch in $arches; do check_arch "$arch"; done
	for v in $variants; do check_variant "$v"; done
	for t in $topologies; do
		topology_shape "$t" >/dev/null ||
			usage_error "unknown topology '$t': cores, smt, coresN, smtCxT, numaNxC or asymBxL"
	done
	[ -n "$out" ] || out=$PROJECT_DIR/results/$(date +%Y%m%d-%H%M%S)
	[ ! -e "$out/runs.csv" ] || usage_error "$out already holds results"
	mkdir -p "$out/logs"

	for arch in $arches; do
		build_guests "$arch" "" "$variants" "${extra[@]}"
	done

	if [ "$host_load" = cpu ]; then
		trap stop_hog EXIT
		start_hog
	fi
	for arch in $arches; do
		for t in $topologies; do
			! topology_fits "$arch" "$t" ||
				boot_interleaved "$arch" "$boots" "$variants" "$out" verify --topology "$t" \
					${args:+--args "$args"} ${append:+--append "$append"} "${icount[@]}" \
					"${oversubscribe[@]}"
		done
	done
	stop_hog
	judge "$out" "$arches" "$topologies" "$variants" "$boots"
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
