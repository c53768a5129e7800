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

Build the reference, regressed and fixed kernels, boot each R times per
arch and topology, interleaved, run the selftest, print the table and
judge it. Writes DIR/runs.csv, DIR/verdicts.csv, DIR/results.csv,
DIR/table.txt, DIR/problems.txt and the console logs in DIR/logs/.
KERNEL_SRC=/path/to/linux builds from your kernel git tree's HEAD
(kernel-tree.sh --help). Exits 1 when a reference or fixed kernel fails,
a boot gives no verdict or the kernel a splat; 3 when this host cannot
judge (the regressed kernel passed, too few cores, or a boot whose
selftest's CPUs did not compute at once on all of its three tries);
else 0. Documentation/harness.md says more.

$(experiment_usage)
  --oversubscribe     let a guest have more vCPUs than the host has cores
                      (the selftest then skips: its CPUs do not compute at once)
  --args "ARGS"       run fork_placement_test with ARGS, not through the runner
  --host-load L       cpu: a busy loop on the host beside the guests; slow-vcpu:
                      each guest's second vCPU held to half a host CPU
                      (default none)
USAGE
}

EXP_NAME=verify EXP_BOOTS=3 EXP_ARCH=$DEFAULT_ARCHES EXP_TOPOLOGY="cores smt" EXP_SHARED_DIR=yes
ARGS="" HOST_LOAD=none

exp_option() {
	EXP_SHIFT=2
	case "$1" in
	--args | --host-load) [ $# -ge 2 ] || usage_error "$1 needs a value" ;;
	esac
	case "$1" in
	--args) ARGS=$2 ;;
	--host-load)
		case "$2" in
		none | cpu | slow-vcpu) HOST_LOAD=$2 ;;
		*) usage_error "--host-load is none, cpu or slow-vcpu" ;;
		esac
		;;
	--oversubscribe) EXP_OVERSUBSCRIBE=true; EXP_SHIFT=1 ;;
	*) return 1 ;;
	esac
}

exp_boot_args() {
	[ -z "$ARGS" ] || printf '%s\n' --args "$ARGS"
}

# exp_boot ARCH TOPOLOGY DIR: the boots, beside a busy loop on the host
# with --host-load cpu, a vCPU held to half a host CPU with slow-vcpu.
exp_boot() {
	case $HOST_LOAD in
	cpu) trap stop_hog EXIT; start_hog ;;
	slow-vcpu) trap stop_slow_vcpu EXIT; start_slow_vcpu ;;
	esac
	experiment_boot "$@"
	stop_hog
	stop_slow_vcpu
}

# exp_boot_verdict LOG: a boot whose selftest passed, failed or gave
# figures is judged; one that skipped because its CPUs did not compute
# at once (a host busy beside the guest) is one this host could not
# judge; any other gave no verdict.
exp_boot_verdict() {
	local verdict share
	verdict=$("$SCRIPTS_DIR/parse-console.sh" --verdict "$1" - - - -)
	case "${verdict##*,}" in
	ok | fail | figures) echo judged ;;
	busy)
		# Before the plan the skip carries the figure; after the rounds
		# the line before it does.
		share=$(grep -a -m1 -o 'do not compute at once ([0-9.]*' "$1" || true)
		if [ -n "$share" ]; then
			echo "cannot the test's CPUs did not compute at once (${share##*(})"
		else
			share=$(grep -a -o 'computed [0-9.]* of what each did alone, after' "$1" || true)
			share=${share%% of*}
			echo "cannot the test's CPUs did not compute at once after the rounds (${share##* })"
		fi
		;;
	*) echo "left no verdict (${verdict##*,})" ;;
	esac
}

# exp_table_args DIR: the options of a run recorded without run.args,
# from the names of its console logs, ARCH-TOPOLOGY-KERNEL-BOOT.log: its
# arches as ARCHES orders them, its kernels as VARIANTS does and then
# the others, its topologies, its largest boot.
exp_table_args() {
	local f fields arch t v b arches="" topologies="" variants="" boots=0
	for f in "$1"/logs/*.log; do
		fields=$(console_log_fields "$f") || continue
		read -r arch t v b <<<"$fields"
		[ "$t" != - ] || continue
		case " $arches " in *" $arch "*) ;; *) arches+=" $arch" ;; esac
		case " $topologies " in *" $t "*) ;; *) topologies+=" $t" ;; esac
		case " $variants " in *" $v "*) ;; *) variants+=" $v" ;; esac
		[ "$b" -le "$boots" ] || boots=$b
	done
	[ "$boots" -gt 0 ] || die "no console logs ARCH-TOPOLOGY-KERNEL-BOOT.log in $1/logs"
	arches=$(for arch in $ARCHES; do case " $arches " in *" $arch "*) echo "$arch" ;; esac; done)
	topologies=$(tr ' ' '\n' <<<"$topologies" | sort -V)
	variants=$(for v in $VARIANTS; do case " $variants " in *" $v "*) echo "$v" ;; esac; done
		for v in $variants; do case " $VARIANTS " in *" $v "*) ;; *) echo "$v" ;; esac; done)
	printf '%s\n' --arch "${arches//$'\n'/ }" --topologies "${topologies//$'\n'/ }" \
		--variants "${variants//$'\n'/ }" --boots "$boots"
}

# exp_collect DIR: read every console log of DIR/logs into DIR/runs.csv
# and DIR/verdicts.csv, then the table and the check (scripts/report.sh):
# 0, 1 (a verdict wrong or missing) or 3 (this host cannot show the
# defect).
exp_collect() {
	local out=$1 arch t b v log verdict rc=0
	echo "arch,topology,kernel,boot,setup,round,loops_per_s,idle_pct,remote_pct" >"$out/runs.csv"
	echo "arch,topology,kernel,boot,placement,idle,throughput,test" >"$out/verdicts.csv"
	for arch in $EXP_ARCHES; do
		for t in $EXP_TOPOLOGIES; do
			topology_fits "$arch" "$t" || continue
			for b in $(seq "$EXP_BOOTS"); do
				for v in $EXP_VARIANTS; do
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
	return "$rc"
}

# exp_done RC: the run's last line, for its verdict RC.
exp_done() {
	case "$1" in
	0) log "every verdict as expected; results in $EXP_OUT" ;;
	3) log "this host cannot judge: no verdict on the fixes here (above; $EXP_OUT/problems.txt)" ;;
	*) printf 'error: %s\n' "verdicts wrong or missing in $EXP_OUT (listed above and in $EXP_OUT/problems.txt)" >&2 ;;
	esac
}

main() { experiment_main "$@"; }

run_main "$@"
