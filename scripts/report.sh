#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the report's table from a results directory of verify.sh, and
# judge its verdicts.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] [--setup cgroup|session] [--csv|--check] RESULTS_DIR

Print a row per arch, topology and kernel of a verify.sh run: loops/s
(median over all runs, min-max), idle % and remote children %
(medians), the selftest's result on each boot, loops/s against the
reference kernel; figures of the cgroup setup unless --setup says
otherwise. --csv: the same rows as CSV. --check prints what is wrong, a
line each, and exits 1 for a reference or fixed kernel that failed or a
boot without a verdict or with a splat; else 3 where this host cannot
judge (the regressed kernel passed on a boot: "cannot show it here"; a
boot whose selftest skipped busy: "cannot judge here"); else 0.
USAGE
}

main() {
	local setup=cgroup mode=table
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--setup)
			setup=${2:-}
			case "$setup" in cgroup | session) ;; *) usage_error "--setup is cgroup or session" ;; esac
			shift 2
			;;
		--csv) mode=csv; shift ;;
		--check) mode=check; shift ;;
		-*) usage_error "unknown option $1" ;;
		*) break ;;
		esac
	done
	[ $# -eq 1 ] || { usage >&2; exit 2; }
	local dir=$1
	if [ ! -r "$dir/runs.csv" ] || [ ! -r "$dir/verdicts.csv" ]; then
		usage_error "$dir has no runs.csv and verdicts.csv"
	fi
	# The test's CPUs per topology: the guest's, at most MAX_TEST_CPUS.
	local t cpus="" k bases=""
	while read -r t; do
		cpus+=" $t=$(topology_vcpus "$t" || echo 0)"
	done < <(awk -F, 'NR > 1 { print $2 }' "$dir/verdicts.csv" | sort -u)
	# Each kernel's base variant, whose verdict it has: a harness suffix
	# (+dvfs, +diag) adds a driver or counters, not a fix.
	while read -r k; do
		bases+=" $k=$(base_variant "$k")"
	done < <(awk -F, 'NR > 1 { print $3 }' "$dir/verdicts.csv" | sort -u)
	awk -F, -v setup="$setup" -v mode="$mode" -v topology_cpus="$cpus" \
		-v max_cpus="$(margin MAX_TEST_CPUS)" -v kernel_bases="$bases" \
		-f "$SCRIPTS_DIR/stats.awk" -f /dev/stdin "$dir/runs.csv" "$dir/verdicts.csv" <<'AWK'
		# stat(key, what): median of a column over the runs of key; sets
		# lo[what] and hi[what].
		function stat(key, what,   a, n, i, m) {
			n = count[key]
			for (i = 1; i <= n; i++)
				a[i] = val[key, what, i] + 0
			m = median(a, n)
			lo[what] = a[1]; hi[what] = a[n]
			return m
		}
		# problem(msg), cannot_judge(msg): what --check prints.
		function problem(msg) {
			if (mode == "check")
				print "error: " msg
			problems++
		}
		function cannot_judge(msg) {
			if (mode == "check")
				print "cannot judge here: " msg
			cannot++
		}
		# test_cpus(topology): the CPUs the test ran on (0: unknown).
		function test_cpus(t,   a, i, n, kv) {
			n = split(topology_cpus, a, " ")
			for (i = 1; i <= n; i++) {
				split(a[i], kv, "=")
				if (kv[1] == t)
					return kv[2] + 0 > max_cpus + 0 ? max_cpus + 0 : kv[2] + 0
			}
			return 0
		}
		# The selftest's results of one row, e.g. "3/3 pass" or
		# "1/3 pass; 1 fail; 1 splat".
		function summary(key,   s, t, i) {
			s = sprintf("%d/%d pass", tests[key, "ok"], boots[key])
			split("fail figures skip busy bailout timeout splat panic missing error", t, " ")
			for (i = 1; i in t; i++)
				if (tests[key, t[i]])
					s = s sprintf("; %d %s", tests[key, t[i]], t[i])
			if (tests[key, "figures"] == boots[key])
				s = "figures only"
			return s
		}
		FNR == 1 { next }
		FILENAME ~ /runs.csv$/ && $5 == setup {
			key = $1 SUBSEP $2 SUBSEP $3
			if (!(key in count)) order[++rows] = key
			n = ++count[key]
			val[key, "loops", n] = $7
			val[key, "idle", n] = $8
			val[key, "remote", n] = $9
		}
		FILENAME ~ /verdicts.csv$/ {
			key = $1 SUBSEP $2 SUBSEP $3
			if (!(key in boots)) border[++brows] = key
			boots[key]++
			tests[key, $8]++
			if ($8 == "busy")
				cannot_judge(sprintf("%s %s %s boot %s: %s; console: logs/%s-%s-%s-%s.log",
					$1, $2, $3, $4, "the test's CPUs did not compute at once (a busy host)",
					$1, $2, $3, $4))
			else if ($8 != "ok" && $8 != "fail" && $8 != "figures")
				problem(sprintf("%s %s %s boot %s: no verdict (%s); console: logs/%s-%s-%s-%s.log",
					$1, $2, $3, $4, $8, $1, $2, $3, $4))
		}
		# base_variant(kernel): its base variant, as the shell found it.
		function base_variant(kernel,   a, i, n) {
			n = split(kernel_bases, a, " ")
			for (i = 1; i <= n; i++)
				if (index(a[i], kernel "=") == 1)
					return substr(a[i], length(kernel) + 2)
			return kernel
		}
		function check_row(key, k,   want, bad, ref, cpus, base) {
			if (tests[key, "figures"] == boots[key])
				return
			base = base_variant(k[3])
			want = base == "regressed" ? "fail" : "ok"
			bad = tests[key, want == "ok" ? "fail" : "ok"]
			if (!bad)
				return
			if (want == "ok") {
				problem(sprintf("%s %s %s: the selftest failed on %d of %d boots; it must pass on every boot",
					k[1], k[2], k[3], bad, boots[key]))
				return
			}
			ref = k[1] SUBSEP k[2] SUBSEP "reference" substr(k[3], length(base) + 1)
			cpus = test_cpus(k[2])
			printf "cannot show it here: %s %s: the regressed kernel passed the selftest on %d of %d boots, " \
				"so this host cannot show the defect and the other verdicts prove nothing; " \
				"guest fork rate %s forks/s per CPU (reference %s); run the selftest on a " \
				"quieter or faster machine (Documentation/harness.md, \"Slow hosts\")\n",
				k[1], k[2], bad, boots[key],
				(key in count) && cpus ? sprintf("%.0f", stat(key, "loops") / cpus) : "-",
				(ref in count) && cpus ? sprintf("%.0f", stat(ref, "loops") / cpus) : "-"
			cannot++
		}
		END {
			if (mode == "csv")
				print "arch,topology,kernel,setup,boots,passed,loops_per_s_median," \
					"loops_per_s_min,loops_per_s_max,idle_pct_median," \
					"remote_pct_median,loops_vs_reference,selftest"
			# The kernel column as wide as its longest name
			# (fixed@mainline-removal), at least 10.
			kw = 10
			for (r = 1; r <= brows; r++) {
				split(border[r], k, SUBSEP)
				if (length(k[3]) > kw) kw = length(k[3])
			}
			kcol = "%-7s %-8s %-" kw "s "
			if (mode == "table")
				printf kcol "%-22s %7s %9s  %-18s %s\n", "arch", "topology",
					"kernel", "loops/s median (range)", "idle %", "remote %",
					"selftest", "loops/s vs reference"
			for (r = 1; r <= brows; r++) {
				key = border[r]
				split(key, k, SUBSEP)
				if (mode == "check") {
					check_row(key, k)
					continue
				}
				if (!(key in count)) {
					if (mode == "table")
						printf kcol "%-22s %7s %9s  %s\n", k[1], k[2], k[3],
							"no result", "-", "-", summary(key)
					continue
				}
				loops = stat(key, "loops")
				lmin = lo["loops"]; lmax = hi["loops"]
				range = sprintf("%.0f (%.0f-%.0f)", loops, lmin, lmax)
				ref = k[1] SUBSEP k[2] SUBSEP "reference"
				ratio = "-"
				if (ref in count)
					ratio = sprintf("%.2f", loops / stat(ref, "loops"))
				if (mode == "csv")
					printf "%s,%s,%s,%s,%d,%d,%.1f,%.1f,%.1f,%.2f,%.2f,%s,%s\n", k[1], k[2],
						k[3], setup, boots[key], tests[key, "ok"], loops, lmin, lmax,
						stat(key, "idle"), stat(key, "remote"), ratio, summary(key)
				else
					printf kcol "%-22s %7.2f %9.2f  %-18s %s\n", k[1], k[2],
						k[3], range, stat(key, "idle"), stat(key, "remote"), summary(key), ratio
			}
			if (mode == "table")
				printf "\nFigures of the %s setup; medians over %s.\n", setup,
					"every run of every boot (10 runs per boot by default)"
			if (mode == "check")
				exit problems ? 1 : cannot ? 3 : 0
		}
AWK
}

run_main "$@"
