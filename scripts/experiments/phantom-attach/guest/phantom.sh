#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job: does a dead task's PELT average come back on a cfs_rq after a
# class or group change of the zombie
# (scripts/experiments/phantom-attach/guest/phantom_attach.c)?
mount -t debugfs debugfs /sys/kernel/debug || exit 1
exec /guest/phantom_attach "$@"
