#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# PELT within bounds: boot the kernels, run
# scripts/experiments/pelt-bounds/guest/pelt_bounds.c in each, and say on
# which a cfs_rq's runnable_avg went beyond what its tasks can produce
# (wakeup migrations and exits), or a live task's switch from fair to FIFO
# left its load behind.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/../..
. "$(dirname "${BASH_SOURCE[0]}")/../../lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [options]

$(experiment_usage)

Boots every kernel R times, interleaved, each running pelt_bounds:
"removal" (wakeup migrations and exits for 2 s; every cfs_rq's
runnable_avg must stay at or below 16 x 1024: a 32-bit lockless removal
that adds about 2^32 fails) and "setscheduler" (a task that switches
itself to SCHED_FIFO must not leave its load on its cfs_rq). Writes
DIR/pelt-bounds.csv and DIR/table.txt. Exits 1 when a test failed.
USAGE
}

EXP_NAME=pelt-bounds EXP_BOOTS=3
exp_option() { return 1; }
exp_boot_args() { printf '%s\n' --job pelt_bounds; }
exp_collect() { tap_collect pelt-bounds "$@"; }
main() { experiment_main "$@"; }

run_main "$@"
