#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The root-cause evidence: boot the +diag kernels (each variant plus
# scripts/experiments/diagnose/diagnostics-fork-placement.patch), run each
# setup of the selftest alone and print what the WF_FORK path saw and what
# dead tasks left on their cfs_rq.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/../..
. "$(dirname "${BASH_SOURCE[0]}")/../../lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [options]

$(experiment_usage)

Per kernel and setup, summed over boots: fork balances, how often the
child stayed on the parent's CPU, the local group's type, its mean
group_util / group_runnable / sum_nr_running as
sched_balance_find_dst_group() saw them, the share of forks that saw
group_util above 875 (the has_spare limit with imbalance_pct 117), and
per dead task its mean util_avg and its mean residue, util_sum - util_avg
* divider in util_avg units: what the lockless remove_entity_load_avg()
leaves on the cfs_rq (the fixed kernel takes it off at the last dequeue).
USAGE
}

EXP_NAME=diag EXP_BOOTS=2 EXP_SUFFIX=+diag
exp_option() { return 1; }
exp_boot_args() { printf '%s\n' --job diag --job-must-pass; }
exp_collect() {
	diag_table "$1" | tee "$1/table.txt"
}
main() { experiment_main "$@"; }

# diag_table DIR: the counters and the selftest's figures of every log.
diag_table() {
	local log kernel
	for log in "$1"/logs/*.log; do
		read -r _ _ kernel _ < <(console_log_fields "$log")
		tr -d '\r' <"$log" | console_awk -v kernel="$kernel" '
			/ run setup=/ {
				s = kv("setup")
				idle[s] += kv("idle_pct")
				remote[s] += kv("remote_pct")
				runs[s]++
			}
			/^@@@ diag / {
				printf "%s %s", kernel, substr($3, 7)
				printf " runs=%d idle_pct_sum=%s remote_pct_sum=%s", runs[substr($3, 7)],
					idle[substr($3, 7)], remote[substr($3, 7)]
				for (i = 4; i <= NF; i++) printf " %s", $i
				printf "\n"
			}'
	done | console_awk '
		{
			key = $1 " " $2
			if (!(key in seen)) { seen[key] = 1; order[++n] = key }
			for (i = 3; i <= NF; i++) c[key, kv_key($i)] += kv_val($i)
		}
		function pct(key, name) { return c[key, "forks"] ? 100 * c[key, name] / c[key, "forks"] : 0 }
		function per(key, name, by) { return c[key, by] ? c[key, name] / c[key, by] : 0 }
		END {
			printf "%-10s %-8s %8s %7s %7s %7s %7s %6s %6s %5s %7s %6s %8s %10s %7s %7s\n",
				"kernel", "setup", "forks", "local%", "spare%", "busy%", "ovld%",
				"util", "runbl", "nr", "util>875", "dead", "dead_ut", "resid/dead", "remote%", "idle%"
			for (r = 1; r <= n; r++) {
				k = order[r]
				split(k, kk, " ")
				printf "%-10s %-8s %8d %7.1f %7.1f %7.1f %7.1f %6.0f %6.0f %5.2f %7.1f%% %6d %8.1f %10.2f %7.2f %7.2f\n",
					kk[1], kk[2], c[k, "forks"], pct(k, "stay_local"),
					pct(k, "local_has_spare"), pct(k, "local_fully_busy"),
					pct(k, "local_overloaded"), per(k, "local_util_sum", "forks"),
					per(k, "local_runnable_sum", "forks"),
					per(k, "local_nr_running_sum", "forks"), pct(k, "local_util_over_875"),
					c[k, "dead"], per(k, "dead_util_avg_sum", "dead"),
					per(k, "dead_residue_milli_sum", "dead") / 1000,
					per(k, "remote_pct_sum", "runs"), per(k, "idle_pct_sum", "runs")
			}
		}'
}

run_main "$@"
