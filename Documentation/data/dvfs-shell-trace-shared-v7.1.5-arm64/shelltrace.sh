#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Temporary experiment job (issue 33): the shell load of workloads.c under
# schedutil in a cpu cgroup, as scripts/guest/dvfs.sh runs it, with
# trace events counted: children placed on another CPU than their
# parent's (sched_wakeup_new), task migrations (sched_migrate_task, exec
# balancing included), exits (sched_process_exit) and frequency changes
# (power:cpu_frequency, with the requested frequencies). Args: SECONDS.
seconds=${1:-3}
t=/sys/kernel/tracing
stats=/sys/kernel/debug/emulated_cpufreq/stats
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs $t 2>/dev/null
echo "@@@ shelltrace governor=$(cat /sys/devices/system/cpu/cpufreq/policy0/scaling_governor) policies=$(ls -d /sys/devices/system/cpu/cpufreq/policy* | wc -l)"
echo +cpu >/sys/fs/cgroup/cgroup.subtree_control || exit 1
mkdir /sys/fs/cgroup/bench || exit 1
echo 8192 >$t/buffer_size_kb
for e in sched/sched_wakeup_new sched/sched_migrate_task sched/sched_process_exit power/cpu_frequency; do
	echo 1 >$t/events/$e/enable || exit 1
done
cat $stats >/tmp/before
echo 1 >$t/tracing_on
/guest/workloads --seconds "$seconds" --cgroup /sys/fs/cgroup/bench shell || exit 1
echo 0 >$t/tracing_on
cat $stats >/tmp/after
awk 'NR == FNR { b[$1, $2] = $3; next }
	{ printf "@@@ time cpu=%s khz=%s busy_us=%d\n", $1, $2, $3 - b[$1, $2] }' /tmp/before /tmp/after
grep -c . $t/per_cpu/cpu0/trace >/dev/null
cat $t/trace | awk '
	/sched_wakeup_new:/ {
		match($0, /\[[0-9]+\]/); cpu = substr($0, RSTART + 1, RLENGTH - 2) + 0
		match($0, /target_cpu=[0-9]+/); tgt = substr($0, RSTART + 11, RLENGTH - 11) + 0
		new++; if (cpu != tgt) remote++
	}
	/sched_migrate_task:/ { mig++ }
	/sched_process_exit:/ { ex++ }
	/cpu_frequency:/ {
		match($0, /state=[0-9]+/); st = substr($0, RSTART + 6, RLENGTH - 6)
		fq++; hist[st]++
	}
	/LOST|lost/ { lost++ }
	END {
		printf "@@@ trace forks=%d remote=%d migrations=%d exits=%d freq_events=%d lost=%d\n", new, remote, mig, ex, fq, lost
		for (s in hist) printf "@@@ freq state=%s n=%d\n", s, hist[s]
	}'
rmdir /sys/fs/cgroup/bench
