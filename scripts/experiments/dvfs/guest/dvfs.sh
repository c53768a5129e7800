#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job of a +dvfs kernel
# (scripts/experiments/dvfs/emulated-cpufreq.patch): first the validation
# of the emulated DVFS, then the loads of
# scripts/experiments/bench/guest/workloads.c under schedutil, in a cpu
# cgroup of their own, one load at a time with the busy and idle time each
# CPU spent at each frequency while it ran. Arguments: SECONDS per load,
# then the loads. Each comparison of the validation alternates its two
# sides in short windows and reports the median over rounds, so that a
# host whose speed drifts or jumps (multi-threaded TCG runs at the host's
# speed) spoils a round, not the comparison.
#
#   @@@ dvfs policies=<n> cpus=<n>
#   @@@ dvfs-work khz=<f> ratio=<r> low=<r> high=<r>
#                                           userspace governor, every OPP:
#                                           work per second of a pinned
#                                           loop at f over its work at fmax
#   @@@ dvfs-work-fmax khz=<fmax> ops=<n>   the loop's work per second at
#                                           fmax (the loads below are sized
#                                           by it)
#   @@@ dvfs-parallel khz=<fmax> cpu=<c> ratio=<r> low=<r> high=<r>
#                                           the loop on the last CPU and one
#                                           on CPU 0 at once, each over its
#                                           work alone, a line per CPU: 1
#                                           where two CPUs compute in
#                                           parallel
#   @@@ dvfs-invariance khz=<f> ratio=<r> low=<r> high=<r>
#                                           the util_avg of the loop running
#                                           a quarter of each 20 ms at fmax,
#                                           at f over at fmax
#   @@@ dvfs-burst khz=<fmin> ratio=<r> low=<r> high=<r>
#                                           the same for 0.3 ms of fmax
#                                           work every 4 ms, at fmin (a
#                                           burst shorter than the driver's
#                                           period)
#   @@@ dvfs-schedutil khz=<f> util_avg=<n>  schedutil: the loop's CPU's
#                                           frequency and its util_avg, the
#                                           medians of 21 readings
#   @@@ dvfs-clocksource when=<start|parallel|end> name=<clocksource>
#                                           what ktime_get() reads: at the
#                                           start, at the parallel check
#                                           and after the loads
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
clocksource() {
	echo "@@@ dvfs-clocksource when=$1 name=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
}
clocksource start

governor() {
	for p in "$cpufreq"/policy*; do
		echo "$1" >"$p/scaling_governor" || exit 1
	done
}

# The pinned loop alone on the last CPU: after 2 s, the medians of its
# CPU's frequency and of its util_avg over 21 readings (2-3 s on TCG),
# made from CPU 0. One reading is not enough: whatever else ran on the
# loop's CPU in the last milliseconds before it (a kworker) lowers it by
# about 2 % per ms, and a host that takes a vCPU away stretches those
# runs (on a loaded host, single readings down to 983 where the medians
# were 1009-1014: Documentation/data/dvfs-schedutil-reading-arm64/).
loop_util() {
	[ "$cpu" -eq 0 ] || taskset -p -c 0 $$ >/dev/null || exit 1
	/guest/dvfs_work $cpu 30 >/dev/null &
	sleep 2
	for _ in $(seq 21); do
		echo "$(cat /sys/devices/system/cpu/cpu$cpu/cpufreq/scaling_cur_freq)" \
			"$(awk '/^se.avg.util_avg/ { print $3 }' /proc/$!/sched)"
		sleep 0.05
	done >/tmp/loop_util
	kill $!
	wait
	[ "$cpu" -eq 0 ] || taskset -p -c 0-$cpu $$ >/dev/null || exit 1
	khz=$(sort -n -k 1,1 /tmp/loop_util | awk 'NR == 11 { print $1 }')
	util=$(sort -n -k 2,2 /tmp/loop_util | awk 'NR == 11 { print $2 }')
	# A loop that died early: no value rather than a median of fewer.
	[ "$(awk 'NF == 2' /tmp/loop_util | wc -l)" -eq 21 ] || util=
}

setspeed() {
	for p in "$cpufreq"/policy*; do echo "$1" >"$p/scaling_setspeed"; done
}

governor userspace
# time_in_state lists the table in order, fmin first, on every kernel;
# scaling_available_frequencies is the cpufreq core's own on v7.1.5 but
# must come from the driver on 6.12, and this one has no attributes.
frequencies=$(awk '{ print $1 }' $cpufreq/policy0/stats/time_in_state)
fmin=$(echo "$frequencies" | sed -n 1p)
fmax=$(echo "$frequencies" | tail -n 1)
# Each comparison alternates its two sides in short windows, A B A, over
# rounds, and reports the median (and the range) of B / mean(A, A): see
# scripts/experiments/dvfs/guest/dvfs_work.c. ROUNDS_* say how many.
ROUNDS_WORK=15
ROUNDS_PARALLEL=40
ROUNDS_UTIL=5
# rounds_record TAG FIELDS: "@@@ TAG FIELDS ratio=M low=L high=H" of the
# median, lowest and highest dvfs_work printed on a line of stdin.
rounds_record() {
	read -r ratio low high || return 1
	echo "@@@ $1 $2 ratio=$ratio low=$low high=$high"
}
for f in $frequencies; do
	/guest/dvfs_work $cpu ratio "$f" "$fmax" $ROUNDS_WORK | rounds_record dvfs-work "khz=$f"
done
setspeed "$fmax"
ops_fmax=$(/guest/dvfs_work $cpu 0.5)
echo "@@@ dvfs-work-fmax khz=$fmax ops=$ops_fmax"
clocksource parallel
if [ "$cpu" -gt 0 ]; then
	/guest/dvfs_work $cpu parallel 0 $ROUNDS_PARALLEL | {
		rounds_record dvfs-parallel "khz=$fmax cpu=$cpu"
		rounds_record dvfs-parallel "khz=$fmax cpu=0"
	}
fi
# util KHZ BLOCKS PERIOD_MS: the periodic loop's util_avg at KHZ over its
# util_avg at fmax, alternated.
util() {
	/guest/dvfs_work $cpu util "$1" "$fmax" "$2" "$3" $ROUNDS_UTIL
}
# A quarter of each 20 ms period at fmax, at the fourth of eight
# frequencies (about 0.57 fmax).
f=$(echo "$frequencies" | sed -n 4p)
util "$f" $((ops_fmax / 200)) 20 | rounds_record dvfs-invariance "khz=$f"
# 0.3 ms of fmax work every 4 ms, at fmin: a burst shorter than the
# driver's period.
blocks=$((ops_fmax * 3 / 10000))
[ "$blocks" -gt 0 ] || blocks=1
util "$fmin" $blocks 4 | rounds_record dvfs-burst "khz=$fmin"
governor schedutil
# dvfs.rate_limit_us=N on the command line (dvfs.sh --rate-limit-us):
# schedutil's rate limit instead of the one it takes from the driver's
# transition delay (1 ms: the driver sets none), for an ablation.
rate_limit=$(sed -n 's/.*dvfs\.rate_limit_us=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
if [ -n "$rate_limit" ]; then
	for f in "$cpufreq"/schedutil/rate_limit_us "$cpufreq"/policy*/schedutil/rate_limit_us; do
		[ -e "$f" ] || continue
		echo "$rate_limit" >"$f" || exit 1
		echo "@@@ dvfs-rate-limit file=$f us=$(cat "$f")"
	done
fi
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
clocksource end
exit $rc
