#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Side effects of the PELT change on work it was not written for: the
# loads of scripts/experiments/bench/guest/workloads.c (spawn, pipe
# ping-pong, hackbench-like messaging, thread create/join, execve(), a
# shell spawning commands, a periodic task with and without fork churn on
# its CPU; when named, the wakeup-heavy ones: hackbench -T-like messaging,
# a pipe herd, TCP_RR on loopback, schbench-like wakeup latency) on every
# kernel, boots interleaved, and the utilization schedutil would see.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/../..
. "$(dirname "${BASH_SOURCE[0]}")/../../lib.sh"

# workloads -v list=WHICH | -v check="L...": the loads of
# guest/workloads.c, or what is wrong with the names L (workloads.awk).
workloads() {
	awk "$@" -f "$SCRIPTS_DIR/experiments/bench/workloads.awk" "$SCRIPTS_DIR/experiments/bench/guest/workloads.c"
}
# What the guest's bench job runs without --loads.
DEFAULT_LOADS=$(workloads -v list=default)
# Wakeup-heavy loads, which go through the lockless removal of a task's
# sums on each wakeup migration; named with --loads.
WAKEUP_LOADS=$(workloads -v list=wakeup)

usage() {
	cat <<USAGE
usage: $(basename "$0") [options]
       $(basename "$0") --mail-table DIR...

Boots every kernel R times, interleaved, each running every load for S
seconds in a cpu cgroup; writes DIR/bench.csv, DIR/util.csv (the loaded
CPU's and the periodic task's averages, schedutil's request),
DIR/table.txt and DIR/verdicts.csv. Exits 1 when a row that counts
differs from the reference beyond the larger range of the two, or a
result is missing; else 0. --mail-table prints the medians [ranges] of
finished runs as a cover letter quotes them. What each row is, which
rows count, the loads run only when named: Documentation/bench.md.

$(experiment_usage)
  --seconds S         seconds per load (default 4)
  --loads "L..."      the loads (default: $DEFAULT_LOADS; also
                      $WAKEUP_LOADS and the probes exit-residue,
                      wake-residue, group-residue)
  --no-monitor        the sampler reads only the periodic task's own
                      utilization, not the sched debug file
USAGE
}

EXP_NAME=bench EXP_BOOTS=5
SECONDS_PER_LOAD=4 MONITOR="" LOADS=""

exp_option() {
	local unknown
	EXP_SHIFT=2
	case "$1" in
	--seconds) positive_option "$1" "${2:-}"; SECONDS_PER_LOAD=$2 ;;
	--no-monitor) MONITOR=" --no-debug-file"; EXP_SHIFT=1 ;;
	--loads)
		[[ "${2:-}" =~ ^[a-z-]+( [a-z-]+)*$ ]] || usage_error "--loads takes load names, got '${2:-}'"
		# Here, not in the guest after every kernel is built.
		unknown=$(workloads -v check="$2")
		[ -z "$unknown" ] || usage_error "--loads: $unknown"
		LOADS=" $2"
		;;
	*) return 1 ;;
	esac
}

# exp_boot_verdict LOG: a boot is judged by its figures; one whose job
# ended without a single one gave the tables nothing.
exp_boot_verdict() {
	if grep -aq '^@@@ bench .* value=' "$1"; then
		echo judged
	else
		echo "left no figure of a load (no \"@@@ bench ... value=\" line)"
	fi
}

exp_boot_args() {
	printf '%s\n' --job bench --args "$SECONDS_PER_LOAD$MONITOR$LOADS" \
		--timeout $((300 + 4 * SECONDS_PER_LOAD * $(wc -w <<<"${LOADS:-$DEFAULT_LOADS}")))
}

# exp_collect DIR ARCH: DIR/bench.csv, DIR/util.csv and the tables; 1
# when a row that counts differs or a result is missing.
exp_collect() {
	local out=$1 arch=$2 v b
	echo "arch,kernel,boot,load,metric,value,unit" >"$out/bench.csv"
	echo "$UTIL_CSV_HEADER" >"$out/util.csv"
	for b in $(seq "$EXP_BOOTS"); do
		for v in $EXP_VARIANTS; do
			bench_rows "$arch,$v,$b" "$(console_log "$out" "$arch" "" "$v" "$b")" "$out"
		done
	done
	bench_tables "$out" "$EXP_VARIANTS" "$EXP_BOOTS" | tee "$out/table.txt"
	bench_verdict "$out"
}

# bench_verdict DIR: 1 when a row that counts differs or a row lacks a
# value, from DIR/verdicts.csv (the printed table is for people). The
# rows that do not count measure what dead tasks leave behind, which a
# fix is meant to change: the probes (LOAD-residue) and the CPU's
# averages where tasks die on that CPU (spawn, periodic-churn; not
# schedutil's request).
bench_verdict() {
	awk -F, 'NR > 1 {
		left_behind = $2 ~ /^[a-z]*-residue$/ ||
			($1 == "util" && ($2 == "spawn" || $2 == "periodic-churn") && $3 ~ /^cpu [a-z_]*$/)
		if ($4 == "missing" || $6 != "" || ($4 == "differs" && !left_behind)) failed = 1
	} END { exit failed }' "$1/verdicts.csv"
}

main() {
	local v
	if [ "${1:-}" = --mail-table ]; then
		shift
		[ $# -gt 0 ] || usage_error "--mail-table needs a results directory"
		for v in "$@"; do
			[ -s "$v/bench.csv" ] || usage_error "$v has no bench.csv"
		done
		mail_table "$@"
		return
	fi
	experiment_main "$@"
}

UTIL_CSV_HEADER=arch,kernel,boot,load,what,util_avg,runnable_avg,util_est,schedutil_pct,samples

# bench_rows PREFIX LOG DIR: the guest's "@@@ bench" and "@@@ util" lines
# as rows of DIR/bench.csv and DIR/util.csv.
bench_rows() {
	tr -d '\r' <"$2" | console_awk -v pre="$1" -v bench="$3/bench.csv" -v util="$3/util.csv" '
		/^@@@ bench .* value=/ {
			print pre "," kv("load") "," kv("metric") "," kv("value") "," kv("unit") >>bench
		}
		/^@@@ util / {
			print pre "," kv("load") "," kv("what") "," kv("util_avg") "," kv("runnable_avg") "," \
				kv("util_est") "," kv("schedutil_pct") "," kv("samples") >>util
		}'
}

# bench_tables DIR "VARIANTS" BOOTS: the two tables of table.txt, and
# each row's verdict in DIR/verdicts.csv (table,load,what,verdict,
# differing,without_value: table bench or util, what the metric and
# unit or the utilization row's name, verdict same, differs, missing or
# n/a, differing the candidates that differ and without_value the
# kernels with no value, each list space-separated).
bench_tables() {
	awk -F, -v variants="$2" -v boots="$3" -v verdicts="$1/verdicts.csv" -f "$SCRIPTS_DIR/stats.awk" -f /dev/stdin \
		"$1/bench.csv" "$1/util.csv" <<'AWK'
function summary(key, v,   n, a, i) {
	n = count[key, v]
	if (!n) return "missing"
	for (i = 1; i <= n; i++) a[i] = val[key, v, i]
	med[key, v] = median(a, n)
	lo[key, v] = a[1]; hi[key, v] = a[n]
	return sprintf("%.6g [%.6g-%.6g]", med[key, v], a[1], a[n])
}
# differs(key): the candidates (fixed, alt-X) whose median is further
# from the reference median than the larger range of the two.
function differs(key,   i, c, d, out) {
	if (!count[key, "reference"]) return "n/a"
	out = ""
	for (i = 1; i <= nv; i++) {
		c = vs[i]
		if (c == "reference" || c == "regressed") continue
		if (!count[key, c]) return "missing"
		d = med[key, c] - med[key, "reference"]
		if (d < 0) d = -d
		if (d > range_spread(key, c)) out = out (out == "" ? "" : ", ") c
	}
	return out == "" ? "same" : "differs (" out ")"
}
BEGIN {
	nv = split(variants, vs, " ")
	print "table,load,what,verdict,differing,without_value" >verdicts
}
FNR == 1 { file++; next }
file == 1 { add($4 " | " $5 " (" $7 ")", $2, $6) }
file == 2 {
	add("util " $4 " | " $5 " util_avg", $2, $6)
	add("util " $4 " | " $5 " runnable_avg", $2, $7)
	add("util " $4 " | " $5 " util_est", $2, $8)
	if ($5 == "cpu")
		add("util " $4 " | " $5 " schedutil % of max freq", $2, $9)
}
END {
	for (t = 1; t <= 2; t++) {
		if (t == 1) printf "| load | metric |"
		else printf "\n| load | what |"
		for (i = 1; i <= nv; i++) printf " %s |", vs[i]
		print " vs reference |"
		printf "|---|---|"
		for (i = 1; i <= nv; i++) printf "---|"
		print "---|"
		for (k = 1; k <= nkeys; k++) {
			key = keys[k]
			if ((t == 1) == (key ~ /^util /)) continue
			name = key; sub(/^util /, "", name)
			printf "| %s |", name
			without_value = ""
			for (i = 1; i <= nv; i++) {
				cell = summary(key, vs[i])
				printf " %s |", cell
				if (cell == "missing") without_value = without_value (without_value == "" ? "" : " ") vs[i]
			}
			d = differs(key)
			printf " %s |\n", d
			differing = ""
			if (d ~ /^differs \(/) {
				differing = substr(d, 10, length(d) - 10)
				gsub(/, /, " ", differing)
				d = "differs"
			}
			split(name, lw, " [|] ")
			print (t == 1 ? "bench" : "util") "," lw[1] "," lw[2] "," d "," differing "," without_value >verdicts
		}
	}
	printf "\n%s boots per kernel; median [min-max] over the boots.\n", boots
}
AWK
}

# mail_table DIR...: the --mail-table text of the DIRs' bench.csv.
mail_table() {
	awk -F, -f "$SCRIPTS_DIR/stats.awk" -f /dev/stdin "${@/%//bench.csv}" <<'AWK'
function num(x,   a) {
	a = x < 0 ? -x : x
	if (a >= 100000) return sprintf("%.0fk", x / 1000)
	if (a >= 100) return sprintf("%.0f", x)
	return sprintf("%.3g", x)
}
function pad(s, w) { return sprintf("%-" w "s", s) }
# The columns by name: bench.sh's bench.csv, or dvfs.sh's, which has a
# policy (the clock shape) after the arch; a block per arch and policy.
FNR == 1 {
	file = FILENAME
	delete col
	for (i = 1; i <= NF; i++) col[$i] = i
	next
}
{
	group = $col["arch"] ("policy" in col ? " " $col["policy"] : "")
	kernel = $col["kernel"]; load = $col["load"]; unit = $col["unit"]
	# The unit as it reads after the metric: round_trips/s, wakeup_p99
	# us; util (of util_after, util_per_removal) goes without saying.
	metric = $col["metric"] (unit == "1/s" ? "/s" : unit == "util" ? "" : " " unit)
}
# Two runs of one arch are not pooled: their boots are not one sample.
group in group_file && group_file[group] != file {
	printf "error: %s and %s both hold %s runs\n", group_file[group], file, group >"/dev/stderr"
	bad = 1
	exit 2
}
{
	if (!(group in group_file)) { group_file[group] = file; groups[++ng] = group }
	if (!(kernel in v_seen)) { v_seen[kernel] = 1; vs[++nv] = kernel }
	if (!((group, load, metric) in row_seen)) {
		row_seen[group, load, metric] = 1
		rows[group, ++nrows[group]] = load SUBSEP metric
	}
	add(group SUBSEP load SUBSEP metric, kernel, $col["value"])
}
END {
	if (bad) exit 2
	if (!ng) { print "error: no results in " ARGV[1] >"/dev/stderr"; exit 2 }
	for (i = 1; i <= nv; i++) w[i] = length(vs[i])
	for (g = 1; g <= ng; g++) {
		if (length(groups[g]) > wl) wl = length(groups[g])
		for (r = 1; r <= nrows[groups[g]]; r++) {
			split(rows[groups[g], r], lm, SUBSEP)
			if (length(lm[1]) > wl) wl = length(lm[1])
			if (length(lm[2]) > wm) wm = length(lm[2])
			key = groups[g] SUBSEP rows[groups[g], r]
			for (i = 1; i <= nv; i++) {
				n = count[key, vs[i]]
				if (!n) { cell[key, i] = "missing"; continue }
				for (j = 1; j <= n; j++) x[j] = val[key, vs[i], j]
				m = median(x, n)
				cell[key, i] = num(m) " [" num(x[1]) "-" num(x[n]) "]"
				if (length(cell[key, i]) > w[i]) w[i] = length(cell[key, i])
			}
		}
	}
	for (g = 1; g <= ng; g++) {
		if (g > 1) print ""
		line = "  " pad(groups[g], wl) "  " pad("", wm)
		for (i = 1; i <= nv; i++) line = line "  " pad(vs[i], w[i])
		sub(/ +$/, "", line); print line
		for (r = 1; r <= nrows[groups[g]]; r++) {
			split(rows[groups[g], r], lm, SUBSEP)
			key = groups[g] SUBSEP rows[groups[g], r]
			line = "  " pad(lm[1], wl) "  " pad(lm[2], wm)
			for (i = 1; i <= nv; i++) line = line "  " pad(cell[key, i], w[i])
			sub(/ +$/, "", line); print line
		}
	}
}
AWK
}

# Sourcing (for tests) defines the functions without running main.
[ "${BASH_SOURCE[0]}" != "$0" ] || run_main "$@"
