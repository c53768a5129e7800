#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The guest programs' own logic, on the host: pelt_stress's leak check on
# a real sched debug file and variants of it, workloads' and the tools'
# input checks, and the tables of the bench and stress experiments
# (scripts/experiments/).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 16

FIXTURE=$PROJECT_DIR/tests/fixtures/sched-debug/host-6.18-busy.txt

build_tools() {
	local prog sources
	sources=$(bash -c '. "$1/lib.sh" && guest_code c' _ "$SCRIPTS_DIR")
	for prog in pelt_stress workloads phantom_attach pelt_bounds; do
		gcc -O2 -Wall -Werror -pthread -I"$SCRIPTS_DIR/guest" -o "$TEST_TMP/$prog" \
			"$(grep "/$prog\.c$" <<<"$sources")" || return 1
	done
}
check "the guest programs build without warnings" build_tools

# idle_copy: the fixture with every average and count of every cfs_rq at 0.
idle_copy() {
	awk '/^cfs_rq\[/ { in_cfs = 1; print; next }
		in_cfs && /^  \./ {
			if ($0 ~ /\.(load|nr_running|load_avg|runnable_avg|util_avg|util_est|removed\.[a-z_]+|tg_load_avg_contrib|tg_load_avg|se->avg\.[a-z_]+) +:/)
				sub(/: .*/, ": 0")
			print; next
		}
		{ in_cfs = 0; print }' "$FIXTURE"
}

check "leak check: a busy machine's file is not clean, and says where" \
	fails_with 1 'cfs_rq\[0\]:/autogroup-1006 load_avg = 1053' "$TEST_TMP/pelt_stress" --check-file "$FIXTURE"

idle_is_clean() {
	idle_copy >"$TEST_TMP/idle.txt"
	"$TEST_TMP/pelt_stress" --check-file "$TEST_TMP/idle.txt" | grep -qx clean
}
check "leak check: every cfs_rq at zero is clean" idle_is_clean

kept_contribution() {
	idle_copy | awk '/^cfs_rq\[1\]:\/autogroup-1006/ { g = 1 } /^cfs_rq\[1\]:\/$/ { g = 0 }
		g && /\.tg_load_avg +:/ { sub(/: 0/, ": 42") } { print }' >"$TEST_TMP/kept.txt"
	fails_with 1 'task group /autogroup-1006: tg_load_avg = 42 but its listed cfs_rqs contribute 0' \
		"$TEST_TMP/pelt_stress" --check-file "$TEST_TMP/kept.txt"
}
check "leak check: a tg_load_avg its cfs_rqs do not account for fails" kept_contribution

root_residue() {
	idle_copy | awk '/^cfs_rq\[1\]:\/$/ { r = 1 } /^rt_rq/ { r = 0 }
		r && /\.util_avg +:/ { sub(/: 0/, ": 5") } { print }' >"$TEST_TMP/root.txt"
	fails_with 1 'cfs_rq\[1\]:/ util_avg = 5' "$TEST_TMP/pelt_stress" --check-file "$TEST_TMP/root.txt" --reader-cpu 0 &&
		"$TEST_TMP/pelt_stress" --check-file "$TEST_TMP/root.txt" --reader-cpu 1 | grep -qx clean
}
check "leak check: the reader's own CPU is exempt, another CPU's root is not" root_residue

check "pelt_stress refuses a bad number" fails_with 2 "bad number" "$TEST_TMP/pelt_stress" --seconds x
check "workloads refuses an unknown load" fails_with 2 "unknown load 'x'" "$TEST_TMP/workloads" x
# The probes need the sched debug file: without it they say so and skip.
probes_skip() {
	"$TEST_TMP/workloads" --seconds 1 --no-debug-file exit-residue wake-residue >"$TEST_TMP/probes.txt" &&
		[ "$(grep -c '^@@@ bench load=[a-z]*-residue skipped: ' "$TEST_TMP/probes.txt")" -eq 2 ]
}
check "workloads' probes skip without the sched debug file" probes_skip

# The periodic task runs 2 ms of its own CPU time per wakeup, however
# much a fork/exit loop on its CPU preempts it (a task spinning 2 ms of
# wall time then gets less), so that its util_avg can be compared across
# kernels whose fork loops run at different speeds. The lower bound is
# that property. The upper one only catches a wrong unit or a spin that
# does not stop (3 ms and more): the mean per period also holds each
# spin's last clock read, and what the host charges to the task inside
# it (interrupts without IRQ_TIME_ACCOUNTING, a hypervisor's steal), which
# in CI under strace once came to 0.23 ms a period (2.231; 0.000-0.018
# here, run alone or under scripts/deps/deps-trace.sh).
periodic_runs_its_share() {
	local run
	"$TEST_TMP/workloads" --seconds 2 --no-debug-file periodic-churn >"$TEST_TMP/periodic.txt" || return 1
	cat "$TEST_TMP/periodic.txt"
	run=$(sed -n 's/^@@@ periodic load=periodic-churn run_per_period_ms=\([0-9.]*\)$/\1/p' "$TEST_TMP/periodic.txt")
	awk -v r="$run" 'BEGIN { exit !(r != "" && r >= 2 && r < 3) }'
}
check "workloads' periodic task runs 2 ms per wakeup beside fork churn" periodic_runs_its_share
check "stress.sh refuses bad minutes" fails_with 2 "--minutes takes a positive number" "$SCRIPTS_DIR/experiments/stress/stress.sh" --minutes 0
check "bench.sh refuses bad seconds" fails_with 2 "--seconds takes a positive number" "$SCRIPTS_DIR/experiments/bench/bench.sh" --seconds -1

# bench_fixture DIR FIXED_VALUE [CANDIDATE_VALUE]: three boots per
# kernel of one load, the reference at 100-110, the fixed kernel at
# FIXED_VALUE +0..+10; with CANDIDATE_VALUE, an alt-A kernel there too.
bench_fixture() {
	local d=$1 fixed=$2 candidate=${3:-} variants="reference regressed fixed" v b value
	[ -z "$candidate" ] || variants="$variants alt-A"
	mkdir -p "$d/logs"
	echo "arch,kernel,boot,load,metric,value,unit" >"$d/bench.csv"
	echo "$UTIL_CSV_HEADER" >"$d/util.csv"
	for v in $variants; do
		for b in 1 2 3; do
			value=$((100 + (b - 1) * 5))
			[ "$v" != fixed ] || value=$((fixed + (b - 1) * 5))
			[ "$v" != alt-A ] || value=$((candidate + (b - 1) * 5))
			printf '@@@ bench load=pipe metric=round_trips value=%s unit=1/s\r\n' "$value" >"$d/logs/$v-$b.log"
			echo "@@@ util load=periodic what=cpu util_avg=$value runnable_avg=$((value + 1)) util_est=900 schedutil_pct=$((value / 2)) samples=40" >>"$d/logs/$v-$b.log"
			bench_rows "x86_64,$v,$b" "$d/logs/$v-$b.log" "$d"
		done
	done
	bench_tables "$d" "$variants" 3
}

bench_marks() {
	# shellcheck source=scripts/experiments/bench/bench.sh
	. "$SCRIPTS_DIR/experiments/bench/bench.sh"
	bench_fixture "$TEST_TMP/b1" 104 >"$TEST_TMP/same.txt" &&
		grep -q '^| pipe | round_trips (1/s) | 105 \[100-110\] | 105 \[100-110\] | 109 \[104-114\] | same |$' "$TEST_TMP/same.txt" &&
		grep -q '^| periodic | cpu runnable_avg | 106 \[101-111\] .* same |$' "$TEST_TMP/same.txt" &&
		grep -q '^| periodic | cpu schedutil % of max freq | 52 \[50-55\] .* same |$' "$TEST_TMP/same.txt" &&
		bench_fixture "$TEST_TMP/b2" 200 >"$TEST_TMP/differs.txt" &&
		grep -q '^| pipe | round_trips (1/s) | .* | 205 \[200-210\] | differs (fixed) |$' "$TEST_TMP/differs.txt" &&
		bench_fixture "$TEST_TMP/b3" 104 200 >"$TEST_TMP/candidate.txt" &&
		grep -q '^| pipe | round_trips (1/s) | .* | 109 \[104-114\] | 205 \[200-210\] | differs (alt-A) |$' "$TEST_TMP/candidate.txt"
}
check "bench table: medians, ranges, schedutil, 'differs' only beyond the spread, per candidate" bench_marks

# dvfs_fixture DIR FIXED_FORKS FIXED_ENERGY_BUSY_US [BAD_WORK [UNIT [DEAD]]]:
# three boots per kernel of spawn under one policy shape, the reference
# at 1000-1020 forks/s with 1 s busy at fmax; the fixed kernel at
# FIXED_FORKS +0..+20 with FIXED_ENERGY_BUSY_US at fmax; with BAD_WORK,
# the fixed kernel's loop does BAD_WORK ops at fmax/4 instead of 250.
# UNIT us makes the load's own metric a lateness (lower is better).
# With DEAD, the fixed kernel's boot DEAD dies after the validation (an
# OOM kill: no load lines, guest-end rc=137). STEP (default 10) is the
# fixed kernel's step from boot to boot.
dvfs_fixture() {
	local d=$1 forks=$2 busy=$3 bad=${4:-250} unit=${5:-1/s} dead=${6:-0} step=${7:-10} v b value log
	mkdir -p "$d/per-cpu/logs"
	echo "arch,policy,kernel,boot,check,khz,value,expected,ok" >"$d/validation.csv"
	echo "arch,policy,kernel,boot,load,metric,value,unit" >"$d/bench.csv"
	for v in reference regressed fixed; do
		for b in 1 2 3; do
			log=$d/per-cpu/logs/arm64-$v-$b.log
			value=$((1000 + (b - 1) * 10))
			[ "$v" != fixed ] || value=$((forks + (b - 1) * step))
			{
				printf '@@@ dvfs policies=2 cpus=2\r\n'
				echo "@@@ dvfs-work khz=500000 ops=$([ "$v" = fixed ] && echo "$bad" || echo 250)"
				echo "@@@ dvfs-work khz=2000000 ops=1000"
				echo "@@@ dvfs-invariance khz=1142857 util_avg=262 util_avg_fmax=256"
				echo "@@@ dvfs-work-again khz=500000 ops=260"
				echo "@@@ dvfs-concurrent khz=2000000 ops=500 ops_other=500"
				echo "@@@ dvfs-schedutil khz=2000000 util_avg=1010"
				if [ "$v" = fixed ] && [ "$b" = "$dead" ]; then
					echo "@@@ guest-end rc=137"
				else
					echo "@@@ bench load=spawn metric=forks value=$value unit=$unit"
					echo "@@@ dvfs-time load=spawn cpu=1 khz=2000000 busy_us=$([ "$v" = fixed ] && echo "$busy" || echo 1000000) idle_us=0"
					echo "@@@ dvfs-time load=spawn cpu=1 khz=500000 busy_us=1000000 idle_us=0"
					echo "@@@ guest-end rc=0"
				fi
			} >"$log"
			dvfs_rows "arm64,per-cpu,$v,$b" "$log" 4 "$d"
		done
	done
	dvfs_tables "$d" "reference regressed fixed" 3 per-cpu spawn
}

# A boot that guest-boot.sh failed (a splat) though its job ended with 0
# is not completed.
dvfs_splat_counted() {
	local d=$TEST_TMP/d11 log
	dvfs_fixture "$d" 1005 1000000 >/dev/null || return 1
	log=$d/per-cpu/logs/arm64-fixed-1.log
	echo "error: kernel splat: WARNING:; console: $log" >"$log.boot-error"
	echo "arch,policy,kernel,boot,check,khz,value,expected,ok" >"$d/validation.csv"
	dvfs_rows "arm64,per-cpu,fixed,1" "$log" 4 "$d"
	grep -q '^arm64,per-cpu,fixed,1,completed,,0,0,fail$' "$d/validation.csv"
}

dvfs_marks() {
	# shellcheck source=scripts/experiments/dvfs/dvfs.sh
	. "$SCRIPTS_DIR/experiments/dvfs/dvfs.sh"
	dvfs_fixture "$TEST_TMP/d1" 1005 1000000 >"$TEST_TMP/d1.txt" &&
		grep -q '^| per-cpu | fixed | work | 3/3 | pass |$' "$TEST_TMP/d1.txt" &&
		grep -q '^| per-cpu | fixed | invariance | 3/3 | pass |$' "$TEST_TMP/d1.txt" &&
		grep -q '^| spawn | forks (1/s) | 1010 \[1000-1020\] .* same or better |$' "$TEST_TMP/d1.txt" &&
		grep -q '^| spawn | mean_freq (MHz) | 1250 \[1250-1250\] .* (diagnostic) |$' "$TEST_TMP/d1.txt" &&
		! grep -q -e 'loses' -e '| fail |' -e missing "$TEST_TMP/d1.txt" &&
		dvfs_fixture "$TEST_TMP/d2" 900 1000000 >"$TEST_TMP/d2.txt" &&
		grep -q '^| spawn | forks (1/s) | .* | 910 \[900-920\] | loses (fixed) |$' "$TEST_TMP/d2.txt" &&
		dvfs_fixture "$TEST_TMP/d3" 1005 2000000 >"$TEST_TMP/d3.txt" &&
		grep -q '^| spawn | energy (fmax-CPU-s/s) | .* | loses (fixed) |$' "$TEST_TMP/d3.txt" &&
		dvfs_fixture "$TEST_TMP/d4" 1300 2000000 >"$TEST_TMP/d4.txt" &&
		grep -q '^| spawn | energy (fmax-CPU-s/s) | .* | same or better |$' "$TEST_TMP/d4.txt" &&
		dvfs_fixture "$TEST_TMP/d5" 1005 1000000 300 >"$TEST_TMP/d5.txt" &&
		grep -q '^| per-cpu | fixed | work | 0/3 | fail |$' "$TEST_TMP/d5.txt" &&
		grep -q '^| per-cpu | fixed | work_again | 0.26 \[0.26-0.26\], 0.25 expected | (diagnostic) |$' "$TEST_TMP/d1.txt" &&
		grep -q '^| per-cpu | fixed | work_concurrent | 0.5 \[0.5-0.5\], 1 expected | (diagnostic) |$' "$TEST_TMP/d1.txt" &&
		dvfs_fixture "$TEST_TMP/d6" 900 2000000 250 us >"$TEST_TMP/d6.txt" &&
		grep -q '^| spawn | forks (us) | .* | same or better |$' "$TEST_TMP/d6.txt" &&
		grep -q '^| spawn | energy (fmax-CPU-s/s) | .* | same or better |$' "$TEST_TMP/d6.txt" &&
		dvfs_fixture "$TEST_TMP/d7" 1300 2000000 250 us >"$TEST_TMP/d7.txt" &&
		grep -q '^| spawn | forks (us) | .* | loses (fixed) |$' "$TEST_TMP/d7.txt" &&
		grep -q '^| spawn | energy (fmax-CPU-s/s) | .* | loses (fixed) |$' "$TEST_TMP/d7.txt" &&
		grep -q '^| per-cpu | fixed | completed | 3/3 | pass |$' "$TEST_TMP/d1.txt" &&
		dvfs_fixture "$TEST_TMP/d8" 1005 1000000 250 1/s 2 >"$TEST_TMP/d8.txt" &&
		grep -q '^| per-cpu | fixed | completed | 2/3 | fail |$' "$TEST_TMP/d8.txt" &&
		grep -q '^| per-cpu | reference | completed | 3/3 | pass |$' "$TEST_TMP/d8.txt" &&
		dvfs_splat_counted &&
		grep -q '^| spawn | forks (1/s) | 1010 \[1000-1020\] | .* | 1015 \[1005-1025\] (2 of 3 boots) | same or better |$' "$TEST_TMP/d8.txt" &&
		dvfs_fixture "$TEST_TMP/d9" 995 1000000 250 1/s 0 2 >"$TEST_TMP/d9.txt" &&
		grep -q '^| spawn | forks (1/s) | 1010 \[1000-1020\] | .* | 997 \[995-999\] | loses (fixed) |$' "$TEST_TMP/d9.txt" &&
		dvfs_fixture "$TEST_TMP/d10" 995 1000000 250 1/s 0 3 >"$TEST_TMP/d10.txt" &&
		grep -q '^| spawn | forks (1/s) | 1010 \[1000-1020\] | .* | 998 \[995-1001\] | same or better |$' "$TEST_TMP/d10.txt"
}
check "dvfs table: validation and diagnostics, 'loses' only beyond the spread, energy only without more of the load's metric (throughput up, lateness down), every boot worse, a boot that died counted" dvfs_marks

# dvfs_model_log LOG PARALLEL BURST: one boot of the current guest job,
# its comparisons as medians over rounds: work at fmin and fmax, two
# loops at once doing PARALLEL of their work alone (CPU 1) and 0.99 (CPU
# 0), a burst at fmin with BURST of its util_avg at fmax.
dvfs_model_log() {
	{
		echo "@@@ dvfs policies=2 cpus=2"
		echo "@@@ dvfs-work khz=500000 ratio=0.251 low=0.2 high=0.3"
		echo "@@@ dvfs-work khz=2000000 ratio=1.003 low=0.9 high=1.1"
		echo "@@@ dvfs-work-fmax khz=2000000 ops=1000"
		echo "@@@ dvfs-parallel khz=2000000 cpu=1 ratio=$2 low=0.4 high=1.2"
		echo "@@@ dvfs-parallel khz=2000000 cpu=0 ratio=0.99 low=0.4 high=1.2"
		echo "@@@ dvfs-invariance khz=1142855 ratio=1.02 low=0.9 high=1.1"
		echo "@@@ dvfs-burst khz=500000 ratio=$3 low=0.4 high=1.1"
		echo "@@@ dvfs-schedutil khz=2000000 util_avg=${4:-1010}"
		echo "@@@ guest-end rc=0"
	} >"$1"
}

# The machine model's checks: two CPUs that do not compute in parallel
# (one instruction stream: half their work alone) fail the boot, as does a
# sub-period burst that PELT credits at 0.44 of its fmax util, and a job
# that printed no parallel comparison.
dvfs_model_checks() {
	# shellcheck source=scripts/experiments/dvfs/dvfs.sh
	. "$SCRIPTS_DIR/experiments/dvfs/dvfs.sh"
	local d=$TEST_TMP/model
	mkdir -p "$d"
	echo "arch,policy,kernel,boot,check,khz,value,expected,ok" >"$d/validation.csv"
	echo "arch,policy,kernel,boot,load,metric,value,unit" >"$d/bench.csv"
	dvfs_model_log "$d/1.log" 0.97 0.98
	dvfs_rows "arm64,remote,fixed,1" "$d/1.log" 1 "$d"
	dvfs_model_log "$d/2.log" 0.5 0.98
	dvfs_rows "arm64,remote,fixed,2" "$d/2.log" 1 "$d"
	dvfs_model_log "$d/3.log" 0.97 0.44
	grep -v dvfs-parallel "$d/3.log" >"$d/4.log"
	dvfs_rows "arm64,remote,fixed,3" "$d/3.log" 1 "$d"
	dvfs_rows "arm64,remote,fixed,4" "$d/4.log" 1 "$d"
	dvfs_tables "$d" fixed 4 remote "" >"$d/table.txt"
	if ! grep -qx 'arm64,remote,fixed,1,parallel,2000000,0.97,1,pass' "$d/validation.csv" ||
		! grep -qx 'arm64,remote,fixed,1,burst,500000,0.98,1,pass' "$d/validation.csv" ||
		! grep -qx 'arm64,remote,fixed,1,work,500000,0.251,0.25,pass' "$d/validation.csv" ||
		! grep -qx 'arm64,remote,fixed,2,parallel,2000000,0.5,1,fail' "$d/validation.csv" ||
		! grep -qx 'arm64,remote,fixed,3,burst,500000,0.44,1,fail' "$d/validation.csv" ||
		! grep -qx 'arm64,remote,fixed,4,parallel,2000000,,1,fail' "$d/validation.csv" ||
		! grep -qx '| remote | fixed | parallel | 2/4 | fail |' "$d/table.txt" ||
		! grep -qx '| remote | fixed | burst | 2/4 | fail |' "$d/table.txt" ||
		! grep -qx '| remote | fixed | work | 8/8 | pass |' "$d/table.txt"; then
		cat "$d/validation.csv" "$d/table.txt"
		return 1
	fi
	# The accuracy checks are the median's over the boots: one boot's
	# noisy burst (0.85) does not fail a kernel whose others are right,
	# and the figures of the boot whose CPUs were not parallel are left
	# out of the load tables. schedutil_fmax is judged on each boot kept:
	# a kept boot whose loop's util_avg stayed at 963 fails it.
	d=$TEST_TMP/pooled
	mkdir -p "$d"
	echo "arch,policy,kernel,boot,check,khz,value,expected,ok" >"$d/validation.csv"
	echo "arch,policy,kernel,boot,load,metric,value,unit" >"$d/bench.csv"
	dvfs_model_log "$d/1.log" 0.97 0.98
	dvfs_model_log "$d/2.log" 0.97 0.85 963
	dvfs_model_log "$d/3.log" 0.5 0.98
	for b in 1 2 3; do
		echo "@@@ bench load=spawn metric=forks value=$((1000 + b)) unit=1/s" >>"$d/$b.log"
		dvfs_rows "arm64,per-cpu,fixed,$b" "$d/$b.log" 1 "$d"
	done
	dvfs_tables "$d" fixed 3 per-cpu spawn >"$d/table.txt"
	if ! grep -qx '| per-cpu | fixed | burst | 2/3 | pass |' "$d/table.txt" ||
		! grep -qx '| per-cpu | fixed | parallel | 2/3 | fail |' "$d/table.txt" ||
		! grep -qx '| per-cpu | fixed | schedutil_fmax | 2/3 | fail |' "$d/table.txt" ||
		! grep -q '^| spawn | forks (1/s) | 1002 \[1001-1002\] (2 of 3 boots) |' "$d/table.txt"; then
		cat "$d/validation.csv" "$d/table.txt"
		return 1
	fi
	# A loaded host: every boot fails the parallel check, and their
	# accuracy figures (a burst at 0.5) and schedutil readings (963, as a
	# CI boot read beside a parallel check at 0.89) are this host's, not
	# the emulation's: left out, and the
	# verdict is "cannot judge here" (3), not an inaccurate emulation (1).
	d=$TEST_TMP/loaded
	mkdir -p "$d"
	echo "arch,policy,kernel,boot,check,khz,value,expected,ok" >"$d/validation.csv"
	echo "arch,policy,kernel,boot,load,metric,value,unit" >"$d/bench.csv"
	dvfs_model_log "$d/1.log" 0.8 0.5 963
	dvfs_model_log "$d/2.log" 0.8 0.5
	for b in 1 2; do
		dvfs_rows "arm64,shared,fixed,$b" "$d/$b.log" 1 "$d"
	done
	dvfs_tables "$d" fixed 2 shared "" >"$d/table.txt"
	local rc=0
	dvfs_verdict "$d" 2>"$d/verdict.err" || rc=$?
	if ! grep -qx '| shared | fixed | burst | 0/2 | (every boot left out) |' "$d/table.txt" ||
		! grep -qx '| shared | fixed | schedutil_fmax | 1/2 | (every boot left out) |' "$d/table.txt" ||
		[ $rc -ne 3 ] || ! grep -q '^cannot judge here: 2 boot' "$d/verdict.err"; then
		cat "$d/validation.csv" "$d/table.txt" "$d/verdict.err"
		echo "verdict $rc"
		return 1
	fi
}
check "dvfs model checks: a boot whose two CPUs share one CPU's work fails, so does a burst PELT credits short; a loaded host's figures are left out (exit 3)" dvfs_model_checks

# The clocksource the parallel check and the loads read: x86_64 on the
# HPET (MMIO under QEMU's global lock, as every x86_64 boot was before the
# driver declared the TSC constant) fails its boot, whose figures are
# left out, and the verdict is a broken emulation (1), not a busy host
# (3); the CPU's own counter passes; the older job's logs have no record
# and no row.
dvfs_clocksource_check() {
	# shellcheck source=scripts/experiments/dvfs/dvfs.sh
	. "$SCRIPTS_DIR/experiments/dvfs/dvfs.sh"
	local d=$TEST_TMP/clocksource rc=0
	mkdir -p "$d"
	echo "arch,policy,kernel,boot,check,khz,value,expected,ok" >"$d/validation.csv"
	echo "arch,policy,kernel,boot,load,metric,value,unit" >"$d/bench.csv"
	for b in 1 2 3; do
		dvfs_model_log "$d/$b.log" 0.97 0.98
		echo "@@@ bench load=spawn metric=forks value=$((1000 + b)) unit=1/s" >>"$d/$b.log"
	done
	printf '@@@ dvfs-clocksource when=%s name=%s\n' start tsc-early parallel tsc end tsc >>"$d/1.log"
	printf '@@@ dvfs-clocksource when=%s name=%s\n' start tsc-early parallel tsc end hpet >>"$d/2.log"
	for b in 1 2 3; do
		dvfs_rows "x86_64,per-cpu,fixed,$b" "$d/$b.log" 1 "$d"
	done
	dvfs_model_log "$d/4.log" 0.97 0.98
	printf '@@@ dvfs-clocksource when=%s name=%s\n' start arch_sys_counter end arch_sys_counter >>"$d/4.log"
	dvfs_rows "arm64,per-cpu,fixed,1" "$d/4.log" 1 "$d"
	dvfs_tables "$d" fixed 3 per-cpu spawn >"$d/table.txt"
	dvfs_verdict "$d" 2>/dev/null || rc=$?
	if ! grep -qx 'x86_64,per-cpu,fixed,1,clocksource,,tsc,tsc,pass' "$d/validation.csv" ||
		! grep -qx 'x86_64,per-cpu,fixed,2,clocksource,,hpet,tsc,fail' "$d/validation.csv" ||
		grep -q '^x86_64,per-cpu,fixed,3,clocksource,' "$d/validation.csv" ||
		! grep -qx 'arm64,per-cpu,fixed,1,clocksource,,arch_sys_counter,arch_sys_counter,pass' "$d/validation.csv" ||
		! grep -q '^| spawn | forks (1/s) | 1002 \[1001-1003\] (2 of 3 boots) |' "$d/table.txt" ||
		[ $rc -ne 1 ]; then
		cat "$d/validation.csv" "$d/table.txt"
		echo "verdict $rc"
		return 1
	fi
}
check "dvfs clocksource: x86_64 on the HPET fails its boot (left out, exit 1), the CPU's counter passes, old logs have no row" dvfs_clocksource_check

stress_counts_table() {
	# shellcheck source=scripts/experiments/stress/stress.sh
	. "$SCRIPTS_DIR/experiments/stress/stress.sh"
	printf '# done: forks=10 exits=10 hotplugs=2\r\n' >"$TEST_TMP/s1.log"
	printf '# done: forks=5 exits=5 hotplugs=1\n' >"$TEST_TMP/s2.log"
	{
		stress_counts x86_64,fixed,1,60 "$TEST_TMP/s1.log"
		stress_counts x86_64,fixed,2,60 "$TEST_TMP/s2.log"
	} >"$TEST_TMP/counts.csv"
	counts_table "$TEST_TMP/counts.csv" | tee "$TEST_TMP/counts.txt"
	grep -qx '| x86_64 fixed | 2 | 120 | 15 | 15 | 3 |' "$TEST_TMP/counts.txt"
}
check "stress counts: summed over the boots of a kernel" stress_counts_table

[ "$TEST_FAILED" -eq 0 ]
