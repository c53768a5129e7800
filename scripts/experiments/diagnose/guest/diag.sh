#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job for a +diag kernel: run each setup of the selftest alone and
# print the kernel's fork_diag counters for it as
# "@@@ diag setup=S name=value ...".
args=${*:-"-t 3 -r 1"}
mount -t debugfs debugfs /sys/kernel/debug || exit 1
for setup in cgroup session; do
	echo reset >/sys/kernel/debug/fork_diag
	# shellcheck disable=SC2086 # word splitting of the arguments is wanted
	/kselftest/sched/fork_placement_test -s $setup $args || exit 1
	printf '@@@ diag setup=%s' "$setup"
	while read -r name value; do
		printf ' %s=%s' "$name" "$value"
	done </sys/kernel/debug/fork_diag
	echo
done
