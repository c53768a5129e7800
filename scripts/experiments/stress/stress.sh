#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Safety of the PELT change: boot debug builds of the kernels (lockdep,
# KASAN, DEBUG_LIST, DEBUG_OBJECTS, SCHED_DEBUG warnings) and run
# scripts/experiments/stress/guest/pelt_stress.c in each: forks, exits,
# zombie leaders, cgroup, autogroup and class changes, CPU hotplug, wakeup
# migrations and tasks killed in a cgroup out of CFS bandwidth quota, at
# once, then no average may be left on any cfs_rq or task group.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/../..
. "$(dirname "${BASH_SOURCE[0]}")/../../lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [options]

Builds the kernels with scripts/config/debug.config (lockdep, KASAN, CFS
bandwidth control, ...) and boots each R times, interleaved, running
pelt_stress --hotplug for M minutes. A boot fails on a kernel splat,
panic or hang, and on a failed TAP test: stress (every activity
happened), no_underflow (no negative or wrapped average), no_leak
(every cfs_rq back to idle, every tg_load_avg the sum of its cfs_rqs').
Writes DIR/stress.csv, DIR/counts.csv, DIR/table.txt and each kernel's
.config. Exits 1 when anything failed.

$(experiment_usage)
  --minutes M         stress time per boot (default 10)
  --seconds S         the same in seconds (short runs, make check)
  --no-debug          the regular builds instead of the debug ones
  --trace-detach      count (ftrace) a dying task's detach_entity_load_avg()
                      calls: from its last dequeue, or from elsewhere
  --no-monitor        do not read the sched debug file while the stress
                      runs (no_underflow skips), for a tree whose debug.c
                      calls avg_vruntime() unlocked (kernel-tree.sh fixes it)
USAGE
}

EXP_NAME=stress EXP_BOOTS=1
SECONDS_PER_BOOT=600 DEBUG=true MONITOR="" TRACE=""

exp_option() {
	EXP_SHIFT=1
	case "$1" in
	--minutes) positive_option "$1" "${2:-}"; SECONDS_PER_BOOT=$(($2 * 60)); EXP_SHIFT=2 ;;
	--seconds) positive_option "$1" "${2:-}"; SECONDS_PER_BOOT=$2; EXP_SHIFT=2 ;;
	--no-debug) DEBUG=false ;;
	--no-monitor) MONITOR=" --no-monitor" ;;
	--trace-detach) TRACE="--trace-detach " ;;
	*) return 1 ;;
	esac
}

exp_check() {
	EXP_CONFIGS=()
	! $DEBUG || EXP_CONFIGS=(--extra-config "$SCRIPTS_DIR/config/debug.config")
}

# A debug kernel boots in under a minute here; the leak check takes at
# most pelt_stress's --idle-timeout (30 s) and a reading per group.
exp_boot_args() {
	printf '%s\n' --job stress --args "$TRACE--seconds $SECONDS_PER_BOOT$MONITOR" \
		--timeout $((SECONDS_PER_BOOT + 300))
}

# exp_boot ARCH TOPOLOGY DIR: what each kernel was built with (the proof
# of which checks were on), then the boots.
exp_boot() {
	local v
	for v in $EXP_VARIANTS; do
		cp "${GUEST_IMAGE[$1-$v]%/"$(arch_field "$1" ARCH_IMAGE)"}/.config" "$3/config-$1-$v"
	done
	log "$SECONDS_PER_BOOT s of stress per boot$($DEBUG && echo ', debug builds')"
	experiment_boot "$@"
}

exp_collect() {
	local out=$1 arch=$2 v b log
	echo "arch,kernel,boot,test,result" >"$out/stress.csv"
	: >"$out/counts.csv"
	for b in $(seq "$EXP_BOOTS"); do
		for v in $EXP_VARIANTS; do
			log=$(console_log "$out" "$arch" "" "$v" "$b")
			tap_boot_rows "$arch" "$v" "$b" "$log" >>"$out/stress.csv"
			stress_counts "$arch,$v,$b,$SECONDS_PER_BOOT" "$log" >>"$out/counts.csv"
		done
	done
	{
		tap_table "$out/stress.csv"
		echo
		counts_table "$out/counts.csv"
	} | tee "$out/table.txt"
	if grep -q ',fail$' "$out/stress.csv"; then
		grep ',fail$' "$out/stress.csv" | sed 's/^/stress failed: /' >&2
		return 1
	fi
}

main() { experiment_main "$@"; }

# stress_counts PREFIX LOG: pelt_stress's "# done: k=v ..." line, and
# the guest job's "# detach trace: k=v ..." (--trace-detach), as CSV rows
# PREFIX,k,v.
stress_counts() {
	tr -d '\r' <"$2" | console_awk -v pre="$1" '/^# done: / { from = 3 } /^# detach trace: / { from = 4 }
		from { for (i = from; i <= NF; i++) print pre "," kv_key($i) "," kv_val($i) }
		{ from = 0 }'
}

# counts_table CSV: per kernel, the sum over its boots of each count.
counts_table() {
	awk -F, '{ k = $1 " " $2; if (!(k in seen)) { seen[k] = 1; ks[++nk] = k }
		if (!($5 in seenc)) { seenc[$5] = 1; cs[++nc] = $5 }
		if (!((k, $3) in boot)) { boot[k, $3] = 1; secs[k] += $4; boots[k]++ }
		sum[k, $5] += $6 }
		END {
			if (!nk) { print "(no counts: no boot finished the stress)"; exit }
			printf "| kernel | boots | seconds |"
			for (j = 1; j <= nc; j++) printf " %s |", cs[j]
			printf "\n|---|---|---|"
			for (j = 1; j <= nc; j++) printf "---|"
			print ""
			for (i = 1; i <= nk; i++) {
				printf "| %s | %d | %d |", ks[i], boots[ks[i]], secs[ks[i]]
				for (j = 1; j <= nc; j++) printf " %d |", sum[ks[i], cs[j]]
				print ""
			}
		}' "$1"
}

# Sourcing (for tests) defines the functions without running main.
[ "${BASH_SOURCE[0]}" != "$0" ] || run_main "$@"
