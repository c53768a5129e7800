#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the report's table from a results directory of verify.sh.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] [--setup cgroup|session] [--csv] RESULTS_DIR

Print one row per arch, topology and kernel from RESULTS_DIR/runs.csv and
verdicts.csv: loops/s (median over all runs, min-max), idle % and remote
children % (medians), how many boots the selftest passed, and loops/s
relative to the reference kernel in the same table. Figures are those of
the cgroup setup (workers in a cpu cgroup, as in the report) unless
--setup says otherwise. --csv prints the same rows as CSV (verify.sh
writes them to RESULTS_DIR/results.csv).
USAGE
}

main() {
	local setup=cgroup csv=0
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--setup)
			setup=${2:-}
			case "$setup" in cgroup | session) ;; *) usage_error "--setup is cgroup or session" ;; esac
			shift 2
			;;
		--csv) csv=1; shift ;;
		*) break ;;
		esac
	done
	[ $# -eq 1 ] || { usage >&2; exit 2; }
	local dir=$1
	if [ ! -r "$dir/runs.csv" ] || [ ! -r "$dir/verdicts.csv" ]; then
		usage_error "$dir has no runs.csv and verdicts.csv"
	fi
	awk -F, -v setup="$setup" -v csv="$csv" -f "$SCRIPTS_DIR/stats.awk" -f /dev/stdin \
		"$dir/runs.csv" "$dir/verdicts.csv" <<'AWK'
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
			if ($8 == "ok") passed[key]++
			if ($8 == "skip") skipped[key]++
		}
		END {
			if (csv)
				print "arch,topology,kernel,setup,boots,passed,loops_per_s_median," \
					"loops_per_s_min,loops_per_s_max,idle_pct_median," \
					"remote_pct_median,loops_vs_reference"
			else
				printf "%-7s %-8s %-10s %-22s %7s %9s %-13s %s\n", "arch", "topology",
					"kernel", "loops/s median (range)", "idle %", "remote %",
					"selftest", "loops/s vs reference"
			for (r = 1; r <= brows; r++) {
				key = border[r]
				split(key, k, SUBSEP)
				if (!(key in count)) {
					if (!csv)
						printf "%-7s %-8s %-10s %s\n", k[1], k[2], k[3], "no result"
					continue
				}
				loops = stat(key, "loops")
				lmin = lo["loops"]; lmax = hi["loops"]
				range = sprintf("%.0f (%.0f-%.0f)", loops, lmin, lmax)
				ref = k[1] SUBSEP k[2] SUBSEP "reference"
				ratio = "-"
				if (ref in count)
					ratio = sprintf("%.2f", loops / stat(ref, "loops"))
				verdict = sprintf("%d/%d pass", passed[key], boots[key])
				if (skipped[key] == boots[key])
					verdict = sprintf("%d/%d skip", skipped[key], boots[key])
				if (csv)
					printf "%s,%s,%s,%s,%d,%d,%.1f,%.1f,%.1f,%.2f,%.2f,%s\n", k[1], k[2],
						k[3], setup, boots[key], passed[key], loops, lmin, lmax,
						stat(key, "idle"), stat(key, "remote"), ratio
				else
					printf "%-7s %-8s %-10s %-22s %7.2f %9.2f %-13s %s\n", k[1], k[2],
						k[3], range, stat(key, "idle"), stat(key, "remote"), verdict, ratio
			}
			if (!csv)
				printf "\nFigures of the %s setup; medians over %s.\n", setup,
					"every run of every boot (5 runs per boot by default)"
		}
AWK
}

main "$@"
