#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The mechanisms of issue 50, point 1, by counting: boot the +count
# kernels (each variant plus
# scripts/experiments/count/count-post-init-and-frequency-requests.patch,
# never for merging), run fork + exit + wait loops in a cpu cgroup, a
# light phase and a saturating one, and print per fork what
# post_init_entity_util_avg() saw and gave, and per exit the frequency
# requests by call site; with --dvfs, on the emulated clock, each phase's
# mean clock too.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/../..
. "$(dirname "${BASH_SOURCE[0]}")/../../lib.sh"

PHASES_DEFAULT="light=1 saturating=2xcpu"
DVFS_ARCHES=$(arches_where ARCH_DVFS yes preferred)

usage() {
	cat <<USAGE
usage: $(basename "$0") [options]

Each kernel is built with the counters of
scripts/experiments/count/count-post-init-and-frequency-requests.patch
(+count; with --dvfs also the emulated DVFS driver, +dvfs+count) and
booted R times. Each boot runs, per phase, LOOPS copies of workloads'
spawn loop (fork, the child exits at once, waitpid) at once in a cpu
cgroup for S seconds, the counters reset before and read after.

Per kernel and phase, summed over boots: forks per second; per fork the
child's util_avg after post_init_entity_util_avg() (mean and sd), what
it would have been with the removals pending on its cfs_rq done (the
estimate ablation K makes), its cfs_rq's util_avg (mean, sd) and
load_avg, the removals pending there (util_avg, load_avg, and the share
of forks that had any), the share of children capped at half the spare
capacity, placed on the forking CPU and placed on a root cfs_rq (should
be none: the loops run in a cgroup); per exit the util_avg of the dead task and
the frequency requests made in an exiting task's context, by site:
every cpufreq_update_util() (CONFIG_CPU_FREQ kernels, i.e. --dvfs only)
and the fair class's on a root cfs_rq (attach, detach, decayed
update_load_avg(), blocked averages); with --dvfs the busy-weighted
mean clock and energy per 1000 forks (cube law, fmax-CPU-ms).
Writes DIR/count.csv (arch,kernel,boot,phase,name,value) and
DIR/table.txt. Exits 1 when a boot lacks a phase's counters.

$(experiment_usage)
  --seconds S         seconds per phase (default 10)
  --phases "P..."     NAME=LOOPS, LOOPS a number or Nxcpu (N per CPU)
                      (default "$PHASES_DEFAULT")
  --dvfs POLICY       +dvfs+count kernels, the emulated clock with one
                      policy shape: per-cpu, remote or shared (dvfs.sh's
                      --policies); arches: $DVFS_ARCHES
USAGE
}

EXP_NAME=count EXP_BOOTS=2 EXP_SUFFIX=+count
SECONDS_PER_PHASE=10 PHASES=$PHASES_DEFAULT DVFS_POLICY=""

exp_option() {
	EXP_SHIFT=2
	case "$1" in
	--seconds) positive_option "$1" "${2:-}"; SECONDS_PER_PHASE=$2 ;;
	--phases)
		[[ "${2:-}" =~ ^[a-z][a-z0-9-]*=[1-9][0-9]*(xcpu)?( [a-z][a-z0-9-]*=[1-9][0-9]*(xcpu)?)*$ ]] ||
			usage_error "--phases takes NAME=LOOPS words, LOOPS a number or Nxcpu, got '${2:-}'"
		PHASES=$2
		;;
	--dvfs)
		[[ "${2:-}" =~ ^(per-cpu|remote|shared)$ ]] ||
			usage_error "--dvfs takes per-cpu, remote or shared, got '${2:-}'"
		DVFS_POLICY=$2 EXP_SUFFIX=+dvfs+count EXP_ARCHES_OK=$DVFS_ARCHES
		;;
	*) return 1 ;;
	esac
}

exp_boot_args() {
	printf '%s\n' --job count --args "$SECONDS_PER_PHASE $PHASES" --job-must-pass \
		--timeout $((300 + (SECONDS_PER_PHASE + 15) * $(wc -w <<<"$PHASES")))
}

# exp_boot ARCH TOPOLOGY DIR: with --dvfs, the driver's parameters of the
# policy shape and what the model needs on ARCH (as dvfs.sh boots them).
exp_boot() {
	local params=""
	if [ -n "$DVFS_POLICY" ]; then
		case "$DVFS_POLICY" in
		per-cpu) params="emulated_cpufreq.shared=0 emulated_cpufreq.remote=0" ;;
		remote) params="emulated_cpufreq.shared=0 emulated_cpufreq.remote=1" ;;
		shared) params="emulated_cpufreq.shared=1 emulated_cpufreq.remote=0" ;;
		esac
		params+=$(arch_field "$1" ARCH_DVFS_APPEND | sed 's/^./ &/')
	fi
	experiment_boot "$1" "$2" "$3" "count${DVFS_POLICY:+ $DVFS_POLICY}" "$params"
}

exp_collect() {
	local out=$1 log arch kernel boot rc=0
	echo "arch,kernel,boot,phase,name,value" >"$out/count.csv"
	for log in "$out"/logs/*.log; do
		[ -e "$log" ] || continue
		read -r arch _ kernel boot < <(console_log_fields "$log") || continue
		count_rows "$arch,$kernel,$boot" "$log" >>"$out/count.csv" || rc=1
	done
	count_table "$out/count.csv" "$EXP_VARIANTS" "$PHASES" | tee "$out/table.txt"
	return "$rc"
}

main() { experiment_main "$@"; }

# count_rows PREFIX LOG: one boot's counters as CSV rows; false, with a
# line on stderr, when a phase of PHASES has none.
count_rows() {
	tr -d '\r' <"$2" | console_awk -v pre="$1" -v phases="$PHASES" -v logfile="$2" '
		$1 == "@@@" && $2 == "count" {
			p = kv("phase")
			seen[p] = 1
			for (i = 4; i <= NF; i++)
				print pre "," p "," kv_key($i) "," kv_val($i)
		}
		$1 == "@@@" && $2 == "count-rate" { print pre "," kv("phase") ",forks_per_s," kv("forks_per_s") }
		$1 == "@@@" && $2 == "count-time" {
			p = kv("phase"); b = kv("busy_us") / 1e6; f = kv("khz")
			busy[p] += b; fbusy[p] += b * f; t[p, ++nt[p]] = b SUBSEP f
			if (f > fmax) fmax = f
		}
		END {
			for (p in busy) {
				if (busy[p] > 0) print pre "," p ",mean_mhz," fbusy[p] / busy[p] / 1000
				e = 0
				for (i = 1; i <= nt[p]; i++) {
					split(t[p, i], bf, SUBSEP)
					e += bf[1] * (bf[2] / fmax) ^ 3
				}
				print pre "," p ",energy_fmax_cpu_s," e
			}
			n = split(phases, want, " ")
			for (i = 1; i <= n; i++) {
				sub(/=.*/, "", want[i])
				if (!(want[i] in seen)) {
					print "error: " logfile ": no counters of phase " want[i] >"/dev/stderr"
					missing = 1
				}
			}
			exit missing
		}'
}

# count_table CSV "VARIANTS" "PHASES": per arch, kernel and phase (in the
# order of the options), summed over boots.
count_table() {
	awk -F, -v variants="$2" -v phases="$3" '
		NR == 1 { next }
		{
			key = $1 " " $2 " " $4
			if (!($1 in arch_seen)) { arch_seen[$1] = 1; arches[++na] = $1 }
			if (!((key, $3) in kb)) { kb[key, $3] = 1; boots[key]++ }
			c[key, $5] += $6
		}
		function per(key, name, by) { return c[key, by] ? c[key, name] / c[key, by] : 0 }
		function sd(key, sum, sq, by,   m, v) {
			if (!c[key, by]) return 0
			m = c[key, sum] / c[key, by]; v = c[key, sq] / c[key, by] - m * m
			return v > 0 ? sqrt(v) : 0
		}
		function pct(key, name) { return 100 * per(key, name, "forks") }
		END {
			nv = split(variants, v, " ")
			np = split(phases, ph, " ")
			for (a = 1; a <= na; a++)
				for (i = 1; i <= nv; i++)
					for (j = 1; j <= np; j++) {
						key = arches[a] " " v[i] " " substr(ph[j], 1, index(ph[j], "=") - 1)
						if (boots[key]) order[++n] = key
					}
			print "Per fork: what post_init_entity_util_avg() saw and gave"
			printf "%-7s %-24s %-10s %5s %9s %8s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s\n",
				"arch", "kernel", "phase", "boots", "forks", "forks/s", "child", "sd",
				"noremv", "cfsutl", "sd", "cfsld", "remutl", "remld", "remv%", "cap%",
				"local%", "root%"
			for (r = 1; r <= n; r++) {
				k = order[r]; split(k, kk, " ")
				printf "%-7s %-24s %-10s %5d %9d %8.0f %6.0f %6.0f %6.0f %6.0f %6.0f %6.0f %6.1f %6.0f %6.1f %6.1f %6.1f %6.1f\n",
					kk[1], kk[2], kk[3], boots[k], c[k, "forks"], c[k, "forks_per_s"] / boots[k],
					per(k, "child_util_sum", "forks"),
					sd(k, "child_util_sum", "child_util_sq_sum", "forks"),
					per(k, "child_util_no_removed_sum", "forks"),
					per(k, "cfs_util_sum", "forks"),
					sd(k, "cfs_util_sum", "cfs_util_sq_sum", "forks"),
					per(k, "cfs_load_sum", "forks"), per(k, "removed_util_sum", "forks"),
					per(k, "removed_load_sum", "forks"), pct(k, "forks_removed"), pct(k, "forks_capped"),
					pct(k, "forks_local"), pct(k, "forks_root")
			}
			print ""
			print "Per exit: the dead task, and frequency requests made in an exiting task by site"
			printf "%-7s %-24s %-10s %8s %7s %6s %6s %6s %7s %7s %8s %8s %8s\n",
				"arch", "kernel", "phase", "exits", "deadutl", "any", "attach", "detach",
				"decayed", "blocked", "all/fork", "MHz", "E/kfork"
			for (r = 1; r <= n; r++) {
				k = order[r]; split(k, kk, " ")
				mhz = c[k, "mean_mhz"] ? sprintf("%.0f", c[k, "mean_mhz"] / boots[k]) : "-"
				e = "-"
				if (c[k, "energy_fmax_cpu_s"] && c[k, "forks"])
					e = sprintf("%.3f", c[k, "energy_fmax_cpu_s"] / c[k, "forks"] * 1e6)
				printf "%-7s %-24s %-10s %8d %7.0f %6.2f %6.2f %6.2f %7.2f %7.2f %8.2f %8s %8s\n",
					kk[1], kk[2], kk[3], c[k, "exits"], per(k, "dead_util_sum", "exits"),
					per(k, "exit_freq_any", "exits"), per(k, "exit_freq_attach", "exits"),
					per(k, "exit_freq_detach", "exits"), per(k, "exit_freq_decayed", "exits"),
					per(k, "exit_freq_blocked", "exits"), per(k, "freq_any", "forks"), mhz, e
			}
		}' "$1"
}

run_main "$@"
