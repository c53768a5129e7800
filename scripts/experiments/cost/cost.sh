#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the sched_move_task() fast path saves: ftrace's function profiler
# in the guest (scripts/experiments/cost/guest/cost.sh) on each kernel,
# boots interleaved.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/../..
. "$(dirname "${BASH_SOURCE[0]}")/../../lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [options]

Boot each kernel with the cost job: a shell in a child cpu cgroup
starts CHILDREN /bin/true processes and waits, REPEATS times per boot,
under ftrace's function profiler (times include callees). Prints per
kernel and function the median over all repeats of the time per repeat
and per call, and the ratio to the reference kernel; compare kernels
within one table (emulation and the tracer inflate every time).

$(experiment_usage)
  --children N        children per repeat (default 2000)
  --repeats N         repeats per boot (default 3)
  --functions "F..."  the functions profiled (default all: $COST_FUNCTIONS);
                      sched_move_task alone where kernels' moves call
                      different functions (a traced callee adds the
                      tracer's cost to its caller)
USAGE
}

EXP_NAME=cost EXP_BOOTS=2
CHILDREN=2000 REPEATS=3
# The functions --functions takes. Whether ftrace can profile one (not
# inlined, not notrace) only a kernel's build tells, and a name the
# guest cannot trace fails every boot after every kernel is built: so a
# name is checked on the host against these, which the job was made for.
# Another is one more word here, once available_filter_functions of
# every kernel it runs on has it.
COST_FUNCTIONS="sched_move_task task_dead_fair dequeue_task_fair migrate_task_rq_fair"
FUNCTIONS=$COST_FUNCTIONS

exp_option() {
	local f
	case "$1" in
	--children | --repeats)
		[[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || usage_error "$1 takes a positive number, got '${2:-}'"
		if [ "$1" = --children ]; then CHILDREN=$2; else REPEATS=$2; fi
		;;
	--functions)
		[[ "${2:-}" =~ ^[a-z_]+( [a-z_]+)*$ ]] || usage_error "--functions takes function names, got '${2:-}'"
		for f in $2; do
			[[ " $COST_FUNCTIONS " == *" $f "* ]] ||
				usage_error "--functions: unknown function '$f': expected any of: $COST_FUNCTIONS"
		done
		FUNCTIONS=$2
		;;
	*) return 1 ;;
	esac
	EXP_SHIFT=2
}

exp_boot_args() {
	printf '%s\n' --job cost --job-must-pass --args "$CHILDREN $REPEATS ${FUNCTIONS// /,}"
}

main() { experiment_main "$@"; }

# exp_collect DIR ARCH: DIR/profile.csv and DIR/wall.csv of every boot,
# the table; a boot that failed (its job too) fails the run.
exp_collect() {
	local out=$1 arch=$2 b v log
	echo "kernel,boot,repeat,func,hits,total_us" >"$out/profile.csv"
	echo "kernel,boot,repeat,wall_s" >"$out/wall.csv"
	for b in $(seq "$EXP_BOOTS"); do
		for v in $EXP_VARIANTS; do
			log=$(console_log "$out" "$arch" "" "$v" "$b")
			tr -d '\r' <"$log" | console_awk -v k="$v,$b" '
				/^@@@ profile / { printf "%s,%s,%s,%s,%s\n", k, kv("repeat"), kv("func"), kv("hits"), kv("total_us") >> "/dev/stdout" }
				/^@@@ cost / { printf "%s,%s,%s\n", k, kv("repeat"), kv("wall_s") >> "/dev/stderr" }
			' >>"$out/profile.csv" 2>>"$out/wall.csv"
		done
	done
	cost_table "$out" | tee "$out/table.txt"
}

# cost_table DIR: per kernel and function, medians over repeats of the
# per-repeat totals (summed over CPUs).
cost_table() {
	awk -F, -f "$SCRIPTS_DIR/stats.awk" -f /dev/stdin "$1/profile.csv" "$1/wall.csv" <<'AWK'
		FNR == 1 { next }
		FILENAME ~ /profile.csv$/ {
			key = $1 SUBSEP $2 SUBSEP $3
			if (!(key in seen)) { seen[key] = 1; reps[$1]++; rep[$1, reps[$1]] = $2 SUBSEP $3 }
			us[key, $4] += $6; hits[key, $4] += $5
			if (!($1 in korder)) { korder[$1] = ++nk; kname[nk] = $1 }
			if (!($4 in forder)) { forder[$4] = ++nf; fname[nf] = $4 }
		}
		FILENAME ~ /wall.csv$/ { wall[$1, ++nw[$1]] = $4 }
		END {
			printf "%-10s %-18s %14s %12s %14s %s\n", "kernel", "function",
				"total ms/rep", "us/call", "calls/rep", "total vs reference"
			for (f = 1; f <= nf; f++) {
				for (k = 1; k <= nk; k++) {
					v = kname[k]
					for (i = 1; i <= reps[v]; i++) {
						key = v SUBSEP rep[v, i]
						t[i] = us[key, fname[f]] / 1000
						c[i] = hits[key, fname[f]]
						p[i] = c[i] ? us[key, fname[f]] / c[i] : 0
					}
					tot[v] = median(t, reps[v])
					ratio = ("reference" in tot) ? sprintf("%.2f", tot[v] / tot["reference"]) : "-"
					printf "%-10s %-18s %14.1f %12.1f %14.0f %s\n", v, fname[f],
						tot[v], median(p, reps[v]), median(c, reps[v]), ratio
				}
				delete tot
			}
			for (k = 1; k <= nk; k++) {
				v = kname[k]
				for (i = 1; i <= nw[v]; i++) w[i] = wall[v, i]
				printf "%s: spawn loop wall time median %.2f s over %d repeats\n",
					v, median(w, nw[v]), nw[v]
			}
		}
AWK
}

run_main "$@"
