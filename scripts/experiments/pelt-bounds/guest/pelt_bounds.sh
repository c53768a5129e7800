#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job: does every cfs_rq's load_avg and runnable_avg stay within
# what its tasks can produce
# (scripts/experiments/pelt-bounds/guest/pelt_bounds.c)?
mount -t debugfs debugfs /sys/kernel/debug || exit 1
exec /guest/pelt_bounds "$@"
