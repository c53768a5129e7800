#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # the functions run through check
# The driver's one policy for boots (scripts/lib/experiment.sh), on the
# fakes of tests/fakes.sh: a run that cannot boot what it asks for stops
# before any build; a run judges every boot its options ask for or says
# which it left out, and never passes with one left out; a boot this
# host could not judge (the selftest's CPUs did not compute at once) is
# booted again, and one that never gave a verdict ends the run with 3.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 16
# shellcheck source=tests/fakes.sh
. "$(dirname "$0")/fakes.sh"
DATA=$PROJECT_DIR/Documentation/data
FIXTURES=$PROJECT_DIR/tests/fixtures/console
RECORDED=$DATA/make-verify-6.12.117-two-patches/logs

# before_any_build STATUS PATTERN COMMAND...: COMMAND exits STATUS, says
# PATTERN, within seconds, and started no build.
before_any_build() {
	local start=$SECONDS
	rm -rf "$BUILD_DIR"
	fails_with "$@" || return 1
	[ ! -e "$BUILD_DIR/fake-kernels" ] || { echo "a build started"; return 1; }
	[ $((SECONDS - start)) -le 10 ] || { echo "took $((SECONDS - start)) s"; return 1; }
}

check "a 1-CPU host: cannot judge here, exit 3, before any build" \
	before_any_build 3 "^cannot judge here: topology cores has 2 vCPUs and this host 1 core(s)" \
	taskset -c 0 "$PROJ/scripts/verify.sh" --boots 1 --out "$TEST_TMP/one-cpu"
check "a topology of more vCPUs than this host's cores: exit 3, before any build" \
	before_any_build 3 "^cannot judge here: topology cores$(($(nproc) + 1)) has" \
	"$PROJ/scripts/verify.sh" --arch x86_64 --topologies "cores$(($(nproc) + 1))" --out "$TEST_TMP/big"
check "a topology over CONFIG_NR_CPUS: a usage error, before any build" \
	before_any_build 2 "at most 256 vCPUs" \
	"$PROJ/scripts/verify.sh" --arch x86_64 --topologies cores999 --out "$TEST_TMP/huge"

# no_qemu TOOL...: TOOL with a PATH that has every program but QEMU's.
no_qemu() {
	local bin=$TEST_TMP/no-qemu-bin dir f
	if [ ! -d "$bin" ]; then
		mkdir -p "$bin"
		for dir in ${PATH//:/ }; do
			for f in "$dir"/*; do
				case "${f##*/}" in qemu* | "*") continue ;; esac
				[ -e "$bin/${f##*/}" ] || ln -s "$f" "$bin/${f##*/}"
			done
		done
	fi
	PATH=$bin "$@"
}
qemu_missing() {
	local tool
	for tool in verify.sh experiments/bench/bench.sh experiments/cost/cost.sh experiments/diagnose/diagnose.sh; do
		before_any_build 1 "^error: missing tools: qemu-system-x86_64" \
			no_qemu "$PROJ/scripts/$tool" --arch x86_64 --boots 1 --out "$TEST_TMP/no-qemu-${tool##*/}" ||
			{ echo "$tool"; return 1; }
	done
}
check "QEMU missing: verify, bench, cost and diagnose stop before any build, exit 1" qemu_missing
check "no topology of the arch's: a usage error" \
	before_any_build 2 "no topology of" "$PROJ/scripts/verify.sh" --arch arm64 --topologies smt
check "no kernel: a usage error" \
	before_any_build 2 "--variants needs a kernel" "$PROJ/scripts/verify.sh" --variants ""

# verify_replay NAME STATUS OVERLAY_DIR [OPTION...]: verify.sh, x86_64
# cores, one boot of each kernel, replaying make verify's recorded logs
# with OVERLAY_DIR's first, exits STATUS; its output in TEST_TMP/NAME.out.
verify_replay() {
	local name=$1 want=$2 overlay=$3 rc=0
	shift 3
	rm -rf "${TEST_TMP:?}/$name" "$FAKE/qemu.logs"
	FAKE_QEMU=replay FAKE_REPLAY="$overlay $RECORDED" "$PROJ/scripts/verify.sh" --arch x86_64 \
		--topologies cores --boots 1 --out "$TEST_TMP/$name" "$@" >"$TEST_TMP/$name.out" 2>&1 || rc=$?
	[ "$rc" -eq "$want" ] || { echo "exit $rc, expected $want"; tail -n 30 "$TEST_TMP/$name.out"; return 1; }
}

# A build that fails stops the run there: no boot, exit 1.
build_fails() {
	rm -f "$FAKE/qemu.pids"
	FAKE_BUILD=fail FAKE_QEMU=rc=0 fails_with 1 "^error: fake build of x86_64 reference failed" \
		"$PROJ/scripts/verify.sh" --arch x86_64 --topologies cores --boots 1 --out "$TEST_TMP/build-fails" || return 1
	if [ -e "$FAKE/qemu.pids" ] || grep -q " boot 1/1: " "$TEST_TMP/fail.out"; then
		echo "a boot was tried"
		return 1
	fi
}
check "a build that fails stops the run before any boot, exit 1" build_fails

# A boot that failed before its console log existed (here QEMU's program
# vanished once the run had started) is left out: exit 1, named.
boot_without_log() {
	local rc=0 out=$TEST_TMP/vanished
	rm -rf "$out"
	FAKE_QEMU=replay FAKE_REPLAY=$RECORDED "$PROJ/scripts/verify.sh" --arch x86_64 --topologies cores \
		--boots 1 --out "$out" >"$out.first" 2>&1 || return 1
	rm "$out/logs/x86_64-cores-fixed-1.log"
	echo "error: missing tools: qemu-system-x86_64 (run scripts/install-deps.sh as root)" \
		>"$out/logs/x86_64-cores-fixed-1.log.boot-error"
	fails_with 1 "^error: x86_64 cores fixed boot 1 left out: no console log: missing tools: qemu-system-x86_64" \
		"$PROJ/scripts/verify.sh" --table "$out" || return 1
	grep -q "verify x86_64 cores: 3 boot(s) expected, 2 judged, 1 left out$" "$TEST_TMP/fail.out" ||
		{ cat "$TEST_TMP/fail.out"; return 1; }
}
check "a boot without a console log is left out, named: exit 1, never a pass" boot_without_log

# busy_overlay NAME [FIXTURE]: a new replay directory TEST_TMP/NAME-overlay
# whose only log, NAME, is the busy fixture (or FIXTURE) (fakes.sh: NAME.tryN for a try).
busy_overlay() {
	local overlay=$TEST_TMP/$1-overlay
	rm -rf "$overlay"
	mkdir -p "$overlay"
	cp "$FIXTURES/${2:-x86_64-busy.log}" "$overlay/$1"
	echo "$overlay"
}

# A busy host on every try of a boot: booted three times in all, each
# try kept, exit 3 with each try's figure.
busy_every_try() {
	local figure="the test's CPUs did not compute at once (0.64)"
	verify_replay busy 3 "$(busy_overlay x86_64-cores-fixed-1.log)" || return 1
	if ! grep -qxF "cannot judge here: x86_64 cores fixed boot 1: $figure; $figure; $figure" "$TEST_TMP/busy.out" ||
		! grep -q "this host cannot judge" "$TEST_TMP/busy.out" ||
		[ ! -f "$TEST_TMP/busy/logs/x86_64-cores-fixed-1.log.try1" ] ||
		[ ! -f "$TEST_TMP/busy/logs/x86_64-cores-fixed-1.log.try2" ] ||
		[ "$(grep -c 'fixed-1.log$' "$FAKE/qemu.logs")" -ne 3 ] ||
		[ "$(grep -c 'reference-1.log$' "$FAKE/qemu.logs")" -ne 1 ]; then
		cat "$TEST_TMP/busy.out"
		return 1
	fi
}
check "a boot on a busy host on every try: booted again twice, exit 3 with the figures" busy_every_try

# A host that got busy during the rounds: the selftest's check after
# them skips the verdict, and that boot too is one the host could not
# judge, with its figure.
busy_after_the_rounds() {
	local figure="the test's CPUs did not compute at once after the rounds (0.52)"
	verify_replay busy-after 3 "$(busy_overlay x86_64-cores-fixed-1.log x86_64-busy-after.log)" || return 1
	grep -qxF "cannot judge here: x86_64 cores fixed boot 1: $figure; $figure; $figure" \
		"$TEST_TMP/busy-after.out" || { cat "$TEST_TMP/busy-after.out"; return 1; }
}
check "a boot whose CPUs stopped computing at once during the rounds: exit 3, its figure named" \
	busy_after_the_rounds

# Busy on the first try only: the second gives the verdict, exit 0.
busy_once() {
	verify_replay busy-once 0 "$(busy_overlay x86_64-cores-fixed-1.log.try1)" || return 1
	grep -q "verify x86_64 cores: 3 boot(s) expected, 3 judged, 0 left out$" "$TEST_TMP/busy-once.out" ||
		{ cat "$TEST_TMP/busy-once.out"; return 1; }
}
check "a boot on a busy host once: its second try is judged, exit 0" busy_once

# The selftest's words for the skip are what parse-console.sh reads as
# busy: a change to them is a change here too.
selftest_busy_words() {
	grep -q "\"the test's CPUs do not compute at once (%.2f %s): %s\\\\n\"" \
		"$PROJECT_DIR/selftests/sched/fork_placement_test.c" &&
		grep -q "SKIP the test.s CPUs do not compute at once " "$SCRIPTS_DIR/parse-console.sh" &&
		grep -q "skip_verdicts(\"the test's CPUs do not compute at once after the rounds\");" \
			"$PROJECT_DIR/selftests/sched/fork_placement_test.c" &&
		grep -q "# the test.s CPUs do not compute at once after the rounds/" "$SCRIPTS_DIR/parse-console.sh"
}
check "the selftest's skip for CPUs not at once is the one parse-console.sh reads" selftest_busy_words

# --table DIR with options judges what they say: one kernel, one boot.
table_with_options() {
	verify_replay table 0 "" --boots 2 || return 1
	"$PROJ/scripts/verify.sh" --table "$TEST_TMP/table" --variants fixed --boots 1 \
		>"$TEST_TMP/table-again.out" 2>&1 || { cat "$TEST_TMP/table-again.out"; return 1; }
	if ! grep -q "^x86_64  cores    fixed .* 1/1 pass" "$TEST_TMP/table/table.txt" ||
		grep -q "^x86_64  cores    re" "$TEST_TMP/table/table.txt" ||
		! grep -q "1 boot(s) expected, 1 judged" "$TEST_TMP/table-again.out"; then
		cat "$TEST_TMP/table/table.txt" "$TEST_TMP/table-again.out"
		return 1
	fi
}
check "--table with --variants and --boots judges those kernels and boots only" table_with_options

# bench.sh, whose table is data: a boot whose kernel printed a warning
# is left out and fails the run, whatever its figures say.
BENCH=$DATA/alternatives-6.12.117-x86_64/bench
bench_splat() {
	local overlay=$TEST_TMP/bench-overlay rc=0
	rm -rf "$overlay" "$TEST_TMP/bench"
	mkdir -p "$overlay"
	sed '0,/^@@@ guest-begin/s//WARNING: CPU: 1 PID: 42 at kernel\/sched\/fair.c:1 fake+0x0\/0x0\r\n&/' \
		"$BENCH/logs/x86_64-fixed-1.log" >"$overlay/x86_64-fixed-1.log"
	FAKE_QEMU=replay FAKE_REPLAY="$overlay $BENCH/logs" "$PROJ/scripts/experiments/bench/bench.sh" \
		--boots 5 --variants "reference regressed fixed alt-A alt-B alt-C" --out "$TEST_TMP/bench" \
		>"$TEST_TMP/bench.out" 2>&1 || rc=$?
	if [ "$rc" -ne 1 ] ||
		! grep -q "^error: x86_64 cores fixed boot 1 left out: kernel splat: WARNING: CPU: 1 PID: 42" "$TEST_TMP/bench.out"; then
		echo "exit $rc"
		tail -n 20 "$TEST_TMP/bench.out"
		return 1
	fi
}
check "bench.sh: a boot with a kernel warning is left out, exit 1" bench_splat
# Boots whose job ended without a figure left the tables empty.
bench_without_figures() {
	FAKE_QEMU=rc=0 fails_with 1 "^error: x86_64 cores fixed boot 1 left out: no figure of a load" \
		"$PROJ/scripts/experiments/bench/bench.sh" --boots 1 --variants "reference fixed" --out "$TEST_TMP/bench-empty"
}
check "bench.sh: boots without a figure are left out, exit 1" bench_without_figures

# A console log's name read back: kernels with "-" and "@" in them.
log_fields() {
	# shellcheck source=scripts/lib.sh
	. "$SCRIPTS_DIR/lib.sh"
	[ "$(console_log_fields d/logs/x86_64-cores-fixed@mainline-fast-path-2.log)" = \
		"x86_64 cores fixed@mainline-fast-path 2" ] &&
		[ "$(console_log_fields d/logs/arm64-alt-B-1.log)" = "arm64 - alt-B 1" ] &&
		[ "$(console_log_fields d/logs/x86_64-smt2x2-reference+dvfs-10.log)" = "x86_64 smt2x2 reference+dvfs 10" ] &&
		! console_log_fields d/logs/x86_64-fixed.log
}
check "a console log's name gives its arch, topology, kernel and boot back" log_fields

exit "$TEST_FAILED"
