#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job: make the kernel print a real WARN() splat with LKDTM, so that
# the harness can be shown to fail a boot on one (tests/40-e2e.t).
mount -t debugfs debugfs /sys/kernel/debug || exit 1
echo WARNING >/sys/kernel/debug/provoke-crash/DIRECT
