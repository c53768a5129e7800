#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The distributions behind the selftest's margins: per boot, the median
# over rounds of cgroup minus session for remote % and idle %, and the
# ratio of loops/s medians; then, per arch, topology and kernel, their
# minimum, median and maximum over boots, and how many boots each of the
# selftest's checks fails when judged again by its rules as they are now.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] RESULTS_DIR

Read RESULTS_DIR/runs.csv (from verify.sh) and print, per arch, topology
and kernel: boots, and min / median / max over boots of
  remote diff   median remote % (cgroup) - median remote % (session)
  idle diff     median idle % (cgroup) - median idle % (session)
  loops ratio   median loops/s (cgroup) / median loops/s (session)
then the boots that fail placement, idle, throughput and the whole test
by the selftest's rules, with the margins read from its source: remote
diff > $(margin REMOTE_MARGIN_PCT), idle diff > $(margin IDLE_MARGIN_PCT), loops ratio < 1 - $(margin THROUGHPUT_MARGIN) (with at least
$(margin MIN_THROUGHPUT_ROUNDS) rounds), each only when every cgroup round is worse than every
session round. Data recorded with older rules is judged by these, so the
counts can differ from the verdicts the boots printed.
USAGE
}

main() {
	local remote_margin idle_margin loops_margin min_rounds
	case "${1:-}" in
	-h | --help) usage; exit 0 ;;
	esac
	[ $# -eq 1 ] || { usage >&2; exit 2; }
	[ -r "$1/runs.csv" ] || usage_error "$1 has no runs.csv"
	remote_margin=$(margin REMOTE_MARGIN_PCT)
	idle_margin=$(margin IDLE_MARGIN_PCT)
	loops_margin=$(margin THROUGHPUT_MARGIN)
	min_rounds=$(margin MIN_THROUGHPUT_ROUNDS)
	awk -F, -f "$SCRIPTS_DIR/stats.awk" -f /dev/stdin \
		-v remote_margin="$remote_margin" -v idle_margin="$idle_margin" \
		-v loops_margin="$loops_margin" -v min_rounds="$min_rounds" "$1/runs.csv" <<'AWK'
		function boot_median(b, setup, col,   a, i) {
			for (i = 1; i <= n_runs[b, setup]; i++) a[i] = v[b, setup, col, i]
			return median(a, n_runs[b, setup])
		}
		# worse(b, col, sign): every cgroup round worse than every session
		# round (sign 1: higher is worse; -1: lower is worse).
		function worse(b, col, sign,   i, j) {
			for (i = 1; i <= n_runs[b, "cgroup"]; i++)
				for (j = 1; j <= n_runs[b, "session"]; j++)
					if (sign * v[b, "cgroup", col, i] <= sign * v[b, "session", col, j])
						return 0
			return 1
		}
		NR == 1 { next }
		{
			k = $1 " " $2 " " $3
			b = k SUBSEP $4
			if (!(b in seen)) { seen[b] = 1; boots[k]++; boot[k, boots[k]] = b }
			if (!(k in kseen)) { kseen[k] = 1; order[++nk] = k }
			i = ++n_runs[b, $5]
			v[b, $5, "loops", i] = $7; v[b, $5, "idle", i] = $8; v[b, $5, "remote", i] = $9
		}
		END {
			printf "%-7s %-8s %-10s %5s  %-22s %-22s %-23s %s\n", "arch", "topology", "kernel",
				"boots", "remote diff min/med/max", "idle diff min/med/max",
				"loops ratio min/med/max", "fail: placement idle throughput test"
			for (r = 1; r <= nk; r++) {
				k = order[r]
				n = fp = fi = ft = fa = 0
				for (i = 1; i <= boots[k]; i++) {
					b = boot[k, i]
					if (!n_runs[b, "cgroup"] || !n_runs[b, "session"]) continue
					n++
					rc = boot_median(b, "cgroup", "remote"); rs = boot_median(b, "session", "remote")
					ic = boot_median(b, "cgroup", "idle"); is = boot_median(b, "session", "idle")
					lc = boot_median(b, "cgroup", "loops"); ls = boot_median(b, "session", "loops")
					rd[n] = rc - rs; id[n] = ic - is; lr[n] = lc / ls
					# The selftest's own expressions, so that ties at a
					# margin go the same way.
					p = rc > rs + remote_margin && worse(b, "remote", 1)
					d = ic > is + idle_margin && worse(b, "idle", 1)
					t = n_runs[b, "cgroup"] >= min_rounds && lc < ls * (1 - loops_margin) &&
						worse(b, "loops", -1)
					fp += p; fi += d; ft += t; fa += p || d || t
				}
				if (!n) continue
				split(k, kk, " ")
				printf "%-7s %-8s %-10s %5d  ", kk[1], kk[2], kk[3], n
				sort(rd, n); printf "%6.2f %6.2f %6.2f   ", rd[1], median(rd, n), rd[n]
				sort(id, n); printf "%6.2f %6.2f %6.2f   ", id[1], median(id, n), id[n]
				sort(lr, n); printf "%5.2f %5.2f %5.2f   ", lr[1], median(lr, n), lr[n]
				printf "%5d %4d %10d %4d\n", fp, fi, ft, fa
				delete rd; delete id; delete lr
			}
		}
AWK
}

run_main "$@"
