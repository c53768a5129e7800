#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job: the selftest's cleanup on cgroup v2. Each case stops or
# breaks a run and checks that no process, zombie or cgroup is left and
# that the caller's cgroup and session did not change. Prints
# "@@@ cleanup ok|not ok CASE".
test=/kselftest/sched/fork_placement_test
my_cgroup=$(cat /proc/self/cgroup)
my_session=$(cut -d' ' -f6 /proc/self/stat)

leftovers() {
	for d in /sys/fs/cgroup/fork_placement_test.*; do
		[ -e "$d" ] && { echo "cgroup left: $d"; return 1; }
	done
	# Any process other than this shell's own tree is a leftover; init
	# (pid 1) runs us, so our children are the only other tasks.
	for s in /proc/[0-9]*/stat; do
		pid=${s#/proc/}
		pid=${pid%/stat}
		case "$pid" in 1 | "$$") continue ;; esac
		state=$(cut -d' ' -f3 "$s" 2>/dev/null) || continue
		comm=$(cut -d' ' -f2 "$s" 2>/dev/null)
		ppid=$(cut -d' ' -f4 "$s" 2>/dev/null)
		# kernel threads have no command line
		[ -n "$(tr -d '\0' <"/proc/$pid/cmdline" 2>/dev/null)" ] || continue
		[ "$ppid" = "$$" ] && continue	# our own pipeline helpers
		echo "process left: $pid $comm state $state"
		return 1
	done
	[ "$(cat /proc/self/cgroup)" = "$my_cgroup" ] || { echo "cgroup changed"; return 1; }
	[ "$(cut -d' ' -f6 /proc/self/stat)" = "$my_session" ] || { echo "session changed"; return 1; }
}

report() {
	if [ "$1" = 0 ] && leftovers; then
		echo "@@@ cleanup ok $2"
	else
		echo "@@@ cleanup not ok $2"
	fi
}

# stopped SIGNAL: a run stopped half-way must fail and leave nothing.
stopped() {
	$test -t 5 -r 2 >/tmp/out 2>&1 &
	pid=$!
	sleep 3
	kill -s "$1" $pid
	wait $pid
	rc=$?
	grep -q "stopped by signal" /tmp/out && [ $rc = 1 ]
	report $? "$1 mid-run"
}
stopped INT
stopped TERM

# busybox's timeout, as the kselftest runner calls it here.
timeout 3 $test -t 10 -r 1 >/tmp/out 2>&1
grep -q "stopped by signal 15" /tmp/out
report $? "the runner's timeout kill"

# fork() fails with EAGAIN, an early error: the pids controller leaves
# no room for a worker. (Workers move to the test's own cgroup at once,
# so on cgroup v2 a limit here cannot reach their children; the host
# test does that on a v1 pids hierarchy.)
echo +pids >/sys/fs/cgroup/cgroup.subtree_control
mkdir /sys/fs/cgroup/eagain
echo 1 >/sys/fs/cgroup/eagain/pids.max
sh -c 'echo $$ >/sys/fs/cgroup/eagain/cgroup.procs; exec '"$test"' -t 2 -r 1 -n 4' >/tmp/out 2>&1
rc=$?
rmdir /sys/fs/cgroup/eagain
[ $rc = 1 ] && grep -q "fork: Resource temporarily unavailable" /tmp/out
report $? "fork failing with EAGAIN before the first worker"
