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

Boots every kernel R times, interleaved, each running pelt_bounds: test
"removal" (a worker whose affinity flips between CPU0 and CPU1 while it
sleeps, and children that spin 1 ms and exit, for 2 s; every cfs_rq's
runnable_avg, sampled every 10 ms, must stay at or below
16 x 1024) and test "setscheduler" (a task alone on CPU1 for 300 ms
switches itself to SCHED_FIFO; its load must not stay on CPU1's cfs_rq).
Writes DIR/pelt-bounds.csv (arch,kernel,boot,test,result) and
DIR/table.txt, and every console log under DIR/logs/. Exits 1 when any
test failed or a boot gave no verdict. The removal of a 32-bit kernel
whose lockless removal adds about 2^32 to load_sum fails here.
USAGE
}

EXP_NAME=pelt-bounds EXP_BOOTS=3
exp_option() { return 1; }
exp_boot_args() { printf '%s\n' --job pelt_bounds; }
exp_collect() { tap_collect pelt-bounds "$@"; }
main() { experiment_main "$@"; }

run_main "$@"
