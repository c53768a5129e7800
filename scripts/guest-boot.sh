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

Boot KERNEL_IMAGE for ARCH ($ARCHES) with INITRAMFS under QEMU
(-accel tcg,thread=multi), the console to CONSOLE_LOG, holding the
machine lock. Exits 0 when the guest's job finished (whatever its
result, unless --job-must-pass); else non-zero with the reason: panic,
hang, no result, or a warning, BUG, oops, lockdep, KASAN/UBSAN or stall
report (the console is at loglevel 5).

  --topology T          cores (2 cores, default), smt (1 core of 2 threads),
                        coresN, smtCxT (C cores of T threads), numaNxC (N
                        nodes of C cores), asymBxL (B big, L little cores);
                        $(topology_arches_text)
  --oversubscribe       allow more vCPUs than host cores (the host's
                        scheduler then stops vCPUs at random)
  --possible-cpus N     N possible CPUs of which only the topology's come
                        online ($(arches_text ARCH_POSSIBLE_CPUS yes) only)
  --job JOB             what /init runs (default selftest): one of
$(guest_jobs | fold -s -w 52 | sed 's/ *$//; s/^/                        /')
  --args "ARGS"         the job's arguments (selftest: run it with ARGS,
                        not through the runner)
  --runner-args "ARGS"  arguments for run_kselftest.sh (e.g. "-o 5")
  --job-must-pass       a job that ended non-zero is a failure
  --timeout SECONDS     give up after this long (default 240)
  --append "PARAMS"     more kernel parameters (e.g. noautogroup)
  --icount              guest time counts instructions (-icount shift=0,
                        sleep=off; one host thread runs every vCPU)
USAGE
}

# smp_args TOPOLOGY: QEMU's -smp and -numa arguments, one a line.
smp_args() {
	local vcpus nodes cores threads node
	read -r vcpus nodes cores threads _ _ < <(topology_shape "$1")
	printf '%s\n' -smp "$vcpus,sockets=$nodes,cores=$cores,threads=$threads"
	[ "$nodes" -gt 1 ] || return 0
	# One socket per node, the memory split evenly between them.
	for node in $(seq 0 $((nodes - 1))); do
		printf '%s\n' -object "memory-backend-ram,id=mem$node,size=$((GUEST_MEMORY_MB / nodes))M" \
			-numa "node,nodeid=$node,cpus=$((node * cores))-$((node * cores + cores - 1)),memdev=mem$node"
	done
}

# edit_dtb QEMU_ARGS... -- OUT BIG POSSIBLE COMPATIBLE: the device tree
# QEMU makes
# for these arguments, as OUT, with (BIG > 0) capacity-dmips-mhz 1024 on
# the first BIG CPU nodes and 485 on the others (RK3399's Cortex-A72 and
# -A53), and CPU nodes (compatible COMPATIBLE, the arch's ARCH_DT_CPU)
# up to POSSIBLE CPUs: the kernel counts them
# possible, but QEMU has no such CPU to start (PSCI CPU_ON fails), so
# they stay offline. QEMU adds the command line and the initramfs to it
# at boot.
edit_dtb() {
	local qemu_args=() out big possible compatible
	while [ "$1" != -- ]; do qemu_args+=("$1"); shift; done
	out=$2 big=$3 possible=$4 compatible=$5
	need_cmds dtc
	local err
	err=$("${qemu_args[@]}" -machine "dumpdtb=$out.orig" -display none -nodefaults 2>&1) ||
		die "dumping the device tree failed: $err"
	dtc -q -I dtb -O dts "$out.orig" |
		awk -v big="$big" -v possible="$possible" -v compatible="$compatible" '
			/^\t\tcpu@[0-9a-f]+ \{$/ { cpus++ }
			# The end of the cpus node: the CPUs that are not there.
			/^\t};$/ && cpus && !added {
				for (c = cpus; c < possible; c++)
					printf "\n\t\tcpu@%x {\n\t\t\treg = <0x%x>;\n" \
						"\t\t\tenable-method = \"psci\";\n" \
						"\t\t\tcompatible = \"%s\";\n" \
						"\t\t\tdevice_type = \"cpu\";\n\t\t};\n", c, c, compatible
				added = 1
			}
			{ print }
			big > 0 && /^\t\tcpu@[0-9a-f]+ \{$/ {
				printf "\t\t\tcapacity-dmips-mhz = <%d>;\n", n++ < big ? 1024 : 485
			}' |
		dtc -q -I dts -O dtb -o "$out"
	rm -f "$out.orig"
}

qemu_command() {
	local arch=$1 kernel=$2 initrd=$3 log=$4 topology=$5 append=$6 icount=$7 possible=$8
	local vcpus big machine=() accel smp
	mapfile -t smp < <(smp_args "$topology")
	read -r vcpus _ _ _ big _ < <(topology_shape "$topology")
	mapfile -t machine < <(arch_qemu_machine "$arch" "$vcpus" "$possible")
	append="console=$(arch_field "$arch" ARCH_CONSOLE) $append"
	machine+=("${smp[@]}" -m "$GUEST_MEMORY_MB")
	if [ "$big" -gt 0 ] || [ "$possible" -gt "$vcpus" ]; then
		edit_dtb "${machine[@]}" -- "$log.dtb" "$big" "$possible" "$(arch_field "$arch" ARCH_DT_CPU)"
		machine+=(-dtb "$log.dtb")
	fi
	printf '%s\n' "${machine[@]}"
	accel=(-accel "tcg,thread=multi")
	# icount needs one TCG thread for all vCPUs.
	! $icount || accel=(-accel "tcg,thread=single" -icount "shift=0,sleep=off")
	# -nodefaults: no NIC, VGA, floppy, CD-ROM or parallel port that the
	# guest would probe and nothing uses; the console is the one serial
	# port given here.
	# -name ...,debug-threads=on names each vCPU's thread "CPU N/TCG",
	# by which verify.sh --host-load slow-vcpu finds the one it holds.
	printf '%s\n' "${accel[@]}" -name fork-regression,debug-threads=on \
		-nodefaults -no-reboot -display none \
		-monitor none -serial "file:$log" -kernel "$kernel" -initrd "$initrd" \
		-append "$append"
	# shellcheck disable=SC2086 # one word per argument, by design
	[ -z "${GUEST_QEMU_ARGS:-}" ] || printf '%s\n' $GUEST_QEMU_ARGS
}

# run_qemu TIMEOUT CMD...: the guest, killed after TIMEOUT seconds. Under
# scripts/deps/deps-trace.sh QEMU runs outside strace (run_untraced --alone:
# traced, its vCPUs lose the host's cores), and what it executes and
# opens is recorded by the same command traced first, its CPUs never
# started (-S), told to quit through QMP once it has set the machine up
# (loaded its firmware, kernel and initramfs).
run_qemu() {
	local timeout=$1
	shift
	if [ -n "${FORK_REGRESSION_DEPS_TRACE:-}" ]; then
		printf '%s\n' '{"execute": "qmp_capabilities"}' '{"execute": "quit"}' |
			timeout 20 "$@" -S -qmp stdio >/dev/null 2>&1 || true
	fi
	run_untraced --alone timeout --kill-after=10 "$timeout" "$@"
}

main() {
	local topology=cores job=selftest args="" timeout=240 append="" runner_args="" icount=false must_pass=false
	local oversubscribe=false possible=0
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
		--oversubscribe) oversubscribe=true; shift ;;
		--possible-cpus) possible=${2:-}; shift 2 || usage_error "--possible-cpus needs a value" ;;
		--job-must-pass) must_pass=true; shift ;;
		-*) usage_error "unknown option $1" ;;
		*) break ;;
		esac
	done
	[ $# -eq 4 ] || { usage >&2; exit 2; }
	local arch=$1 kernel=$2 initrd=$3 log=$4 cmd qemu rc=0 outcome why
	check_arch "$arch"
	topology_check "$arch" "$topology"
	# Where the kernel takes CPUs that never start as possible: the
	# arch's record (ARCH_POSSIBLE_CPUS) says why not elsewhere.
	[ "$possible" = 0 ] || arch_has "$arch" ARCH_POSSIBLE_CPUS yes ||
		usage_error "--possible-cpus: $(arches_text ARCH_POSSIBLE_CPUS yes) only (scripts/arch/$arch.sh: ARCH_POSSIBLE_CPUS)"
	if ! [[ "$possible" =~ ^[0-9]+$ ]] || [ "$possible" -gt 256 ]; then
		usage_error "--possible-cpus takes a number of CPUs up to 256 (CONFIG_NR_CPUS)"
	fi
	[[ " $(guest_jobs) " = *" $job "* ]] || usage_error "unknown job '$job'"
	[[ "$timeout" =~ ^[0-9]+$ ]] || usage_error "--timeout takes seconds"
	[ -f "$kernel" ] || usage_error "no kernel image at $kernel"
	[ -f "$initrd" ] || usage_error "no initramfs at $initrd"
	why=$(topology_vcpus_fit "$topology" "$icount" "$oversubscribe") || die "$why"

	# loglevel=5: warnings (level 4) and worse reach the console.
	cmd=$(qemu_command "$arch" "$kernel" "$initrd" "$log" "$topology" \
		"loglevel=5 panic=-1 $append guest_job=$job guest_args=\"$args\" guest_runner_args=\"$runner_args\"" "$icount" "$possible")
	mapfile -t cmd <<<"$cmd"
	qemu=${cmd[0]}
	need_cmds "$qemu" timeout
	mkdir -p "$(dirname "$log")"
	: >"$log"
	printf '%q ' "${cmd[@]}" >"$log.cmdline"
	with_machine_lock run_qemu "$timeout" "${cmd[@]}" </dev/null >"$log.qemu" 2>&1 || rc=$?
	# The facts; what they make of the boot is boot_outcome's.
	echo "rc=$rc timeout=$timeout" >"$log.qemu-exit"
	outcome=$(boot_outcome "$log")
	case "$outcome" in
	ended\ *)
		! $must_pass || [ "${outcome#ended }" -eq 0 ] ||
			die "guest job $job exited ${outcome#ended }; console: $log"
		;;
	*) die "$(boot_outcome_error "$log" "$outcome")" ;;
	esac
}

# Sourcing (for tests) defines the functions without running main.
[ "${BASH_SOURCE[0]}" != "$0" ] || run_main "$@"
