#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The distributions behind the selftest's placement verdict: per boot,
# the rounds in which the cgroup setup had more remote children than the
# session setup and the median of those per-round differences; per arch,
# topology and kernel, their spread over boots and how many boots the
# selftest's rule, as it is now, fails, in the boots that tune the
# margin and in those that check it.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/..
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# The columns, per directory, arch, topology and kernel: boots, and over
# boots the minimum, median and maximum of
#   diff     the median over rounds of remote % (cgroup) - remote % (session),
#            each round's two runs back to back
#   rounds   the rounds in which the cgroup setup had more remote children
#   idle     median idle % (cgroup) - median idle % (session), a diagnostic
#   loops    median loops/s (cgroup) / median loops/s (session), a diagnostic
#   other    the larger of the setups' median share of the test's CPUs that
#            other work took (other_pct of the console logs; "-" without)
#   job s    the selftest's wall time in the guest, median over boots, and
#   mem kB   the kernel's memory (Slab + Percpu) at its peak over the idle
#            guest's, median (the guest's "@@@ guest-cost" line)
# then the boots that fail placement (the rounds' signed-rank sum no
# likelier by chance than RANK_CHANCE, and diff above the margin) and
# those that give no verdict because other work took more than
# OTHER_WORK_MAX_PCT (boots without other_pct are judged), as
# FAILS/SKIPS/BOOTS, apart for the tuning boots (the first half of each
# row's boots, rounded up) and the checking boots (the rest). Data
# recorded with older rules is judged by this one.
usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] [--margin POINTS] [--other-max PCT] RESULTS_DIR...

Judge the rounds of verify.sh runs (RESULTS_DIR/runs.csv, and the
console logs' other_pct and guest-cost lines) again by the selftest's
rule: per directory, arch, topology and kernel, the boots' remote-%
difference (cgroup - session), the rounds the cgroup setup led, idle,
loops, other work, job time and memory, then FAILS/SKIPS/BOOTS for the
tuning and the checking half of the boots. --margin (default
REMOTE_MARGIN_PCT, $(margin REMOTE_MARGIN_PCT)) and --other-max (default
OTHER_WORK_MAX_PCT, $(margin OTHER_WORK_MAX_PCT)) try other margins.
USAGE
}

# other_pct_lines LOGDIR: "ARCH TOPOLOGY KERNEL BOOT SETUP OTHER_PCT" per
# run of every console log LOGDIR/ARCH-TOPOLOGY-KERNEL-BOOT.log, and
# "ARCH TOPOLOGY KERNEL BOOT cost JOB_S MEM_KB" per boot.
other_pct_lines() {
	local f fields
	[ -d "$1" ] || return 0
	for f in "$1"/*.log; do
		fields=$(console_log_fields "$f") || continue
		console_awk -v fields="$fields" '
			{ sub(/\r$/, "") }
			/^(# )?# run setup=.* other_pct=|^@@@ guest-cost / {
				if ($1 == "@@@")
					print fields, "cost", kv("job_s"), kv("peak_kernel_kb") - kv("idle_kernel_kb")
				else
					print fields, kv("setup"), kv("other_pct")
			}' "$f"
	done
}

main() {
	local margin_pct="" other_max="" rank_chance d
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--margin)
			margin_pct=${2:-}
			shift 2 || usage_error "--margin needs a value"
			[[ "$margin_pct" =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage_error "--margin takes points, e.g. 2.5"
			;;
		--other-max)
			other_max=${2:-}
			shift 2 || usage_error "--other-max needs a value"
			[[ "$other_max" =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage_error "--other-max takes a percentage"
			;;
		-*) usage_error "unknown option $1" ;;
		*) break ;;
		esac
	done
	[ $# -ge 1 ] || { usage >&2; exit 2; }
	for d in "$@"; do
		[ -r "$d/runs.csv" ] || usage_error "$d has no runs.csv"
	done
	[ -n "$margin_pct" ] || margin_pct=$(margin REMOTE_MARGIN_PCT)
	[ -n "$other_max" ] || other_max=$(margin OTHER_WORK_MAX_PCT)
	# RANK_CHANCE is written as a fraction, "(5.0 / 1024)".
	rank_chance=$(margin RANK_CHANCE | awk '{ print ($2 == "/") ? $1 / $3 : $1 }')
	[[ "$rank_chance" =~ ^0\.[0-9]+$ ]] ||
		die "RANK_CHANCE of $SELFTEST_SOURCE is not a chance below 1: $(margin RANK_CHANCE)"
	printf "%-26s %-7s %-9s %-10s %5s  %-20s %-14s %-20s %-17s %-17s %5s %6s  %s\n" "data" "arch" \
		"topology" "kernel" "boots" "diff min/med/max" "rounds min/max" "idle diff min/med/max" \
		"loops min/med/max" "other min/med/max" "job s" "mem kB" "fail/skip/boots: tune check"
	for d in "$@"; do
		# other_pct per boot from the console logs, as "ARCH TOPOLOGY
		# KERNEL BOOT SETUP VALUE" lines, then runs.csv.
		awk -F, -f "$SCRIPTS_DIR/stats.awk" -f /dev/stdin -v margin="$margin_pct" -v other_max="$other_max" \
			-v rank_chance="$rank_chance" \
			-v data="$(basename "$d")" <(other_pct_lines "$d/logs") "$d/runs.csv" <<'AWK'
		# The selftest's signed_rank_sum() and signed_rank_chance().
		function signed_rank_sum(d, n,   i, j, w, below, equal, a) {
			w = 0
			for (i = 1; i <= n; i++) {
				if (d[i] <= 0) continue
				below = equal = 0
				for (j = 1; j <= n; j++) {
					a = d[j] < 0 ? -d[j] : d[j]
					below += a < d[i]; equal += a == d[i]
				}
				w += below + (equal + 1) / 2
			}
			return w
		}
		function signed_rank_chance(n, w,   count, i, sum, top, above, c) {
			count[0] = 1
			top = 0
			for (i = 1; i <= n; i++) {
				for (sum = top; sum >= 0; sum--)
					count[sum + i] += count[sum]
				top += i
			}
			above = 0
			for (sum = top; sum >= w; sum--) above += count[sum]
			c = 1
			for (i = 1; i <= n; i++) c /= 2
			return above * c
		}
		function other_median(b, setup,   a, i) {
			for (i = 1; i <= n_other[b, setup]; i++) a[i] = other[b, setup, i]
			return median(a, n_other[b, setup])
		}
		function boot_median(b, setup, col,   a, i) {
			for (i = 1; i <= n_runs[b, setup]; i++) a[i] = v[b, setup, col, i]
			return median(a, n_runs[b, setup])
		}
		# other_pct lines from the logs (no commas in them)
		NF == 1 {
			split($0, o, " ")
			if (o[1] == "arch") next
			ob = o[1] " " o[2] " " o[3] SUBSEP o[4]
			if (o[5] == "cost") {
				job_s[ob] = o[6]; mem_kb[ob] = o[7]
				next
			}
			other[ob, o[5], ++n_other[ob, o[5]]] = o[6]
			next
		}
		$1 == "arch" { next }
		{
			k = $1 " " $2 " " $3
			b = k SUBSEP $4
			if (!(b in seen)) { seen[b] = 1; boots[k]++; boot[k, boots[k]] = b }
			if (!(k in kseen)) { kseen[k] = 1; order[++nk] = k }
			i = ++n_runs[b, $5]
			v[b, $5, "loops", i] = $7; v[b, $5, "idle", i] = $8; v[b, $5, "remote", i] = $9
			remote[b, $5, $6] = $9
			if ($6 > rounds[b]) rounds[b] = $6
		}
		END {
			for (r = 1; r <= nk; r++) {
				k = order[r]
				n = no = nc = tune = check = tune_skip = check_skip = 0
				rmin = 1e9; rmax = -1
				for (i = 1; i <= boots[k]; i++) {
					b = boot[k, i]
					if (!n_runs[b, "cgroup"] || !n_runs[b, "session"]) continue
					n++
					# Per round, the two setups' runs ran back to back.
					more = 0
					for (j = 1; j <= rounds[b]; j++) {
						pd[j] = remote[b, "cgroup", j] - remote[b, "session", j]
						more += pd[j] > 0
					}
					rd[n] = median(pd, rounds[b])
					if (more < rmin) rmin = more
					if (more > rmax) rmax = more
					id[n] = boot_median(b, "cgroup", "idle") - boot_median(b, "session", "idle")
					lr[n] = boot_median(b, "cgroup", "loops") / boot_median(b, "session", "loops")
					skip = 0
					if (b in job_s) {
						nc++; js[nc] = job_s[b]; mk[nc] = mem_kb[b]
					}
					if (n_other[b, "cgroup"] && n_other[b, "session"]) {
						no++
						od[no] = other_median(b, "cgroup")
						if (other_median(b, "session") > od[no])
							od[no] = other_median(b, "session")
						skip = od[no] > other_max
					}
					# With fewer than 8 rounds the test gives no verdict.
					if (rounds[b] < 8) skip = 1
					fail = !skip && signed_rank_chance(rounds[b],
						signed_rank_sum(pd, rounds[b])) <= rank_chance && rd[n] > margin
					if (i <= int((boots[k] + 1) / 2)) {
						tune += fail; tune_skip += skip
					} else {
						check += fail; check_skip += skip
					}
					delete pd
				}
				if (!n) continue
				split(k, kk, " ")
				printf "%-26s %-7s %-9s %-10s %5d  ", data, kk[1], kk[2], kk[3], n
				sort(rd, n); printf "%6.2f %6.2f %6.2f  ", rd[1], median(rd, n), rd[n]
				printf "%4d %4d       ", rmin, rmax
				sort(id, n); printf "%6.2f %6.2f %6.2f  ", id[1], median(id, n), id[n]
				sort(lr, n); printf "%5.2f %5.2f %5.2f  ", lr[1], median(lr, n), lr[n]
				if (no) {
					sort(od, no); printf "%5.1f %5.1f %5.1f  ", od[1], median(od, no), od[no]
				} else
					printf "%-17s  ", "    -     -     -"
				if (nc)
					printf "%5.1f %6d  ", median(js, nc), median(mk, nc)
				else
					printf "%5s %6s  ", "-", "-"
				printf "%d/%d/%d %d/%d/%d\n", tune, tune_skip, int((boots[k] + 1) / 2),
					check, check_skip, n - int((boots[k] + 1) / 2)
				delete rd; delete id; delete lr; delete od; delete js; delete mk
			}
		}
AWK
	done
}

run_main "$@"
