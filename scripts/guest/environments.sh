#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job: the selftest where it cannot give a verdict. Each case makes
# one environment of a container or a cut-down kernel, runs the test and
# checks its exit status and reason; nothing may be left behind. Needs a
# boot with noautogroup on the kernel command line (the first two cases).
# Prints "@@@ environment ok|not ok CASE" and the test's output.
test=/kselftest/sched/fork_placement_test
cg=/sys/fs/cgroup

# expect CASE STATUS PATTERN [COMMAND...]: COMMAND (the test, by default)
# exits with a status matching STATUS and prints a line matching PATTERN
# (grep -E); no cgroup of the test's is left.
expect() {
	case_name=$1 want=$2 pattern=$3
	shift 3
	[ $# -gt 0 ] || set -- "$test"
	"$@" >/tmp/out 2>&1
	rc=$?
	sed 's/^/    /' /tmp/out
	ok=true
	echo "$rc" >/tmp/rc
	grep -Eqx "$want" /tmp/rc || { echo "    exit status $rc, want $want"; ok=false; }
	grep -Eq "$pattern" /tmp/out || { echo "    no line matches: $pattern"; ok=false; }
	if [ -n "$(find $cg -name 'fork_placement_test.*' 2>/dev/null)" ]; then
		echo "    cgroup left behind"
		ok=false
	fi
	if $ok; then
		echo "@@@ environment ok $case_name"
	else
		echo "@@@ environment not ok $case_name"
	fi
}

grep -qw noautogroup /proc/cmdline || echo "@@@ environment not ok boot without noautogroup"

# Autogroup off, by the boot option: the sysctl says so.
expect "autogroup off (sysctl)" 4 '^1\.\.0 # SKIP autogroup is off: echo 1 > /proc/sys/kernel/sched_autogroup_enabled'
# No sysctl (CONFIG_SYSCTL=n, as far as the test can see): the boot
# option is all that tells, and not CONFIG_SCHED_AUTOGROUP=n.
mount -t tmpfs none /proc/sys
expect "autogroup off (no sysctl)" 4 '^1\.\.0 # SKIP autogroup is off: noautogroup on the kernel command line'
umount /proc/sys
echo 1 >/proc/sys/kernel/sched_autogroup_enabled

# -s runs one setup: figures, every result skipped, exit status 4.
expect "-s gives figures and skips" 4 '^ok 1 # SKIP placement parity' "$test" -s session -t 1 -r 1

# A run killed by SIGKILL leaves its cgroups: the next run removes those
# of a PID that no longer exists (999999 is beyond this guest's pid_max).
mkdir $cg/fork_placement_test.999999.0 $cg/fork_placement_test.999999.1
expect "a killed run's cgroups removed" 4 '^# removed 2 cgroups that a killed run left$' \
	"$test" -s cgroup -t 1 -r 1

# A read-only cgroupfs (a container's /sys/fs/cgroup), the cpu controller
# already enabled so that creating the first cgroup is what fails.
echo +cpu >$cg/cgroup.subtree_control
mount -o remount,ro $cg
expect "read-only cgroupfs" 4 '^1\.\.0 # SKIP cannot create a cgroup in /sys/fs/cgroup: Read-only file system'
mount -o remount,rw $cg

# A cgroup namespace: its root is not the root task group.
mkdir $cg/ns
expect "cgroup namespace" 4 'SKIP /sys/fs/cgroup is not the root cpu cgroup \(cgroup namespace\?\)' \
	sh -c "echo \$\$ >$cg/ns/cgroup.procs &&
		exec /guest/cgns_exec sh -c 'umount $cg && mount -t cgroup2 none $cg && exec $test'"
rmdir $cg/ns

# cgroup v1 only: the cpu controller in a v1 hierarchy of its own. The
# test runs (8 rounds of 1 s, the fewest with a verdict) and finds it. The controller leaves v2
# first, which no cgroup may then use.
echo -cpu >$cg/cgroup.subtree_control
umount $cg
mount -t tmpfs cgroup $cg
mkdir $cg/cpu
# The cpu controller's cgroups just removed from v2 may not be released
# yet: the mount says EBUSY until they are.
for _ in $(seq 50); do
	mount -t cgroup -o cpu cpu $cg/cpu 2>/dev/null && break
	sleep 0.1
done
grep -q " $cg/cpu cgroup " /proc/mounts || echo "@@@ environment not ok mounting the v1 cpu hierarchy"
expect "cgroup v1" '0|1' '^(not )?ok 1 placement parity$' "$test" -t 1 -r 8

# A container's view of v1: the cpu hierarchy mounted only below its root.
mkdir $cg/cpu/container $cg/cpu-container
mount --bind $cg/cpu/container $cg/cpu-container
umount $cg/cpu
expect "cgroup v1 below its root" 4 \
	"^1\\.\\.0 # SKIP the cpu controller is mounted only below its root, at $cg/cpu-container, the hierarchy's /container: a container's view\\?$"
exit 0
