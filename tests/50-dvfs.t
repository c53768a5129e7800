#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The emulated DVFS clock in short form (scripts/dvfs.sh): the fixed
# kernel for arm64 with the harness's cpufreq driver boots once per policy
# shape (one clock per CPU, the same taking requests from any CPU, one
# clock for both) on two vCPUs under multi-threaded TCG; its validation
# must pass (work per second follows the frequency within 5 %, frequency
# invariance for a 5 ms and for a 0.3 ms burst, schedutil takes a busy
# loop to fmax), the two CPUs must each be judged on doing their solo
# work at once, and one second of spawn under schedutil must give its
# rows (forks, mean frequency, energy) exactly where the boot passed
# every check. A boot whose CPUs did not compute in parallel is this
# host's cores interfering, which dvfs.sh says with exit 3 and keeps out
# of its tables; the checks of the model itself, on recorded logs, are
# tests/15's. x86_64 runs through make dvfs only: one more kernel build
# here would not fit CI's time.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 3

OUT=$TEST_TMP/dvfs
SHAPES="per-cpu remote shared"
dvfs_run() {
	local rc=0
	"$SCRIPTS_DIR/dvfs.sh" --boots 1 --variants fixed --loads spawn --seconds 1 --out "$OUT" \
		2>"$TEST_TMP/dvfs.err" || rc=$?
	cat "$TEST_TMP/dvfs.err"
	case $rc in
	0) ;;
	3) grep -q '^cannot judge here: .*parallel' "$TEST_TMP/dvfs.err" ;;
	*) return 1 ;;
	esac
}
check "dvfs.sh builds arm64 fixed+dvfs, boots it per policy shape and exits 0 (or 3, cannot judge here)" dvfs_run

validation() {
	cat "$OUT/table.txt"
	local shape check
	for shape in $SHAPES; do
		for check in work invariance burst schedutil_fmax completed; do
			grep -q "^| $shape | fixed | $check | [1-9][0-9]*/[1-9][0-9]* | pass |$" "$OUT/table.txt" ||
				{ echo "$shape: $check"; return 1; }
		done
		grep -q "^arm64,$shape,fixed,1,parallel,2000000,[0-9.]*,1,\(pass\|fail\)$" "$OUT/validation.csv" ||
			{ echo "$shape: no parallel check"; return 1; }
	done
}
check "validation on every policy shape: work per second, invariance, bursts, schedutil to fmax pass; the CPUs judged parallel or not" validation

load_rows() {
	local shape metric rows passed
	for shape in $SHAPES; do
		passed=$(awk -F, -v s="$shape" '$2 == s && $9 == "fail"' "$OUT/validation.csv" | wc -l)
		for metric in forks mean_freq energy; do
			rows=$(awk -F, -v s="$shape" -v m="$metric" '$2 == s && $5 == "spawn" && $6 == m && $7 > 0' \
				"$OUT/bench.csv" | wc -l)
			if [ "$passed" -eq 0 ] && [ "$rows" -ne 1 ]; then
				echo "no $shape $metric row"
				return 1
			elif [ "$passed" -gt 0 ] && [ "$rows" -ne 0 ]; then
				echo "$shape $metric row of a boot that failed a check"
				return 1
			fi
		done
	done
}
check "one second of spawn under schedutil: forks, mean frequency and energy per policy shape, none from a boot that failed a check" load_rows
