#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job: time spent in sched_move_task(), in the dead task's PELT
# bookkeeping (dequeue_task_fair(), task_dead_fair()) and in the removal
# of a task migrated on wakeup (migrate_task_rq_fair()), by ftrace's
# function profiler (callees included, time scheduled out not), while a
# shell in a child cpu cgroup starts CHILDREN short-lived /bin/true
# processes and waits for them; REPEATS times.
# Arguments: CHILDREN REPEATS [FUNCTIONS, comma-separated]. Prints
# "@@@ cost repeat=R wall_s=W" and the profiler's figures.
children=${1:-2000}
repeats=${2:-3}
# The functions, comma-separated.
functions=${3:-sched_move_task,task_dead_fair,dequeue_task_fair,migrate_task_rq_fair}
tracing=/sys/kernel/tracing
mount -t tracefs tracefs $tracing || exit 1
echo "$functions" | tr , ' ' >$tracing/set_ftrace_filter || exit 1
# A function's time without the time its task spent scheduled out inside
# it: sched_move_task() ends in a reschedule, and the exiting task's
# preemption there would count (4.2-4.5 ms per call on every kernel,
# Documentation/data/cost-fast-path-v7.1.5-arm64-dvfs/).
echo 0 >$tracing/options/sleep-time || exit 1
echo +cpu >/sys/fs/cgroup/cgroup.subtree_control
mkdir /sys/fs/cgroup/cost
echo $$ >/sys/fs/cgroup/cost/cgroup.procs

uptime_s() { read -r up _ </proc/uptime; echo "$up"; }

r=1
while [ $r -le "$repeats" ]; do
	echo 1 >$tracing/function_profile_enabled
	t0=$(uptime_s)
	i=0
	while [ $i -lt "$children" ]; do
		/bin/true &
		i=$((i + 1))
	done
	wait
	t1=$(uptime_s)
	echo 0 >$tracing/function_profile_enabled
	echo "@@@ cost repeat=$r wall_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
	for f in "$tracing"/trace_stat/function*; do
		sed -n "s/^ *\([a-z_]*\) \+\([0-9]\+\) \+\([0-9.]\+\) us.*/@@@ profile repeat=$r cpu=${f##*function} func=\1 hits=\2 total_us=\3/p" "$f"
	done
	r=$((r + 1))
done
echo $$ >/sys/fs/cgroup/cgroup.procs
rmdir /sys/fs/cgroup/cost
