#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # the functions run through check
# The orchestration end to end in seconds: verify.sh, phantom-attach.sh,
# bench.sh, stress.sh, cost.sh and diagnose.sh run as they are, on the fakes of tests/fakes.sh,
# whose QEMU replays the console logs of runs recorded under
# Documentation/data/, boot by boot. Each must give back the recorded
# tables, CSVs and exit status, and give them again from the logs alone
# with --table DIR; and verify.sh, with one recorded log
# swapped for another, must name a fixed kernel that failed, a splat, a
# boot without a verdict, and say that a host on which the regressed
# kernel passed cannot show the defect (exit 3). margins.sh must judge
# recorded rounds as the guests' selftest did.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 17
# shellcheck source=tests/fakes.sh
. "$(dirname "$0")/fakes.sh"
DATA=$PROJECT_DIR/Documentation/data
FIXTURES=$PROJECT_DIR/tests/fixtures/console
export FAKE_QEMU=replay

# tool_path TOOL: TOOL (e.g. bench.sh) in the copy: the main path's in
# scripts/, an experiment's in its folder scripts/experiments/NAME/.
tool_path() {
	if [ -e "$PROJ/scripts/$1" ]; then
		echo "$PROJ/scripts/$1"
	else
		echo "$PROJ/scripts/experiments/${1%.sh}/$1"
	fi
}

# replay NAME RECORDED WANT_STATUS TOOL ARG...: TOOL --out TEST_TMP/NAME
# on the logs of DATA/RECORDED (FAKE_REPLAY may put others first) must
# exit WANT_STATUS.
replay() {
	local name=$1 recorded=$2 want=$3 tool=$4 rc=0
	shift 4
	rm -rf "${TEST_TMP:?}/$name"
	FAKE_REPLAY="${OVERLAY:-} $DATA/$recorded/logs $DATA/$recorded" "$(tool_path "$tool")" "$@" --out "$TEST_TMP/$name" \
		>"$TEST_TMP/$name.out" 2>&1 || rc=$?
	[ "$rc" -eq "$want" ] || { echo "exit $rc, expected $want"; tail -n 20 "$TEST_TMP/$name.out"; return 1; }
}

# rejudge NAME TOOL WANT FILE...: TOOL --table on the replayed run
# TEST_TMP/NAME, with no other option (the run's are in its run.args),
# must exit WANT and write each FILE again as the run did.
rejudge() {
	local name=$1 tool=$2 want=$3 f rc=0 kept=$TEST_TMP/$1.run
	shift 3
	rm -rf "$kept"
	mkdir -p "$kept"
	for f in "$@"; do cp "$TEST_TMP/$name/$f" "$kept/"; done
	"$(tool_path "$tool")" --table "$TEST_TMP/$name" >"$TEST_TMP/$name.table.out" 2>&1 || rc=$?
	[ "$rc" -eq "$want" ] ||
		{ echo "--table: exit $rc, expected $want"; tail -n 20 "$TEST_TMP/$name.table.out"; return 1; }
	for f in "$@"; do
		diff -u "$kept/$(basename "$f")" "$TEST_TMP/$name/$f" || { echo "--table: $f differs"; return 1; }
	done
}

# same NAME RECORDED FILE...: each FILE as recorded.
same() {
	local name=$1 recorded=$2 f
	shift 2
	for f in "$@"; do
		diff -u "$DATA/$recorded/$f" "$TEST_TMP/$name/$f" || { echo "$f differs from $recorded's"; return 1; }
	done
}

VERIFY=make-verify-6.12.117-two-patches
verify_as_recorded() {
	replay verify "$VERIFY" 0 verify.sh &&
		same verify "$VERIFY" verdicts.csv runs.csv &&
		diff -u <(head -n 10 "$DATA/$VERIFY/table.txt") <(head -n 10 "$TEST_TMP/verify/table.txt") &&
		rejudge verify verify.sh 0 verdicts.csv runs.csv table.txt
}
check "make verify's run of 6.12.117 (27 boots) replayed: its table, verdicts and runs, exit 0; --table again" verify_as_recorded

# verify_with [--status N] LOG=FILE... -- PATTERN: the x86_64 cores boots
# of the run replayed above (the cell each LOG is of), with each LOG
# replaced by FILE, judged again (verify.sh --table: the boot loop is the
# replay's, above), must exit N (default 1) and say PATTERN.
verify_with() {
	local swap status=1 dir=$TEST_TMP/verify-swapped rc=0
	if [ "$1" = --status ]; then
		status=$2
		shift 2
	fi
	rm -rf "$dir"
	mkdir -p "$dir/logs"
	cp "$TEST_TMP/verify/logs"/x86_64-cores-* "$dir/logs/"
	while [ "$1" != -- ]; do
		swap=$1
		cp "${swap#*=}" "$dir/logs/${swap%%=*}"
		shift
	done
	"$(tool_path verify.sh)" --table "$dir" >"$dir.out" 2>&1 || rc=$?
	[ "$rc" -eq "$status" ] || { echo "exit $rc, expected $status"; tail -n 20 "$dir.out"; return 1; }
	grep -q -- "$2" "$dir.out" || { echo "no '$2' in:"; cat "$dir.out"; return 1; }
}
R=$DATA/$VERIFY/logs
check "a fixed kernel that fails once is named" verify_with \
	x86_64-cores-fixed-2.log="$R/x86_64-cores-regressed-2.log" -- \
	"^error: x86_64 cores fixed: the selftest failed on 1 of 3 boots"
check "a splat is a boot without a verdict" verify_with \
	x86_64-cores-fixed-1.log="$FIXTURES/x86_64-splat.log" -- \
	"^error: x86_64 cores fixed boot 1: no verdict (splat)"
check "a guest that printed no result is a boot without a verdict" verify_with \
	x86_64-cores-fixed-1.log="$FIXTURES/x86_64-hang.log" -- \
	"^error: x86_64 cores fixed boot 1: no verdict (missing)"
check "a regressed kernel that passes once: this host cannot show the defect, exit 3" verify_with \
	--status 3 x86_64-cores-regressed-2.log="$R/x86_64-cores-reference-2.log" -- \
	"^cannot show it here: x86_64 cores: the regressed kernel passed the selftest on 1 of 3 boots"

# margins.sh rejudges recorded rounds by the selftest's rule; at the
# rule and margin a run's guests had, it must give their verdicts:
# shapes-x86_64-cores4's selftest (commit 341efe2, margin 2.5) failed
# 7 of 10 regressed boots, no clean one, some of them by a median far
# above the margin without the rank bound.
SHAPES=shapes-x86_64-cores4
margins_as_guests() {
	local out=$TEST_TMP/margins.out kernel fails
	"$PROJ/scripts/evidence/margins.sh" --margin 2.5 --other-max 20 "$DATA/$SHAPES" >"$out" || return 1
	cat "$out"
	for kernel in reference regressed fixed; do
		fails=$(awk -F, -v k="$kernel" '$3 == k && $5 == "fail"' "$DATA/$SHAPES/verdicts.csv" | wc -l)
		awk -v k="$kernel" -v want="$fails" '$4 == k {
				split($(NF - 1), t, "/"); split($NF, c, "/")
				found = 1; exit !(t[1] + c[1] == want)
			} END { if (!found) exit 1 }' "$out" ||
			{ echo "margins.sh: $kernel fails differ from the guests' $fails"; return 1; }
	done
}
check "margins.sh gives the guests' own verdicts on their recorded rounds" margins_as_guests

# The rule on made-up rounds: a boot fails only when its signed-rank sum
# is rare enough by chance and its median above the margin. Per boot of
# one kernel (first two tune, last one checks): ten rounds +3 points
# (fails); rounds alternating in sign, median 1.5 (no rank bound: passes);
# ten rounds +0.5 (below the margin: passes).
margins_rule() {
	local dir=$TEST_TMP/made-up b r d
	mkdir -p "$dir"
	echo "arch,topology,kernel,boot,setup,round,loops_per_s,idle_pct,remote_pct" >"$dir/runs.csv"
	for b in 1 2 3; do
		for r in $(seq 10); do
			case $b in
			1) d=3 ;;
			2) d=$(( r % 2 ? r + 4 : -r )) ;;
			3) d=0.5 ;;
			esac
			echo "x86_64,cores,fixed,$b,cgroup,$r,1000,0,$(awk -v d="$d" 'BEGIN { print 20 + d }')"
			echo "x86_64,cores,fixed,$b,session,$r,1000,0,20"
		done
	done >>"$dir/runs.csv"
	"$PROJ/scripts/evidence/margins.sh" --margin 1.0 "$dir" >"$TEST_TMP/made-up.out" &&
		awk '$4 == "fixed" { found = 1; exit !($(NF - 1) == "1/0/2" && $NF == "0/0/1") }
			END { if (!found) exit 1 }' "$TEST_TMP/made-up.out"
}
check "margins.sh fails a boot only on the rank bound and the margin together" margins_rule

PHANTOM=phantom-v7.1.5-x86_64
phantom_as_recorded() {
	replay phantom "$PHANTOM" 1 phantom-attach.sh && same phantom "$PHANTOM" phantom.csv table.txt &&
		rejudge phantom phantom-attach.sh 1 phantom.csv table.txt
}
check "phantom-attach.sh's run of v7.1.5 replayed: its table and CSV, exit 1 (the reference attaches); --table again" \
	phantom_as_recorded

BENCH=alternatives-6.12.117-x86_64/bench
bench_as_recorded() {
	replay bench "$BENCH" 0 bench.sh --boots 5 --variants "reference regressed fixed alt-A alt-B alt-C" &&
		same bench "$BENCH" bench.csv &&
		grep -q '^| spawn | forks (1/s) |' "$TEST_TMP/bench/table.txt" &&
		rejudge bench bench.sh 0 bench.csv util.csv table.txt
}
check "bench.sh's run of six kernels (30 boots) replayed: its CSV, exit 0; --table again" bench_as_recorded

STRESS=stress-6.12.117-x86_64
stress_as_recorded() {
	replay stress "$STRESS" 0 stress.sh --boots 1 && same stress "$STRESS" stress.csv counts.csv table.txt &&
		rejudge stress stress.sh 0 stress.csv counts.csv table.txt
}
check "stress.sh's 10-minute run of 6.12.117 replayed: its table and counts, exit 0; --table again" stress_as_recorded

SHORT_STRESS=short-stress-6.12.117-x86_64
short_stress_as_recorded() {
	replay short-stress "$SHORT_STRESS" 0 stress.sh --boots 1 --variants fixed --minutes 1 &&
		same short-stress "$SHORT_STRESS" stress.csv counts.csv table.txt
}
check "stress.sh's 1-minute run replayed: its table and counts, exit 0" short_stress_as_recorded

COST=alternatives-6.12.117-x86_64/cost
COST_KERNELS="reference regressed fixed alt-A alt-B alt-C"
cost_as_recorded() {
	replay cost "$COST" 0 cost.sh --boots 1 --variants "$COST_KERNELS" &&
		same cost "$COST" profile.csv wall.csv table.txt &&
		rejudge cost cost.sh 0 profile.csv wall.csv table.txt
}
check "cost.sh's run of six kernels replayed: its table and CSVs, exit 0; --table again" cost_as_recorded
# A job that failed: its data are missing, and cost.sh must say so.
cost_job_failed() {
	OVERLAY=$TEST_TMP/overlay
	rm -rf "$OVERLAY"
	mkdir -p "$OVERLAY"
	sed 's/^@@@ guest-end rc=0/@@@ guest-end rc=1/' "$DATA/$COST/logs/x86_64-fixed-1.log" \
		>"$OVERLAY/x86_64-fixed-1.log"
	replay cost-failed "$COST" 1 cost.sh --boots 1 --variants "$COST_KERNELS" || return 1
	unset OVERLAY
	grep -q "^error: x86_64 cores fixed boot 1 left out: guest job cost exited 1; console: .*x86_64-fixed-1.log" \
		"$TEST_TMP/cost-failed.out" &&
		grep -q "cost x86_64 cores: 6 boot(s) expected, 5 judged, 1 left out$" "$TEST_TMP/cost-failed.out"
}
check "cost.sh: a boot whose job failed is an error, exit 1" cost_job_failed

DIAG=diag-x86_64
diag_as_recorded() {
	replay diag "$DIAG" 0 diagnose.sh --boots 2 && same diag "$DIAG" table.txt &&
		rejudge diag diagnose.sh 0 table.txt
}
check "diagnose.sh's run replayed: its table, exit 0; --table again" diag_as_recorded

# dvfs.sh's boots per policy shape (DIR/SHAPE/logs); its table is judged
# by today's rules (the recorded one is of the day's), so only the CSVs
# are compared with the record.
DVFS=dvfs-x86_64-period-4000
dvfs_as_recorded() {
	replay dvfs "$DVFS" 1 dvfs.sh --arch x86_64 --boots 2 --variants reference \
		--loads spawn --seconds 1 --period-us 4000 || return 1
	same dvfs "$DVFS" validation.csv bench.csv && grep -q 'period_us=4000' \
		"$TEST_TMP/dvfs/shared/logs/x86_64-reference-2.log.cmdline" &&
		rejudge dvfs dvfs.sh 1 validation.csv bench.csv table.txt
}
check "dvfs.sh's run of three shapes replayed: its CSVs, exit 1; --table again" dvfs_as_recorded

# A run whose table spans more than one 4 KiB write of a pipe, its first
# failing row (exec per CPU, energy_per_kop: "loses") after the first:
# a verdict grepped from the printed table through a pipe read that row
# as none in about a quarter of the judgements, when the reader stopped
# at its match and the writer died of SIGPIPE. dvfs.sh must judge the
# run 1 every time.
DVFS_LARGE=dvfs-v7.1.5-arm64-pelt-alone
dvfs_large_table() {
	local dir=$TEST_TMP/dvfs-large i rc
	replay dvfs-large "$DVFS_LARGE" 1 dvfs.sh --arch arm64 --boots 5 --seconds 3 \
		--variants "reference fixed+alt-F" --policies "per-cpu shared" || return 1
	same dvfs-large "$DVFS_LARGE" validation.csv bench.csv &&
		rejudge dvfs-large dvfs.sh 1 validation.csv bench.csv table.txt verdicts.csv || return 1
	[ "$(wc -c <"$dir/table.txt")" -gt 8192 ] || { echo "table.txt of 8 KiB or less"; return 1; }
	for i in $(seq 40); do
		rc=0
		bash -c '. "$1" && dvfs_verdict "$2"' _ "$(tool_path dvfs.sh)" "$dir" 2>/dev/null || rc=$?
		[ "$rc" -eq 1 ] || { echo "judgement $i: exit $rc, expected 1"; return 1; }
	done
}
check "dvfs.sh's run of two kernels (20 boots, a 9 KB table) replayed: its CSVs, exit 1; --table again; 40 judgements, each 1" \
	dvfs_large_table

# The common options of scripts/lib/experiment.sh: a run of two arches
# and two topologies has a cell for each topology QEMU makes for an arch
# (smt: x86_64 only), each with its logs, CSV and table, judged again by
# --table from run.args; a second run into the same directory is refused.
cells() {
	local out=$TEST_TMP/cells cell
	rm -rf "$out"
	FAKE_QEMU=rc=0 "$PROJ/scripts/experiments/phantom-attach/phantom-attach.sh" --arch "x86_64 arm64" --topologies "cores smt" \
		--boots 2 --variants "reference fixed" --append noautogroup --out "$out" \
		>"$TEST_TMP/cells.out" 2>&1 || { tail -n 20 "$TEST_TMP/cells.out"; return 1; }
	for cell in x86_64-cores x86_64-smt arm64-cores; do
		if [ "$(grep -c ',pass$' "$out/$cell/phantom.csv")" -ne 4 ] || [ ! -s "$out/$cell/table.txt" ] ||
			[ ! -f "$out/$cell/logs/${cell%-*}-fixed-2.log" ]; then
			echo "cell $cell incomplete"
			return 1
		fi
	done
	[ ! -e "$out/arm64-smt" ] || { echo "an arm64 smt cell"; return 1; }
	grep -q 'noautogroup' "$out/x86_64-smt/logs/x86_64-reference-1.log.cmdline" &&
		grep -q 'threads=2' "$out/x86_64-smt/logs/x86_64-reference-1.log.cmdline" || return 1
	if ! "$PROJ/scripts/experiments/phantom-attach/phantom-attach.sh" --table "$out" >"$TEST_TMP/cells-table.out" 2>&1 ||
		! grep -qx '== arm64 cores' "$TEST_TMP/cells-table.out"; then
		cat "$TEST_TMP/cells-table.out"
		return 1
	fi
	FAKE_QEMU=rc=0 fails_with 2 "already holds results" "$PROJ/scripts/experiments/phantom-attach/phantom-attach.sh" --out "$out" ||
		return 1
	# A run with no option at all (results/NAME-<timestamp>), judged again.
	rm -rf "$PROJ/results"
	if ! FAKE_QEMU=rc=0 "$PROJ/scripts/experiments/pelt-bounds/pelt-bounds.sh" >"$TEST_TMP/defaults.out" 2>&1 ||
		! out=$(echo "$PROJ"/results/pelt-bounds-*) || [ ! -d "$out" ] ||
		! "$PROJ/scripts/experiments/pelt-bounds/pelt-bounds.sh" --table "$out" >>"$TEST_TMP/defaults.out" 2>&1; then
		tail -n 20 "$TEST_TMP/defaults.out"
		return 1
	fi
}
check "the common options: a cell per arch and topology, --append reaches QEMU, --table judges them again (a run without options too), a used directory is refused" cells

exit "$TEST_FAILED"
