#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Safety of the PELT change: boot debug builds of the kernels (lockdep,
# KASAN, DEBUG_LIST, DEBUG_OBJECTS, SCHED_DEBUG warnings) and run
# scripts/guest/pelt_stress.c in each: forks, exits, zombie leaders,
# cgroup, autogroup and class changes, CPU hotplug, wakeup migrations and
# tasks killed in a cgroup out of CFS bandwidth quota, at once, then no
# average may be left on any cfs_rq or task group.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [options]

Builds the kernels with scripts/config/debug.config (out-ARCH-debug:
lockdep, KASAN, ..., and CFS bandwidth control) and
boots each R times, interleaved, running pelt_stress --hotplug for M
minutes. A boot fails on any kernel splat (warning, lockdep, KASAN, BUG,
stall), panic or hang, and on a failed TAP test: stress (every activity
happened), no_underflow (no negative or wrapped average while it ran),
no_leak (every cfs_rq back to idle, every tg_load_avg the sum of its
cfs_rqs' contributions, afterwards). Writes DIR/stress.csv
(arch,kernel,boot,test,result), DIR/counts.csv (what each boot did:
forks, exits, hotplugs, ...), DIR/table.txt, each kernel's .config
(DIR/config-ARCH-KERNEL) and the console logs in DIR/logs/. Exits 1
when anything failed.

$(run_options_usage 1 stress)
  --minutes M         stress time per boot (default 10)
  --seconds S         the same in seconds (short runs, make check)
  --no-debug          the regular builds instead of the debug ones
  --trace-detach      count, with ftrace, the calls of
                      detach_entity_load_avg() made for a dying task:
                      from its last dequeue_entities() (patch 1) or from
                      elsewhere (a task that died throttled); in the
                      counts as dead_in_dequeue_entities, dead_elsewhere
  --no-monitor        no reading of the sched debug file while the
                      stress runs (no_underflow skips). Needed only for
                      kernels built without kernel-tree.sh: trees whose
                      debug.c calls avg_vruntime() unlocked (6.12.117)
                      oops when it is read on busy CPUs; kernel-tree.sh
                      gives every variant upstream's fix
USAGE
}

main() {
	local arch boots variants out v b log seconds=600 debug=true rc=0 timeout monitor="" trace=""
	local build_args=()
	run_defaults 1 stress
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--minutes) positive_option "$1" "${2:-}"; seconds=$(($2 * 60)); shift 2 ;;
		--seconds) positive_option "$1" "${2:-}"; seconds=$2; shift 2 ;;
		--no-debug) debug=false; shift ;;
		--no-monitor) monitor=" --no-monitor"; shift ;;
		--trace-detach) trace="--trace-detach "; shift ;;
		*) run_option "$@" || usage_error "unknown argument $1"; shift 2 ;;
		esac
	done
	run_options_check
	arch=$RUN_ARCH boots=$RUN_BOOTS variants=$RUN_VARIANTS out=$RUN_OUT
	[ ! -e "$out/stress.csv" ] || usage_error "$out already holds results"
	mkdir -p "$out/logs"
	! $debug || build_args=(--extra-config "$SCRIPTS_DIR/config/debug.config")
	build_guests "$arch" "" "$variants" "${build_args[@]}"
	# What each kernel was built with: the proof of which checks were on.
	for v in $variants; do
		cp "${GUEST_IMAGE[$arch-$v]%/"$(arch_field "$arch" ARCH_IMAGE)"}/.config" "$out/config-$arch-$v"
	done
	# A debug kernel boots in under a minute here; the leak check takes
	# at most pelt_stress's --idle-timeout (30 s) and a reading per group.
	timeout=$((seconds + 300))
	log "$seconds s of stress per boot$($debug && echo ', debug builds')"
	boot_interleaved "$arch" "$boots" "$variants" "$out" stress \
		--job stress --args "$trace--seconds $seconds$monitor" --timeout "$timeout"
	echo "arch,kernel,boot,test,result" >"$out/stress.csv"
	: >"$out/counts.csv"
	for b in $(seq "$boots"); do
		for v in $variants; do
			log=$out/logs/$arch-$v-$b.log
			tap_boot_rows "$arch" "$v" "$b" "$log" >>"$out/stress.csv"
			stress_counts "$arch,$v,$b,$seconds" "$log" >>"$out/counts.csv"
		done
	done
	{
		tap_table "$out/stress.csv"
		echo
		counts_table "$out/counts.csv"
	} | tee "$out/table.txt"
	if grep -q ',fail$' "$out/stress.csv"; then
		grep ',fail$' "$out/stress.csv" | sed 's/^/stress failed: /' >&2
		rc=1
	fi
	return "$rc"
}

# stress_counts PREFIX LOG: pelt_stress's "# done: k=v ..." line, and
# the guest job's "# detach trace: k=v ..." (--trace-detach), as CSV rows
# PREFIX,k,v.
stress_counts() {
	tr -d '\r' <"$2" | awk -v pre="$1" '/^# done: / { from = 3 } /^# detach trace: / { from = 4 }
		from { for (i = from; i <= NF; i++) { split($i, kv, "="); print pre "," kv[1] "," kv[2] } }
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
