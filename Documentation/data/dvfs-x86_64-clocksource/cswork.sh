#!/bin/sh
# EXPERIMENT: does the tsc-early -> tsc switch, when it falls inside the
# first work comparison at fmin, spoil it? The comparison of dvfs.sh's job
# (dvfs_work ratio at fmin, 15 rounds) three times in a row from the job's
# start, each with its start and end uptime, then the switch's time.
cpu=$(($(nproc) - 1))
cpufreq=/sys/devices/system/cpu/cpufreq
for p in "$cpufreq"/policy*; do echo userspace >"$p/scaling_governor"; done
frequencies=$(awk '{ print $1 }' $cpufreq/policy0/stats/time_in_state)
fmin=$(echo "$frequencies" | sed -n 1p)
fmax=$(echo "$frequencies" | tail -n 1)
for i in 1 2 3; do
	t0=$(cut -d' ' -f1 /proc/uptime)
	r=$(/guest/dvfs_work $cpu ratio "$fmin" "$fmax" 15)
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "@@@ cswork i=$i t0=$t0 t1=$t1 cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource) ratio=$r"
done
dmesg | grep -E 'Switched to clocksource|Marking TSC|tsc: Refined' | while read -r l; do echo "@@@ dmesg $l"; done
