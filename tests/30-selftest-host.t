#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The selftest on this machine's own kernel: built and run the kselftest
# way, its options, its skips, and its cleanup on every way out.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 13

KSELFTEST_TREE=$("$SCRIPTS_DIR/kernel-tree.sh" kselftest)
KSFT=$TEST_TMP/kselftest
BIN=$KSFT/kselftest/sched/fork_placement_test

check "builds with make -C tools/testing/selftests TARGETS=sched" \
	make -C "$KSELFTEST_TREE/tools/testing/selftests" TARGETS=sched O="$KSFT"

help_works() { "$BIN" -h | grep -q '^usage:'; }
check "-h prints usage and exits 0" help_works
check "a bad option prints usage on stderr and fails" \
	fails_with 1 "usage:" "$BIN" -t zero

not_root_skips() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" -t 1 -r 1
}
check "skips (exit 4) when not root" fails_with 4 "needs root" not_root_skips

# leftovers: our cgroups, our processes, and whether we moved the caller.
leftovers() {
	local cg
	for cg in /sys/fs/cgroup /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
		if compgen -G "$cg/fork_placement_test.*" >/dev/null; then
			echo "cgroup left: $(compgen -G "$cg/fork_placement_test.*")"
			return 1
		fi
	done
	if pgrep -f "$BIN" >/dev/null; then
		echo "processes left:"
		pgrep -af "$BIN"
		return 1
	fi
	[ "$(cat /proc/$$/cgroup)" = "$CALLER_CGROUP" ] || { echo "caller's cgroup changed"; return 1; }
	[ "$(ps -o sid= $$)" = "$CALLER_SID" ] || { echo "caller's session changed"; return 1; }
}
CALLER_CGROUP=$(cat /proc/$$/cgroup)
CALLER_SID=$(ps -o sid= $$)

# The cleanup checks run one setup (-s cgroup: figures, no verdict), so
# that neither a host whose CPUs do not compute at once (this machine's
# own vCPUs have measured below 0.70 of one alone) nor one
# without autogroup makes the test skip before it has cgroups to tidy.
# stopped_by SIGNAL: stop a run mid-way; it must fail and leave nothing.
stopped_by() {
	local rc=0 pid
	"$BIN" -s cgroup -t 5 -r 2 >"$TEST_TMP/stopped.out" 2>&1 &
	pid=$!
	sleep 3
	kill -s "$1" "$pid"
	wait "$pid" || rc=$?
	cat "$TEST_TMP/stopped.out"
	[ "$rc" -eq 1 ] && grep -q "stopped by signal" "$TEST_TMP/stopped.out" && leftovers
}

# The test runs here when it does not skip before its plan (one round is
# too few for a verdict: that skip comes after it).
host_can_run() { ! "$BIN" -s cgroup -t 1 -r 1 2>&1 | grep -q '^1\.\.0 # SKIP'; }
if [ "$(id -u)" -ne 0 ] || ! host_can_run; then
	for t in "SIGINT" "SIGTERM" "SIGPIPE" "the runner's timeout" "fork failing with EAGAIN in the workers" \
		"fork failing with EAGAIN while starting workers" "make run_tests" "prove"; do
		skip_test "cleanup after $t" "the test skips on this machine"
	done
	exit 0
fi

check "SIGINT mid-run: fails, leaves no task or cgroup" stopped_by INT
check "SIGTERM mid-run: fails, leaves no task or cgroup" stopped_by TERM

# A reader that goes away (here head, after three lines): the test's next
# write raises SIGPIPE, which must end the run the same way.
reader_gone() {
	local rc
	"$BIN" -s cgroup -t 2 -r 2 2>&1 | head -n 3
	rc=${PIPESTATUS[0]}
	echo "exit status $rc"
	[ "$rc" -eq 1 ] && leftovers
}
check "SIGPIPE (its reader gone): fails, leaves no task or cgroup" reader_gone

runner_timeout() {
	# What kselftest's runner does when its timeout expires.
	fails_with 124 "stopped by signal 15" timeout 3 "$BIN" -s cgroup -t 10 -r 1 && leftovers
}
check "the runner's timeout kill: leaves no task or cgroup" runner_timeout

# eagain PIDS_MAX WORKERS: fork() fails with EAGAIN once the v1 pids
# controller's limit is reached; the run must fail and leave nothing.
eagain() {
	local pids=/sys/fs/cgroup/pids/fork_placement_eagain.$$ rc=0
	mkdir "$pids"
	echo "$1" >"$pids/pids.max"
	bash -c 'echo $$ >"$1/cgroup.procs" && exec "$2" -s cgroup -t 2 -r 1 -n "$3"' _ "$pids" "$BIN" "$2" \
		>"$TEST_TMP/eagain.out" 2>&1 || rc=$?
	rmdir "$pids"
	cat "$TEST_TMP/eagain.out"
	[ "$rc" -eq 1 ] && grep -q "fork: Resource temporarily unavailable" "$TEST_TMP/eagain.out" &&
		leftovers
}
if [ -w /sys/fs/cgroup/pids/cgroup.procs ]; then
	# Room for the test and 2 workers: their children cannot be forked.
	check "fork failing with EAGAIN in the workers: fails, leaves nothing" eagain 3 2
	# Room for the test and 1 worker: the second worker cannot be forked.
	check "fork failing with EAGAIN while starting workers: fails, leaves nothing" eagain 2 4
else
	skip_test "fork failing with EAGAIN in the workers" "no cgroup v1 pids hierarchy here"
	skip_test "fork failing with EAGAIN while starting workers" "no cgroup v1 pids hierarchy here"
fi

# The whole default run, as kselftest runs it. Its verdict is not ours to
# assert on a machine we do not control (other load, a kernel with or
# without the defect): it must run, report its check by its stable name
# in valid TAP, and leave nothing behind.
run_tests() {
	local out=$TEST_TMP/run_tests.out
	make -C "$KSELFTEST_TREE/tools/testing/selftests" TARGETS=sched O="$KSFT" run_tests \
		>"$out" 2>&1 || true
	grep 'fork_placement_test\|parity' "$out"
	# kselftest's runner ends a failed test's line with "# exit=N".
	grep -Eq '^(not )?ok [0-9]+ selftests: sched: fork_placement_test( # SKIP| # exit=1)?$' "$out" &&
		{ grep -q '^ok [0-9]* selftests: sched: fork_placement_test # SKIP$' "$out" ||
		  [ "$(grep -Ec '^# (not )?ok 1 placement parity$' "$out")" -eq 1 ]; } &&
		leftovers
}
check "make ... TARGETS=sched run_tests runs it: valid TAP, stable names, nothing left" run_tests

# prove_parses PROG ARGS...: TAP::Harness reads PROG's output as valid
# TAP, one result as planned, no parse error. As above, the verdict
# itself is not asserted: a failed check is valid TAP (exit status 1),
# and so is the check skipped after the plan because other work shared
# the CPUs (exit status 4), as on a machine busy with something else, or
# the whole test skipped before it (exit status 4, no plan of 1), as
# where the CPUs do not compute at once.
prove_parses() {
	local out=$TEST_TMP/prove.out
	prove -v --exec '' "$@" >"$out" 2>&1 || true
	cat "$out"
	! grep -q 'Parse errors' "$out" || return 1
	if grep -q '^Files=1, Tests=1,' "$out"; then
		grep -q '^Result: PASS$' "$out" || grep -q 'Non-zero exit status: 1$' "$out" ||
			{ grep -q 'Non-zero exit status: 4$' "$out" &&
			  grep -q '^ok 1 # SKIP placement parity$' "$out"; }
	else
		grep -q '^Files=1, Tests=0,' "$out" && grep -q '\.\. skipped: ' "$out" &&
			grep -q 'Non-zero exit status: 4$' "$out"
	fi
}
# The check itself, on a stand-in that plans 2 results and reports 1.
bad_plan_rejected() {
	local fake=$TEST_TMP/bad_plan.sh
	printf '#!/bin/sh\necho "TAP version 13"\necho "1..2"\necho "ok 1 placement parity"\n' >"$fake"
	chmod +x "$fake"
	! prove_parses "$fake"
}
prove_run() {
	prove_parses "$BIN" :: -t 1 -r 8 && bad_plan_rejected && leftovers
}
check "prove parses its TAP (any verdict), and the check rejects a bad plan" prove_run

# The test's other-work figure sums /proc/stat's lines of its CPUs; the
# all-CPU line ("cpu  1 ...", whose first number a "cpu%d" scan reads
# as a CPU) must not count, also where that number is one of them.
stat_reader() {
	local prog=$TEST_TMP/stat_reader stat=$TEST_TMP/stat out
	gcc -O2 -Wall -Wno-unused-function -I"$KSELFTEST_TREE/tools/testing/selftests/sched" \
		-o "$prog" "$PROJECT_DIR/tests/fixtures/stat_reader.c" || return 1
	printf 'cpu  1 0 0 2 0 0 0 0 0 0\ncpu0 10 0 0 30 0 0 0 0 0 0\ncpu1 20 0 0 40 0 0 0 0 0 0\nintr 0\n' >"$stat"
	# shellcheck disable=SC2016 # $1 and $2 are the inner shell's
	out=$(unshare -m sh -c 'mount --bind "$1" /proc/stat && "$2"' sh "$stat" "$prog") || return 1
	echo "idle total: $out (70 100 wanted)"
	[ "$out" = "70 100" ]
}
check "the /proc/stat reader counts the CPUs' lines, not the all-CPU line" stat_reader

[ "$TEST_FAILED" -eq 0 ]
