#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the selftest many times on this machine's own kernel, quiet or with
# a competing load, and count its verdicts: the false-fail rate on a real
# host.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/..
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [options]

Build fork_placement_test from selftests/sched/ (in kernel-tree.sh's
kselftest tree) and run it R times on this machine's kernel, holding
the machine lock; writes DIR/host-runs.csv and DIR/logs/. Exits 1 when a
run failed, bailed out or gave no verdict, 4 when the test skipped.
  --runs R        runs (default 30)
  --load none|cpu|external
                  none (default), a busy loop in the root cgroup, or a
                  load of your own meanwhile (the lock is not taken then)
  --out DIR       results directory (default results/host-<timestamp>)
USAGE
}

runs_loop() {
	local runs=$1 load=$2 out=$3 bin=$4 r rc verdict
	[ "$load" != cpu ] || start_hog
	echo "run,load,exit,verdict,placement,idle,throughput" >"$out/host-runs.csv"
	for r in $(seq "$runs"); do
		rc=0
		"$bin" >"$out/logs/run-$r.log" 2>&1 || rc=$?
		verdict=$("$SCRIPTS_DIR/parse-console.sh" --verdict "$out/logs/run-$r.log" host "$load" "$(uname -r)" "$r")
		verdict=${verdict#host,"$load","$(uname -r)","$r",}
		echo "$r,$load,$rc,${verdict##*,},${verdict%,*}" >>"$out/host-runs.csv"
		log "run $r/$runs ($load): exit $rc, $verdict; $(grep -E '^# (remote|idle [0-9]|[0-9]+ loops)' \
			"$out/logs/run-$r.log" | tr '\n' ' ')"
	done
	stop_hog
}

main() {
	local runs=30 load=none out="" wt ksft bin
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--runs) runs=${2:-}; shift 2 || usage_error "--runs needs a value" ;;
		--load) load=${2:-}; shift 2 || usage_error "--load needs a value" ;;
		--out) out=${2:-}; shift 2 || usage_error "--out needs a value" ;;
		*) usage_error "unknown argument $1" ;;
		esac
	done
	positive_option --runs "$runs"
	case "$load" in none | cpu | external) ;; *) usage_error "--load is none, cpu or external" ;; esac
	[ "$(id -u)" -eq 0 ] || die "the selftest needs root"
	[ -n "$out" ] || out=$PROJECT_DIR/results/host-$(date +%Y%m%d-%H%M%S)
	[ ! -e "$out/host-runs.csv" ] || usage_error "$out already holds results"
	mkdir -p "$out/logs"

	wt=$("$SCRIPTS_DIR/kernel-tree.sh" kselftest)
	ksft=$BUILD_DIR/host-kselftest
	log "building the selftest for this host"
	make -C "$wt/tools/testing/selftests" TARGETS=sched O="$ksft" >"$out/build.log" 2>&1 ||
		die "selftest build failed; log: $out/build.log"
	bin=$ksft/kselftest/sched/fork_placement_test
	[ -x "$bin" ] || die "no $bin after the selftest build; log: $out/build.log"
	trap stop_hog EXIT
	if [ "$load" = external ]; then
		runs_loop "$runs" "$load" "$out" "$bin"
	else
		with_machine_lock runs_loop "$runs" "$load" "$out" "$bin"
	fi
	awk -F, 'NR > 1 { n[$4]++; total++ }
		END {
			printf "%d runs:", total
			for (v in n) printf " %d %s", n[v], v
			print ""
			if (n["skip"] == total) exit 4
			exit n["ok"] != total
		}' "$out/host-runs.csv"
}

run_main "$@"
