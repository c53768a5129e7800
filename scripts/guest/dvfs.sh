#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job of a +dvfs kernel (scripts/kernel/harness/emulated-cpufreq.patch):
# first the validation of the emulated DVFS, then the loads of
# scripts/guest/workloads.c under schedutil, in a cpu cgroup of their own,
# one load at a time with the busy and idle time each CPU spent at each
# frequency while it ran. Arguments: SECONDS per load, then the loads.
#
#   @@@ dvfs policies=<n> cpus=<n>
#   @@@ dvfs-work khz=<f> ops=<n>           userspace governor, every OPP:
#                                           work per second of a pinned loop
#   @@@ dvfs-work-again khz=<fmin> ops=<n>  the first OPP once more, last:
#                                           is the first measurement off?
#   @@@ dvfs-concurrent khz=<fmax> ops=<n> ops_other=<n>
#                                           the loop at fmax with a second
#                                           one busy on CPU 0 (-icount runs
#                                           all vCPUs on one instruction
#                                           counter)
#   @@@ dvfs-invariance khz=<f> util_avg=<n> util_avg_fmax=<n>
#                                           the loop's util_avg when it runs
#                                           a quarter of each 20 ms at fmax,
#                                           at f and at fmax
#   @@@ dvfs-schedutil khz=<f> util_avg=<n>  schedutil: its CPU's frequency
#                                           and its util_avg after 2.5 s
#   @@@ dvfs-time load=<l> cpu=<c> khz=<f> busy_us=<n> idle_us=<n>
#   @@@ dvfs-transitions load=<l> policy=<p> n=<n>
seconds=${1:-4}
[ $# -eq 0 ] || shift
loads=$*
stats=/sys/kernel/debug/emulated_cpufreq/stats
cpufreq=/sys/devices/system/cpu/cpufreq
mount -t debugfs debugfs /sys/kernel/debug || exit 1
if [ ! -r $stats ] || [ ! -d $cpufreq/policy0 ]; then
	echo "@@@ dvfs error: no emulated cpufreq (not a +dvfs kernel?)"
	exit 1
fi
cpu=$(($(nproc) - 1))
count() { echo $#; }
echo "@@@ dvfs policies=$(count "$cpufreq"/policy*) cpus=$(nproc)"

governor() {
	for p in "$cpufreq"/policy*; do
		echo "$1" >"$p/scaling_governor" || exit 1
	done
}

# The pinned loop alone on the last CPU: its util_avg after 2.5 s.
loop_util() {
	/guest/dvfs_work $cpu 3 >/dev/null &
	sleep 2.5
	khz=$(cat /sys/devices/system/cpu/cpu$cpu/cpufreq/scaling_cur_freq)
	util=$(awk '/^se.avg.util_avg/ { print $3 }' /proc/$!/sched)
	wait
}

setspeed() {
	for p in "$cpufreq"/policy*; do echo "$1" >"$p/scaling_setspeed"; done
}

governor userspace
# time_in_state lists the table in order, fmin first, on every kernel;
# scaling_available_frequencies is the cpufreq core's own on v7.1.5 but
# must come from the driver on 6.12, and this one has no attributes.
frequencies=$(awk '{ print $1 }' $cpufreq/policy0/stats/time_in_state)
for f in $frequencies; do
	setspeed "$f"
	ops=$(/guest/dvfs_work $cpu 0.5)
	echo "@@@ dvfs-work khz=$f ops=$ops"
done
# The last frequency is fmax. Diagnostics, not checks: the first
# frequency again (the first measurement follows the governor switch),
# and the loop at fmax while a second one keeps CPU 0 busy.
ops_fmax=$ops
f=$(echo "$frequencies" | sed -n 1p)
setspeed "$f"
echo "@@@ dvfs-work-again khz=$f ops=$(/guest/dvfs_work $cpu 0.5)"
f=$(echo "$frequencies" | tail -n 1)
setspeed "$f"
if [ "$cpu" -gt 0 ]; then
	/guest/dvfs_work 0 0.6 >/tmp/ops.other &
	ops=$(/guest/dvfs_work $cpu 0.5)
	wait
	echo "@@@ dvfs-concurrent khz=$f ops=$ops ops_other=$(cat /tmp/ops.other)"
fi
# A quarter of each 20 ms period at fmax.
blocks=$((ops_fmax / 200))
util_fmax=$(/guest/dvfs_work $cpu 2 $blocks | awk '{ print $2 }')
# At the fourth of eight frequencies, about 0.57 fmax.
f=$(echo "$frequencies" | sed -n 4p)
setspeed "$f"
util=$(/guest/dvfs_work $cpu 2 $blocks | awk '{ print $2 }')
echo "@@@ dvfs-invariance khz=$f util_avg=$util util_avg_fmax=$util_fmax"
governor schedutil
sleep 1
loop_util
echo "@@@ dvfs-schedutil khz=$khz util_avg=$util"

echo +cpu >/sys/fs/cgroup/cgroup.subtree_control || exit 1
mkdir /sys/fs/cgroup/bench || exit 1
rc=0
for load in $loads; do
	cat $stats >/tmp/dvfs.before
	for p in "$cpufreq"/policy*; do
		echo "${p##*/} $(cat "$p/stats/total_trans")"
	done >/tmp/trans.before
	/guest/workloads --seconds "$seconds" --cgroup /sys/fs/cgroup/bench "$load" || rc=1
	awk -v load="$load" 'NR == FNR { busy[$1, $2] = $3; idle[$1, $2] = $4; next }
		{ printf "@@@ dvfs-time load=%s cpu=%s khz=%s busy_us=%d idle_us=%d\n",
			load, $1, $2, $3 - busy[$1, $2], $4 - idle[$1, $2] }' /tmp/dvfs.before $stats
	for p in "$cpufreq"/policy*; do
		echo "${p##*/} $(cat "$p/stats/total_trans")"
	done | awk -v load="$load" 'NR == FNR { n[$1] = $2; next }
		{ printf "@@@ dvfs-transitions load=%s policy=%s n=%d\n", load, $1, $2 - n[$1] }' \
		/tmp/trans.before -
done
rmdir /sys/fs/cgroup/bench
exit $rc
