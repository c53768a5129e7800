#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job: scripts/experiments/bench/guest/workloads.c in a cpu cgroup
# of its own, as a systemd slice would run it. Arguments: SECONDS per
# load, then the loads (default all).
seconds=${1:-5}
[ $# -eq 0 ] || shift
mount -t debugfs debugfs /sys/kernel/debug || exit 1
echo +cpu >/sys/fs/cgroup/cgroup.subtree_control || exit 1
mkdir /sys/fs/cgroup/bench || exit 1
/guest/workloads --seconds "$seconds" --cgroup /sys/fs/cgroup/bench "$@"
rc=$?
rmdir /sys/fs/cgroup/bench
exit $rc
