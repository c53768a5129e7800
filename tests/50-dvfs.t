#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The emulated DVFS clock in short form (scripts/dvfs.sh): the fixed
# kernel for arm64 with the harness's cpufreq driver boots once per policy
# shape (one clock per CPU, the same taking requests from any CPU, one
# clock for both) on two vCPUs that compute in parallel; its validation
# must pass (work per second follows the frequency within 5 %, the two
# CPUs each do their solo work at once, frequency invariance for a 5 ms
# and for a 0.3 ms burst, schedutil takes a busy loop to fmax), and one
# second of spawn under schedutil must give its rows: forks, mean
# frequency, energy. x86_64 runs through make dvfs
# only: one more kernel build here would not fit CI's time.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 3

OUT=$TEST_TMP/dvfs
dvfs_run() { "$SCRIPTS_DIR/dvfs.sh" --boots 1 --variants fixed --loads spawn --seconds 1 --out "$OUT"; }
check "dvfs.sh builds arm64 fixed+dvfs, boots it per policy shape and exits 0" dvfs_run

validation() {
	cat "$OUT/table.txt"
	local shape check
	for shape in per-cpu remote shared; do
		for check in work parallel invariance burst schedutil_fmax; do
			grep -q "^| $shape | fixed | $check | [1-9][0-9]*/[1-9][0-9]* | pass |$" "$OUT/table.txt" || return 1
		done
	done
}
check "validation passes on every policy shape: work per second, parallel CPUs, invariance, bursts, schedutil to fmax" validation

load_rows() {
	local shape metric
	for shape in per-cpu remote shared; do
		for metric in forks mean_freq energy; do
			[ "$(awk -F, -v s="$shape" -v m="$metric" '$2 == s && $5 == "spawn" && $6 == m && $7 > 0' \
				"$OUT/bench.csv" | wc -l)" -eq 1 ] || { echo "no $shape $metric row"; return 1; }
		done
	done
}
check "one second of spawn under schedutil: forks, mean frequency and energy per policy shape" load_rows
