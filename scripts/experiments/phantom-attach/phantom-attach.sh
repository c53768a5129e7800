#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# No phantom attach: boot the kernels, run
# scripts/experiments/phantom-attach/guest/phantom_attach.c in each, and
# say on which a dead task's averages came back on a cfs_rq or in
# tg->load_avg after a class or group change of the zombie.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/../..
. "$(dirname "${BASH_SOURCE[0]}")/../../lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [options]

$(experiment_usage)

Boots every kernel R times, interleaved, each running phantom_attach
(zombie thread group leader, then sched_setscheduler() fair -> FIFO ->
fair, or setsid() from another thread; in the root cgroup and in a cpu
cgroup). Writes DIR/phantom.csv (arch,kernel,boot,test,result) and
DIR/table.txt, and every console log under DIR/logs/. Exits 1 when any
test failed, broke or a boot gave no TAP plan: a kernel that attaches a
dead task's averages again fails here.
USAGE
}

EXP_NAME=phantom EXP_BOOTS=3
exp_option() { return 1; }
exp_boot_args() { printf '%s\n' --job phantom; }
exp_collect() { tap_collect phantom "$@"; }
main() { experiment_main "$@"; }

run_main "$@"
