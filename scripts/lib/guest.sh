# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source lib.sh
# SPDX-License-Identifier: GPL-2.0
# Kernels and guests: builds before boots, the one boot loop, console
# logs and the failures guest-boot.sh leaves in them.
# Sourced by scripts/lib.sh, never run.

# The code the guests run: scripts/guest/ (/init, the selftest's side and
# the harness's own jobs) and the guest/ folder of each experiment in
# scripts/experiments/. guest-initramfs.sh puts all of it into the
# guest's /guest/, so a job's or a program's name is unique among them
# (tests/10).
guest_code_dirs() {
	printf '%s\n' "$SCRIPTS_DIR/guest" "$SCRIPTS_DIR"/experiments/*/guest
}

# guest_code EXTENSION: every file of the guests' code ending in
# .EXTENSION (sh: the jobs, c: the programs), one path a line.
guest_code() {
	local dir file
	while read -r dir; do
		for file in "$dir"/*."$1"; do
			[ ! -e "$file" ] || echo "$file"
		done
	done < <(guest_code_dirs)
}

# guest_jobs: what guest-boot.sh --job takes, space-separated. No
# program run: guest-boot.sh asks it on every boot.
guest_jobs() {
	local jobs=selftest file
	while read -r file; do
		file=${file##*/}
		jobs+=" ${file%.sh}"
	done < <(guest_code sh)
	echo "$jobs"
}

# build_guests ARCH SUFFIX "VARIANTS" [KERNEL_BUILD_ARG...]: build the
# kernel of each variant (VARIANT+SUFFIX, e.g. +diag) and the initramfs
# of ARCH, all before any guest boots: no guest may run while a build
# does. Sets GUEST_IMAGE[ARCH-VARIANT] and GUEST_INITRAMFS[ARCH], the
# paths the builds print.
declare -A GUEST_IMAGE GUEST_INITRAMFS
build_guests() {
	local arch=$1 suffix=$2 variants=$3 v
	shift 3
	for v in $variants; do
		GUEST_IMAGE[$arch-$v]=$("$SCRIPTS_DIR/kernel-build.sh" "$@" "$arch" "$v$suffix")
	done
	# A build like the kernels': alone on the machine, and never two at
	# once into the same build/guest/ARCH (two tools may start together).
	GUEST_INITRAMFS[$arch]=$(with_machine_lock "$SCRIPTS_DIR/guest-initramfs.sh" "$arch")
}

# Guest topologies. cores (2 cores) and smt (1 core of 2 threads) are the
# 2-vCPU guests every tool boots by default; the machine shapes of the
# selftest's calibration
# (Documentation/records/2026-12-06-selftest-machine-shapes.md, "Machine
# shapes") are coresN (N cores), smtCxT (C cores of T threads), numaNxC (N
# NUMA nodes of C cores each) and asymBxL (B big and L little cores,
# capacity-dmips-mhz 1024 and 485 as RK3399's device tree has); which
# arch QEMU makes smt and asym shapes for is its record's ARCH_TOPOLOGIES.
# topology_shape TOPOLOGY prints "VCPUS NODES CORES THREADS BIG LITTLE"
# (CORES per node), or fails on a name that is none of these.
topology_shape() {
	local a b
	case "$1" in
	cores) echo "2 1 2 1 0 0" ;;
	smt) echo "2 1 1 2 0 0" ;;
	*)
		[[ $1 =~ ^(cores|smt|numa|asym)([1-9][0-9]*)(x([1-9][0-9]*))?$ ]] || return 1
		a=${BASH_REMATCH[2]} b=${BASH_REMATCH[4]}
		case "${BASH_REMATCH[1]}${b:+x}" in
		cores) echo "$a 1 $a 1 0 0" ;;
		smtx) echo "$((a * b)) 1 $a $b 0 0" ;;
		numax) echo "$((a * b)) $a $b 1 0 0" ;;
		asymx) echo "$((a + b)) 1 $((a + b)) 1 $a $b" ;;
		*) return 1 ;;
		esac
		;;
	esac
}

# topology_known TOPOLOGY: a usage error unless it names a shape.
topology_known() {
	topology_shape "$1" >/dev/null ||
		usage_error "unknown topology '$1': cores, smt, coresN, smtCxT, numaNxC or asymBxL"
}

# topology_check ARCH TOPOLOGY: a usage error unless ARCH can boot it.
topology_check() {
	local shape
	shape=$(topology_shape "$2") || topology_known "$2"
	topology_fits "$1" "$2" || usage_error "topology $2 is not one of $1's ($(topology_arches_text))"
	[ "${shape%% *}" -le 256 ] || usage_error "topology $2: at most 256 vCPUs (CONFIG_NR_CPUS)"
}

# topology_fits ARCH TOPOLOGY: QEMU makes that shape for ARCH (smt and
# asym shapes where its record's ARCH_TOPOLOGIES says so).
topology_fits() {
	case "$2" in
	smt*) arch_has "$1" ARCH_TOPOLOGIES smt ;;
	asym*) arch_has "$1" ARCH_TOPOLOGIES asym ;;
	esac
}

# topology_arches_text: which arches the smt and asym shapes are for.
topology_arches_text() {
	local kind
	for kind in smt asym; do
		printf '%s*: %s' "$kind" "$(arches_text ARCH_TOPOLOGIES "$kind")"
		[ "$kind" = asym ] || printf ', '
	done
	echo
}

# topology_vcpus TOPOLOGY: its number of vCPUs.
topology_vcpus() {
	local shape
	shape=$(topology_shape "$1") || return 1
	echo "${shape%% *}"
}

# topology_vcpus_fit TOPOLOGY ICOUNT OVERSUBSCRIBE: this host has a core
# for each of the topology's vCPUs, or the guest may share them (ICOUNT
# or OVERSUBSCRIBE "true"); else why not, and false. More vCPUs than
# cores: under multi-threaded TCG the host's scheduler stops vCPUs at
# random, which the guest sees as slow CPUs; under -icount guest time
# stands still while a vCPU waits its turn.
topology_vcpus_fit() {
	local vcpus cores
	vcpus=$(topology_vcpus "$1") || return 1
	cores=$(nproc)
	[ "$cores" -lt "$vcpus" ] && ! $2 && ! $3 || return 0
	echo "topology $1 has $vcpus vCPUs and this host $cores core(s) (--oversubscribe would share them, and no verdict of the selftest would hold)"
	return 1
}

# boot_one ARCH KERNEL BOOT OUT NAME BOOTS GUEST_BOOT_OPTION...: boot
# KERNEL of build_guests once as boot BOOT (of BOOTS, for the progress
# line), with guest-boot.sh's options (--job ...); its console log is
# console_log's, with the topology in the name when the options begin
# with --topology TOPOLOGY. A boot that fails (splat, panic, hang, or
# before the guest starts) leaves its reason in LOG.boot-error
# (boot_failed reads it) and does not stop the others.
boot_one() {
	local arch=$1 v=$2 b=$3 out=$4 name=$5 boots=$6 topology="" console
	shift 6
	[ "${1:-}" != --topology ] || topology=$2
	log "$name boot $b/$boots: $arch${topology:+ $topology} $v"
	console=$(console_log "$out" "$arch" "$topology" "$v" "$b")
	mkdir -p "$out/logs"
	"$SCRIPTS_DIR/guest-boot.sh" "$@" "$arch" "${GUEST_IMAGE[$arch-$v]}" \
		"${GUEST_INITRAMFS[$arch]}" "$console" 2>"$console.boot-error" ||
		log "boot failed: $(tail -n 1 "$console.boot-error")"
}

# boot_interleaved ARCH BOOTS "VARIANTS" OUT NAME GUEST_BOOT_OPTION...:
# the one boot loop of the harness. Boot every kernel of build_guests
# BOOTS times, interleaved (reference, regressed, fixed, reference, ...),
# so that drift of the host hits every kernel alike (boot_one).
boot_interleaved() {
	local arch=$1 boots=$2 variants=$3 out=$4 name=$5 b v
	shift 5
	for b in $(seq "$boots"); do
		for v in $variants; do
			boot_one "$arch" "$v" "$b" "$out" "$name" "$boots" "$@"
		done
	done
}

# console_log OUT ARCH TOPOLOGY KERNEL BOOT: the console log of that boot
# of boot_interleaved (TOPOLOGY empty: the default, left out of the name).
console_log() {
	echo "$1/logs/$2${3:+-$3}-$4-$5.log"
}

# console_log_fields LOG: what console_log made LOG's name of, "ARCH
# TOPOLOGY KERNEL BOOT" (TOPOLOGY "-" where the name has none); false for
# another name. A kernel's name may hold "-" (alt-B), never a
# topology's or an arch's.
console_log_fields() {
	local name arch rest topology=- boot
	name=${1##*/}
	name=${name%.log}
	arch=${name%%-*} rest=${name#*-}
	boot=${rest##*-} rest=${rest%-*}
	[[ "$boot" =~ ^[0-9]+$ ]] && [ "$rest" != "$name" ] && [ -n "$rest" ] || return 1
	if [ "${rest#*-}" != "$rest" ] && topology_shape "${rest%%-*}" >/dev/null; then
		topology=${rest%%-*} rest=${rest#*-}
	fi
	echo "$arch $topology $rest $boot"
}

# boot_failed LOG: guest-boot.sh failed that boot (splat, panic, hang, a
# job that must pass and did not); prints its error line.
boot_failed() {
	[ -s "$1.boot-error" ] && grep -m1 '^error: ' "$1.boot-error"
}

# console_awk [-v NAME=VALUE]... PROGRAM [FILE...]: awk running PROGRAM
# with scripts/console.awk's readers (kv, kv_key, kv_val) loaded first.
console_awk() {
	local opts=() program
	while [ "${1:-}" = -v ]; do opts+=(-v "$2"); shift 2; done
	program=$1
	shift
	awk "${opts[@]}" -f "$SCRIPTS_DIR/console.awk" -f <(printf '%s\n' "$program") "$@"
}

# boot_outcome LOG: what a finished boot was, from its console log and
# the facts guest-boot.sh records beside it (LOG.qemu-exit: "rc=N
# timeout=S", QEMU's exit status and guest-boot.sh's timeout; LOG.qemu,
# QEMU's own output; LOG.cmdline). One line, "CLASS DETAIL", the first
# that holds of:
#   panic LINE       the kernel panicked
#   splat LINE       the kernel printed a warning, BUG, oops, lockdep,
#                    KASAN/UBSAN or stall report (console_splat)
#   ended N          the job ended with status N (@@@ guest-end rc=N)
#   hang S           the timeout of S seconds killed QEMU
#   qemu-failed N    QEMU exited N before the job ended
#   no-result        none of those: the guest printed no result
# The one place a boot's outcome is decided: guest-boot.sh fails every
# class but ended (boot_outcome_error), parse-console.sh's verdict is
# panic or splat where the kernel was at fault. A recorded log without
# LOG.qemu-exit can be no more than panic, splat, ended or no-result.
boot_outcome() {
	local log=$1 line rc="" timeout=""
	if line=$(grep -a -m1 'Kernel panic' "$log"); then
		echo "panic ${line%$'\r'}"
	elif line=$(console_splat "$log"); then
		echo "splat $line"
	elif line=$(grep -a '^@@@ guest-end rc=[0-9]*'$'\r''\?$' "$log" | tail -n 1) && [ -n "$line" ]; then
		line=${line%$'\r'}
		echo "ended ${line#@@@ guest-end rc=}"
	else
		[ ! -f "$log.qemu-exit" ] || read -r rc timeout <"$log.qemu-exit"
		rc=${rc#rc=} timeout=${timeout#timeout=}
		case "$rc" in
		124 | 137) echo "hang $timeout" ;;
		"" | 0) echo "no-result" ;;
		*) echo "qemu-failed $rc" ;;
		esac
	fi
}

# boot_outcome_error LOG OUTCOME: guest-boot.sh's error line for a boot
# whose outcome is not "ended".
boot_outcome_error() {
	local log=$1 class=${2%% *} detail=${2#* } qemu
	case "$class" in
	panic) echo "guest panicked: $detail; console: $log" ;;
	splat) echo "kernel splat: $detail; console: $log" ;;
	hang) echo "guest hung: no result after ${detail}s; console: $log" ;;
	qemu-failed)
		qemu=$(cut -d' ' -f1 "$log.cmdline" 2>/dev/null || true)
		echo "${qemu:-QEMU} failed (exit $detail): $(head -c 300 "$log.qemu" 2>/dev/null || true); console: $log"
		;;
	*) echo "guest printed no result; console: $log" ;;
	esac
}

# console_splat LOG: print the first line of a kernel warning, BUG, oops,
# lockdep, KASAN/UBSAN or stall report in a console log; false if none.
# grep reads the log itself: behind `tr | grep -m1`, a match early in a
# long log ended grep before tr had written the rest, tr died of SIGPIPE,
# and under pipefail the splat read as none.
console_splat() {
	local line
	line=$(grep -a -m1 -E \
		-e '-+\[ cut here \]-+' -e '(^|[] ])(WARNING|BUG|UBSAN|Oops)[: ]' \
		-e 'kernel BUG at' -e 'Unable to handle kernel' -e 'general protection fault' \
		-e 'INFO: (task .* blocked|rcu_.* stall|possible .*locking)' \
		-e 'rcu: INFO: .* stall' -e 'Call [Tt]race:' -e 'Kernel panic' "$1") || return 1
	printf '%s\n' "${line%$'\r'}"
}
