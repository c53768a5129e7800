#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot one kernel under QEMU (TCG), let /init run one job and keep the
# console log. The job's output is what /init printed between its
# "@@@ guest-begin" and "@@@ guest-end rc=N" lines.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [options] ARCH KERNEL_IMAGE INITRAMFS CONSOLE_LOG

Boot KERNEL_IMAGE for ARCH ($ARCHES) with INITRAMFS under QEMU software
emulation (-accel tcg,thread=multi, 2 vCPUs, never more than host cores)
and write the console to CONSOLE_LOG. Exits 0 when the guest's job
finished (whatever its result, unless --job-must-pass), non-zero with
the reason when the guest
panicked, hung, printed no result or the kernel printed a warning, BUG,
oops, lockdep, KASAN/UBSAN or stall report (console at loglevel 5, so
all of those show). Holds the machine lock while the guest runs.

  --topology cores|smt  2 cores (default) or 1 core with 2 threads (x86_64)
  --job JOB             what /init runs: selftest (default) or a script of
                        scripts/guest/ (cost, diag, cleanup, splat,
                        phantom, pelt_bounds, stress, bench, dvfs)
  --args "ARGS"         arguments for the job (selftest: run the test
                        directly with ARGS instead of through the runner)
  --runner-args "ARGS"  arguments for run_kselftest.sh (e.g. "-o 5")
  --job-must-pass       a job that ended with a non-zero status is a failure
                        (for jobs whose output is data, not a verdict)
  --timeout SECONDS     give up after this long (default 240)
  --append "PARAMS"     more kernel parameters (e.g. noautogroup)
  --icount              guest time counts instructions, not host time
                        (-icount shift=0,sleep=off: one instruction is 1 ns;
                        one host thread runs both vCPUs): what the guest
                        measures no longer depends on the host's speed,
                        but its loops/s are not comparable to real time
USAGE
}

qemu_command() {
	local arch=$1 kernel=$2 initrd=$3 log=$4 topology=$5 append=$6 icount=$7 smp accel
	case "$topology" in
	cores) smp=$GUEST_VCPUS,sockets=1,cores=$GUEST_VCPUS,threads=1 ;;
	# QEMU warns that its AMD-like default CPU lacks topoext, but the
	# guest finds the siblings all the same (init prints cpu0-siblings).
	smt) smp=$GUEST_VCPUS,sockets=1,cores=1,threads=$GUEST_VCPUS ;;
	esac
	case "$arch" in
	x86_64)
		printf '%s\n' qemu-system-x86_64 -smp "$smp"
		append="console=ttyS0 $append"
		;;
	arm64)
		printf '%s\n' qemu-system-aarch64 -machine virt -cpu max,pauth-impdef=on -smp "$smp"
		append="console=ttyAMA0 $append"
		;;
	i386)
		printf '%s\n' qemu-system-i386 -smp "$smp"
		append="console=ttyS0 $append"
		;;
	# armv7 with the virtualization extensions, as 32-bit arm SoCs of the
	# last decade have them (generic timer, GICv2, PSCI to start CPU1).
	arm)
		printf '%s\n' qemu-system-arm -machine virt -cpu cortex-a15 -smp "$smp"
		append="console=ttyAMA0 $append"
		;;
	esac
	accel=(-accel "tcg,thread=multi")
	# icount needs one TCG thread for all vCPUs.
	! $icount || accel=(-accel "tcg,thread=single" -icount "shift=0,sleep=off")
	# -nodefaults: no NIC, VGA, floppy, CD-ROM or parallel port that the
	# guest would probe and nothing uses; the console is the one serial
	# port given here.
	printf '%s\n' "${accel[@]}" -nodefaults -m 1024 -no-reboot -display none \
		-monitor none -serial "file:$log" -kernel "$kernel" -initrd "$initrd" \
		-append "$append"
}

main() {
	local topology=cores job=selftest args="" timeout=240 append="" runner_args="" icount=false must_pass=false
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--topology) topology=${2:-}; shift 2 || usage_error "--topology needs a value" ;;
		--job) job=${2:-}; shift 2 || usage_error "--job needs a value" ;;
		--args) args=${2:-}; shift 2 || usage_error "--args needs a value" ;;
		--runner-args) runner_args=${2:-}; shift 2 || usage_error "--runner-args needs a value" ;;
		--timeout) timeout=${2:-}; shift 2 || usage_error "--timeout needs a value" ;;
		--append) append=${2:-}; shift 2 || usage_error "--append needs a value" ;;
		--icount) icount=true; shift ;;
		--job-must-pass) must_pass=true; shift ;;
		-*) usage_error "unknown option $1" ;;
		*) break ;;
		esac
	done
	[ $# -eq 4 ] || { usage >&2; exit 2; }
	local arch=$1 kernel=$2 initrd=$3 log=$4 cmd qemu rc=0 splat job_rc
	check_arch "$arch"
	case "$topology" in
	cores) ;;
	smt) [ "$arch" = x86_64 ] || usage_error "--topology smt is for x86_64 only" ;;
	*) usage_error "unknown topology '$topology': cores or smt" ;;
	esac
	[ "$job" = selftest ] || [ -f "$SCRIPTS_DIR/guest/$job.sh" ] || usage_error "unknown job '$job'"
	[[ "$timeout" =~ ^[0-9]+$ ]] || usage_error "--timeout takes seconds"
	[ -f "$kernel" ] || usage_error "no kernel image at $kernel"
	[ -f "$initrd" ] || usage_error "no initramfs at $initrd"
	[ "$(nproc)" -ge "$GUEST_VCPUS" ] ||
		die "the guest needs $GUEST_VCPUS vCPUs and this host has $(nproc) core(s)"

	# loglevel=5: warnings (level 4) and worse reach the console.
	mapfile -t cmd < <(qemu_command "$arch" "$kernel" "$initrd" "$log" "$topology" \
		"loglevel=5 panic=-1 $append guest_job=$job guest_args=\"$args\" guest_runner_args=\"$runner_args\"" "$icount")
	qemu=${cmd[0]}
	need_cmds "$qemu" timeout
	mkdir -p "$(dirname "$log")"
	: >"$log"
	printf '%q ' "${cmd[@]}" >"$log.cmdline"
	with_machine_lock timeout --kill-after=10 "$timeout" "${cmd[@]}" </dev/null >"$log.qemu" 2>&1 ||
		rc=$?

	if grep -q 'Kernel panic' "$log"; then
		die "guest panicked: $(grep -m1 'Kernel panic' "$log" | tr -d '\r'); console: $log"
	elif splat=$(console_splat "$log"); then
		die "kernel splat: $splat; console: $log"
	elif job_rc=$(tr -d '\r' <"$log" | sed -n 's/^@@@ guest-end rc=\([0-9]*\)$/\1/p' | tail -n 1) &&
		[ -n "$job_rc" ]; then
		! $must_pass || [ "$job_rc" -eq 0 ] ||
			die "guest job $job exited $job_rc; console: $log"
		return 0
	elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		die "guest hung: no result after ${timeout}s; console: $log"
	elif [ "$rc" -ne 0 ]; then
		die "$qemu failed (exit $rc): $(head -c 300 "$log.qemu"); console: $log"
	fi
	die "guest printed no result; console: $log"
}

run_main "$@"
