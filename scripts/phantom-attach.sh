#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# No phantom attach: boot the kernels, run scripts/guest/phantom_attach.c
# in each, and say on which a dead task's averages came back on a cfs_rq
# or in tg->load_avg after a class or group change of the zombie.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [options]

$(run_options_usage 3 phantom)

Boots every kernel R times, interleaved, each running phantom_attach
(zombie thread group leader, then sched_setscheduler() fair -> FIFO ->
fair, or setsid() from another thread; in the root cgroup and in a cpu
cgroup). Writes DIR/phantom.csv (arch,kernel,boot,test,result) and
DIR/table.txt, and every console log under DIR/logs/. Exits 1 when any
test failed, broke or a boot gave no TAP plan: a kernel that attaches a
dead task's averages again fails here.
USAGE
}

main() {
	local arch boots variants out v b rc=0
	parse_run_options 3 phantom "$@"
	arch=$RUN_ARCH boots=$RUN_BOOTS variants=$RUN_VARIANTS out=$RUN_OUT
	[ ! -e "$out/phantom.csv" ] || usage_error "$out already holds results"
	mkdir -p "$out/logs"
	build_guests "$arch" "" "$variants"
	boot_interleaved "$arch" "$boots" "$variants" "$out" phantom --job phantom
	echo "arch,kernel,boot,test,result" >"$out/phantom.csv"
	for b in $(seq "$boots"); do
		for v in $variants; do
			tap_boot_rows "$arch" "$v" "$b" "$out/logs/$arch-$v-$b.log" >>"$out/phantom.csv"
		done
	done
	tap_table "$out/phantom.csv" | tee "$out/table.txt"
	if grep -q ',fail$' "$out/phantom.csv"; then
		grep ',fail$' "$out/phantom.csv" | sed 's/^/phantom attach or no verdict: /' >&2
		rc=1
	fi
	return "$rc"
}

main "$@"
