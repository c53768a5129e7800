#!/bin/sh
# EXPERIMENT, not for commit: the parallel check alone, with the
# interrupts taken during it.
cpu=$(($(nproc) - 1))
# At fmax under the userspace governor, as dvfs.sh's job compares, where
# the driver is there: no frequency changes, only its timer.
cpufreq=/sys/devices/system/cpu/cpufreq
for p in "$cpufreq"/policy*; do
	[ -d "$p" ] || continue
	echo userspace >"$p/scaling_governor"
	tail -n 1 "$p/stats/time_in_state" | cut -d' ' -f1 >"$p/scaling_setspeed"
	echo "@@@ partest-policy ${p##*/} $(cat "$p/scaling_governor") $(cat "$p/scaling_cur_freq")"
done
echo "@@@ partest-clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
for r in 1 2; do
	grep -E 'LOC|arch_timer|TLB|CAL|RES' /proc/interrupts | tr -s ' ' >/tmp/irq.before
	t0=$(cut -d' ' -f1 /proc/uptime)
	/guest/dvfs_work $cpu parallel 0 40 | {
		read -r a
		read -r b
		echo "@@@ partest r=$r cpu$cpu=$a cpu0=$b"
	}
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "@@@ partest-time r=$r s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
	grep -E 'LOC|arch_timer|TLB|CAL|RES' /proc/interrupts | tr -s ' ' | while read -r line; do
		echo "@@@ irq-after r=$r $line"
	done
	while read -r line; do echo "@@@ irq-before r=$r $line"; done </tmp/irq.before
done
