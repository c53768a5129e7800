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
  --topologies "T.."  x86_64 topologies (default "cores smt"; arm64: cores)
  --args "ARGS"       run fork_placement_test directly with ARGS instead of
                      through the kselftest runner
  --append "PARAMS"   more kernel parameters for every guest
  --icount            run guests with QEMU's -icount (see guest-boot.sh
                      --help): for hosts too slow to show the defect
  --extra-config F    build every kernel with one more config fragment
                      (e.g. scripts/config/no-autogroup.config)
  --out DIR           results directory (default results/<timestamp>)

KERNEL_SRC=/path/to/linux uses your kernel git tree (see kernel-tree.sh).
Writes DIR/runs.csv (every run), DIR/verdicts.csv (every boot),
DIR/results.csv and DIR/table.txt (the table) and every console log under
DIR/logs/.

Exits 1, naming each row and boot, when the selftest fails on a reference
or fixed kernel or passes on a regressed one, when a boot gives no
verdict (skip, bail-out, timeout, panic, hang) or the kernel prints a
splat (warning, BUG, lockdep, KASAN...), or when the regressed kernel
does not separate from the reference at all on this host (see
scripts/report.sh --help). Runs with --args "-s ..." give figures only.
USAGE
}

main() {
	local arches=$DEFAULT_ARCHES boots=3 variants=$VARIANTS topologies="cores smt"
	local args="" append="" icount=() out="" extra=() arch v b t topo_list log verdict
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
		--out) out=${2:-}; shift 2 || usage_error "--out needs a value" ;;
		--extra-config) extra=(--extra-config "${2:-}"); shift 2 || usage_error "--extra-config needs a file" ;;
		*) usage_error "unknown argument $1" ;;
		esac
	done
	positive_option --boots "$boots"
	for arch in $arches; do check_arch "$arch"; done
	for v in $variants; do check_variant "$v"; done
	for t in $topologies; do
		case "$t" in cores | smt) ;; *) usage_error "unknown topology '$t'" ;; esac
	done
	[ -n "$out" ] || out=$PROJECT_DIR/results/$(date +%Y%m%d-%H%M%S)
	[ ! -e "$out/runs.csv" ] || usage_error "$out already holds results"
	mkdir -p "$out/logs"

	for arch in $arches; do
		build_guests "$arch" "" "$variants" "${extra[@]}"
	done

	echo "arch,topology,kernel,boot,setup,round,loops_per_s,idle_pct,remote_pct" >"$out/runs.csv"
	echo "arch,topology,kernel,boot,placement,idle,throughput,test" >"$out/verdicts.csv"
	for arch in $arches; do
		topo_list=$topologies
		[ "$arch" = x86_64 ] || topo_list=cores
		for t in $topo_list; do
			boot_interleaved "$arch" "$boots" "$variants" "$out" verify --topology "$t" \
				${args:+--args "$args"} ${append:+--append "$append"} "${icount[@]}"
			for b in $(seq "$boots"); do
				for v in $variants; do
					log=$(console_log "$out" "$arch" "$t" "$v" "$b")
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
	if ! "$SCRIPTS_DIR/report.sh" --check "$out" >"$out/problems.txt"; then
		echo >&2
		cat "$out/problems.txt" >&2
		die "verdicts wrong or missing in $out (listed above and in $out/problems.txt)"
	fi
	log "every verdict as expected; results in $out"
}

run_main "$@"
