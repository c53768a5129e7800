#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Turn one guest console log of the selftest into CSV rows.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] --runs|--verdict CONSOLE_LOG ARCH TOPOLOGY KERNEL BOOT

--runs     one row per run: ARCH,TOPOLOGY,KERNEL,BOOT,setup,round,
           loops_per_s,idle_pct,remote_pct
--verdict  one row per boot: ARCH,TOPOLOGY,KERNEL,BOOT,placement,idle,
           throughput,test (each ok, fail, skip or missing)
USAGE
}

main() {
	case "${1:-}" in
	-h | --help) usage; exit 0 ;;
	--runs | --verdict) ;;
	*) usage >&2; exit 2 ;;
	esac
	[ $# -eq 6 ] || usage_error "expected a mode and 5 arguments"
	local mode=$1 log=$2
	shift 2
	[ -r "$log" ] || usage_error "cannot read $log"
	# The console may carry \r; kselftest's runner prefixes "# ".
	tr -d '\r' <"$log" | awk -v mode="$mode" -v key="$1,$2,$3,$4" '
		function field(name,   i) {
			for (i = 1; i <= NF; i++)
				if (index($i, name "=") == 1)
					return substr($i, length(name) + 2)
			return ""
		}
		function verdict(line) {
			if (line ~ /SKIP/) return "skip"
			return line ~ /not ok/ ? "fail" : "ok"
		}
		mode == "--runs" && / run setup=/ {
			printf "%s,%s,%s,%s,%s,%s\n", key, field("setup"), field("round"),
				field("loops_per_s"), field("idle_pct"), field("remote_pct")
		}
		/ok [0-9]+ placement parity/  { check["placement"] = verdict($0) }
		/ok [0-9]+ idle parity/       { check["idle"] = verdict($0) }
		/ok [0-9]+ throughput parity/ { check["throughput"] = verdict($0) }
		/^(# )?(not )?ok [0-9]+ selftests: sched: fork_placement_test/ { test = verdict($0) }
		/^# Totals:/ && test == "" { total = $0 }
		END {
			if (mode != "--verdict")
				exit
			if (test == "" && total != "")	# run directly, not by the runner
				test = (total ~ / fail:0 /) ? "ok" : "fail"
			if (check["placement"] == "skip" && check["idle"] == "skip" &&
			    check["throughput"] == "skip")
				test = "skip"	# -s: one setup, figures only
			printf "%s,%s,%s,%s,%s\n", key,
				check["placement"] ? check["placement"] : "missing",
				check["idle"] ? check["idle"] : "missing",
				check["throughput"] ? check["throughput"] : "missing",
				test ? test : "missing"
		}
	'
}

main "$@"
