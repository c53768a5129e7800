#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job of a +count kernel
# (scripts/experiments/count/count-post-init-and-frequency-requests.patch):
# per phase, the fork + exit + wait loops of workloads' spawn
# (scripts/experiments/bench/guest/workloads.c), as many as the phase
# says, at once, in a cpu cgroup of their own for SECONDS; the kernel's
# counters reset before and read after, and on a +dvfs kernel each CPU's
# busy and idle time per frequency over the phase. Arguments: SECONDS,
# then the phases as NAME=LOOPS, LOOPS a number or Nxcpu (N per CPU);
# default "10 light=1 saturating=2xcpu".
#
#   @@@ count-shape cpus=<n> cpufreq=<yes|no> governor=<g|none>
#   @@@ count phase=<p> loops=<n> <name>=<value> ...
#                                   /sys/kernel/debug/sched_count over the
#                                   phase (the patch's header says what
#                                   each counter sums)
#   @@@ count-rate phase=<p> loops=<n> forks_per_s=<x>
#                                   the loops' forks per second, summed
#   @@@ count-time phase=<p> cpu=<c> khz=<f> busy_us=<n> idle_us=<n>
#                                   +dvfs kernels only, as dvfs-time
seconds=${1:-10}
[ $# -eq 0 ] || shift
phases=${*:-light=1 saturating=2xcpu}
counts=/sys/kernel/debug/sched_count
stats=/sys/kernel/debug/emulated_cpufreq/stats
cgroup=/sys/fs/cgroup/count
mount -t debugfs debugfs /sys/kernel/debug || exit 1
if [ ! -w $counts ]; then
	echo "@@@ count error: no $counts (not a +count kernel?)"
	exit 1
fi
cpus=$(nproc)
governor=$(cat /sys/devices/system/cpu/cpufreq/policy0/scaling_governor 2>/dev/null)
echo "@@@ count-shape cpus=$cpus cpufreq=$([ -r $stats ] && echo yes || echo no) governor=${governor:-none}"
echo +cpu >/sys/fs/cgroup/cgroup.subtree_control || exit 1
mkdir $cgroup || exit 1
rc=0
for phase in $phases; do
	name=${phase%%=*} loops=${phase#*=}
	case "$loops" in *xcpu) loops=$((${loops%xcpu} * cpus)) ;; esac
	case "$name:$loops" in
	:* | *:0 | *:*[!0-9]* | *:)
		echo "@@@ count error: bad phase '$phase'"
		rc=1
		continue
		;;
	esac
	# What the phase before left in the averages decays (PELT halves
	# it every 32 ms).
	sleep 2
	[ ! -r $stats ] || cat $stats >/tmp/count.before
	echo reset >$counts
	pids=""
	i=0
	while [ $i -lt "$loops" ]; do
		/guest/workloads --seconds "$seconds" --cgroup $cgroup --no-debug-file spawn \
			>/tmp/count.loop$i &
		pids="$pids $!"
		i=$((i + 1))
	done
	for pid in $pids; do
		wait "$pid" || rc=1
	done
	# Read at once, with shell builtins only: nothing forks in between.
	line="@@@ count phase=$name loops=$loops"
	while read -r key value; do
		line="$line $key=$value"
	done <$counts
	echo "$line"
	cat /tmp/count.loop* | awk -v phase="$name" -v loops="$loops" '
		/^@@@ bench load=spawn failed/ { failed = 1 }
		/^@@@ bench load=spawn metric=forks / {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^value=/) sum += substr($i, 7)
			n++
		}
		END {
			printf "@@@ count-rate phase=%s loops=%d forks_per_s=%.1f\n", phase, loops, sum
			exit failed || n != loops
		}' || rc=1
	rm -f /tmp/count.loop*
	if [ -r $stats ]; then
		awk -v phase="$name" 'NR == FNR { busy[$1, $2] = $3; idle[$1, $2] = $4; next }
			{ printf "@@@ count-time phase=%s cpu=%s khz=%s busy_us=%d idle_us=%d\n",
				phase, $1, $2, $3 - busy[$1, $2], $4 - idle[$1, $2] }' /tmp/count.before $stats
	fi
done
rmdir $cgroup
exit $rc
