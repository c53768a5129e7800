#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Turn one guest console log of the selftest into CSV rows.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] --runs|--verdict CONSOLE_LOG ARCH TOPOLOGY KERNEL BOOT

--runs     a row per run: ARCH,TOPOLOGY,KERNEL,BOOT,setup,round,
           loops_per_s,idle_pct,remote_pct
--verdict  a row per boot: ARCH,TOPOLOGY,KERNEL,BOOT,placement,idle,
           throughput,test; the checks ok, fail, skip, missing or "-"
           (none since the 10-round form); test: ok or fail (the only
           verdicts), figures (-s), skip, busy (skipped: its CPUs did not
           compute at once), bailout, timeout, splat, panic or missing
USAGE
}

main() {
	case "${1:-}" in
	-h | --help) usage; exit 0 ;;
	--runs | --verdict) ;;
	*) usage >&2; exit 2 ;;
	esac
	[ $# -eq 6 ] || usage_error "expected a mode and 5 arguments"
	local mode=$1 log=$2 outcome
	shift 2
	[ -r "$log" ] || usage_error "cannot read $log"
	# Where the kernel was at fault the boot's outcome is the verdict.
	outcome=$(boot_outcome "$log")
	# The console may carry \r; kselftest's runner prefixes "# " to the
	# test's own lines, a direct run (--args) does not. A test line is
	# "ok N NAME" or "ok N # SKIP NAME".
	tr -d '\r' <"$log" | console_awk -v mode="$mode" -v key="$1,$2,$3,$4" -v boot="${outcome%% *}" '
		function all_skipped(   c) {
			for (c in check)
				if (check[c] != "skip")
					return 0
			return 1
		}
		# A check the test printed, "-" for one it no longer has.
		function check_result(name) {
			if (name in check)
				return check[name]
			return nchecks == 1 && ("placement" in check) ? "-" : "missing"
		}
		function result(line) {
			if (line ~ /# SKIP/) return "skip"
			return line ~ /not ok/ ? "fail" : "ok"
		}
		# The runner runs the whole sched collection: what it prints of
		# another test (cs_prctl_test skips, say) is not ours. A
		# section begins with "# selftests: sched: NAME".
		/^# selftests: sched: / { section = $NF }
		section != "" && section != "fork_placement_test" && !/^(not )?ok [0-9]+ selftests: / { next }
		mode == "--runs" && /^(# )?# run setup=/ {
			printf "%s,%s,%s,%s,%s,%s\n", key, kv("setup"), kv("round"),
				kv("loops_per_s"), kv("idle_pct"), kv("remote_pct")
		}
		/^(# )?(not )?ok [0-9]+ (# SKIP )?placement parity$/  { check["placement"] = result($0) }
		/^(# )?(not )?ok [0-9]+ (# SKIP )?idle parity$/       { check["idle"] = result($0) }
		/^(# )?(not )?ok [0-9]+ (# SKIP )?throughput parity$/ { check["throughput"] = result($0) }
		# The runner: "ok 1 selftests: sched: fork_placement_test [# SKIP]",
		# "not ok 1 selftests: ... # TIMEOUT 120 seconds".
		/^(not )?ok [0-9]+ selftests: sched: fork_placement_test/ {
			runner = /# TIMEOUT/ ? "timeout" : result($0)
		}
		# ksft_exit_skip() before the plan; the selftest says so in
		# these words where its CPUs did not compute at once.
		/^(# )?1\.\.0 # SKIP/ { skipped = /# SKIP the test.s CPUs do not compute at once / ? "busy" : "skip" }
		# ... or, after the plan, where they no longer did after the rounds.
		/^(# )?# the test.s CPUs do not compute at once after the rounds/ { late_busy = 1 }
		/^(# )?Bail out!/ { bailout = 1 }
		/^(# )?# Totals:/ { totals = $0 }
		END {
			if (mode != "--verdict")
				exit
			nchecks = 0
			for (c in check) nchecks++
			test = "missing"
			if (runner == "timeout")	# its SIGTERM also makes a bail-out
				test = "timeout"
			else if (bailout)
				test = "bailout"
			else if (skipped != "")
				test = skipped
			else if (late_busy && nchecks && all_skipped())
				test = "busy"
			else if (runner == "skip")
				test = "skip"
			else if (nchecks && all_skipped())
				test = "figures"
			else if (runner != "")
				test = runner
			else if (nchecks && totals != "")	# run directly
				test = (totals ~ / fail:0 / && totals !~ / pass:0 /) ? "ok" : "fail"
			if (boot == "splat" || boot == "panic")
				test = boot
			printf "%s,%s,%s,%s,%s\n", key, check_result("placement"),
				check_result("idle"), check_result("throughput"), test
		}
	'
}

run_main "$@"
