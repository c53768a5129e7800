#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job: scripts/guest/pelt_stress.c, with CPU hotplug, for the
# arguments given (e.g. --minutes 10): fork/exit, zombie leaders, group,
# autogroup, class and CPU changes at once, then no average may be left.
mount -t debugfs debugfs /sys/kernel/debug || exit 1
exec /guest/pelt_stress --hotplug "$@"
