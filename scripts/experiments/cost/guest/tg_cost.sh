#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job: what the selftest's task groups cost with this many possible
# CPUs. A task group has a cfs_rq and a sched_entity per possible CPU,
# so the selftest's (one cgroup and one autogroup per worker) grow with
# workers x possible CPUs. Prints "@@@ tg_cost" lines: the selftest's own
# peak and wall time, with its default CPU bound and, with -c 1024,
# without it, and the kernel memory (Slab + Percpu of /proc/meminfo)
# that 64 cpu cgroups take, per cgroup.
test=/kselftest/sched/fork_placement_test
cg=/sys/fs/cgroup

# kernel_kb: Slab + Percpu, in kB.
kernel_kb() {
	awk '/^(Slab|Percpu):/ { kb += $2 } END { print kb }' /proc/meminfo
}

echo "@@@ tg_cost possible=$(cat /sys/devices/system/cpu/possible) online=$(cat /sys/devices/system/cpu/online)"

# run NAME ARGS...: the selftest with ARGS; its peak kernel memory over
# the idle machine's, sampled every 0.2 s, and its wall time.
run() {
	name=$1
	shift
	base=$(kernel_kb)
	start=$(date +%s)
	"$test" "$@" >/tmp/run.out 2>&1 &
	pid=$!
	peak=$base
	while kill -0 $pid 2>/dev/null; do
		now=$(kernel_kb)
		[ "$now" -le "$peak" ] || peak=$now
		sleep 0.2
	done
	wait $pid
	rc=$?
	end=$(date +%s)
	grep -E '^# [0-9]+ workers on' /tmp/run.out
	echo "@@@ tg_cost run=$name exit=$rc peak_kernel_kb=$((peak - base)) wall_s=$((end - start))"
}
# The selftest first: the slab and per-CPU memory that the cgroups below
# free would otherwise be there for its task groups to take, and its
# peak would not show.
run default
run unbounded -c 1024
echo +cpu >$cg/cgroup.subtree_control
before=$(kernel_kb)
for i in $(seq 64); do mkdir "$cg/tg_cost.$i"; done
after=$(kernel_kb)
for i in $(seq 64); do rmdir "$cg/tg_cost.$i"; done
echo "@@@ tg_cost cgroups=64 kernel_kb=$((after - before)) per_cgroup_kb=$(((after - before) / 64))"
