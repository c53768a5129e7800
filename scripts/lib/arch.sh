# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source lib.sh
# SPDX-License-Identifier: GPL-2.0
# The arches: one record each, scripts/arch/ARCH.sh, the only place an
# arch's facts live (adding an arch is one new file there and its kernel
# fragment, scripts/arch/ARCH.config). A record sets (the first seven
# always, the others where its arch has them):
#   ARCH_RANK           its place in lists, tables and messages
#   ARCH_DEFAULT        yes: in the default list of the tools that take
#                       a list (verify.sh, build-matrix.sh); the first
#                       one is the default of the tools that take one
#   ARCH_KERNEL         the kernel's ARCH=
#   ARCH_CROSS_COMPILE  the cross compiler's prefix (empty: the host's)
#   ARCH_IMAGE          the boot image, relative to the build directory
#   ARCH_CONSOLE        the serial console's device
#   ARCH_DEBIAN         Debian's name of the arch (dpkg), for the guests'
#                       busybox-static of that arch
#   ARCH_PACKAGES       the host's Debian packages that build and boot it
#   ARCH_TOPOLOGIES     the topology kinds QEMU makes for it beyond cores
#                       and numa: smt, asym (scripts/lib/guest.sh)
#   ARCH_CONFIGS        the optional fragments of scripts/config/ that
#                       only it builds (build-matrix.sh: no-smp)
#   ARCH_POSSIBLE_CPUS  yes: guest-boot.sh --possible-cpus works there
#   ARCH_DVFS           yes, or preferred (the default of
#                       scripts/experiments/dvfs/dvfs.sh): the emulated
#                       cpufreq driver covers it; no: not
#   ARCH_CLOCKSOURCE    the clocksource a vCPU reads without QEMU's
#                       global lock (its own counter); dvfs.sh's check
#   ARCH_DVFS_APPEND    kernel parameters the emulated DVFS clock needs
#   ARCH_DT_CPU         the compatible of the CPU nodes guest-boot.sh adds
#                       to QEMU's device tree (empty: no device tree)
# and arch_qemu VCPUS POSSIBLE, QEMU's program and machine arguments.
# Sourced by scripts/lib.sh, never run.

ARCH_DIR=$SCRIPTS_DIR/arch
# Every record sets these; the others default to empty, or to "no" for
# ARCH_POSSIBLE_CPUS and ARCH_DVFS (ARCH_OPTIONAL), so a record says only
# what its arch has.
ARCH_REQUIRED="ARCH_RANK ARCH_DEFAULT ARCH_KERNEL ARCH_IMAGE ARCH_CONSOLE ARCH_DEBIAN
	ARCH_PACKAGES"
declare -A ARCH_OPTIONAL=([ARCH_CROSS_COMPILE]="" [ARCH_TOPOLOGIES]="" [ARCH_CONFIGS]=""
	[ARCH_POSSIBLE_CPUS]=no [ARCH_DVFS]=no [ARCH_CLOCKSOURCE]="" [ARCH_DVFS_APPEND]=""
	[ARCH_DT_CPU]="")

# load_arch_records: every record into ARCH_INFO[ARCH.FIELD] and its QEMU
# function as arch_qemu_ARCH; ARCHES in rank order. Sourced in this shell
# (no subshell a field, no program run: lib.sh runs it in every script,
# some thousands of times in make check).
declare -A ARCH_INFO
load_arch_records() {
	local file arch field rank ranked=() body
	for file in "$ARCH_DIR"/*.sh; do
		arch=${file##*/}
		arch=${arch%.sh}
		unset -f arch_qemu
		# shellcheck source=/dev/null
		. "$file"
		for field in $ARCH_REQUIRED "${!ARCH_OPTIONAL[@]}"; do
			if [ -n "${!field+set}" ]; then
				ARCH_INFO[$arch.$field]=${!field}
			elif [ -n "${ARCH_OPTIONAL[$field]+set}" ]; then
				ARCH_INFO[$arch.$field]=${ARCH_OPTIONAL[$field]}
			else
				die "$file sets no $field"
			fi
			unset "$field"
		done
		declare -F arch_qemu >/dev/null || die "$file defines no arch_qemu"
		# Its body under the arch's name: declare -f without its first
		# line ("arch_qemu ()").
		body=$(declare -f arch_qemu)
		eval "arch_qemu_$arch() ${body#*$'\n'}"
		rank=${ARCH_INFO[$arch.ARCH_RANK]}
		[[ $rank =~ ^[1-9][0-9]*$ ]] || die "$file: ARCH_RANK is not a positive number"
		[ -z "${ranked[rank]:-}" ] || die "$file: rank $rank taken by ${ranked[rank]}"
		ranked[rank]=$arch
	done
	unset -f arch_qemu
	ARCHES=${ranked[*]}
}

# arch_field ARCH FIELD: one field of ARCH's record.
arch_field() {
	printf '%s\n' "${ARCH_INFO[$1.$2]}"
}

# arch_qemu_machine ARCH VCPUS POSSIBLE: ARCH's QEMU program and machine
# arguments, one a line.
arch_qemu_machine() {
	"arch_qemu_$1" "$2" "$3"
}

# arches_where FIELD VALUE...: the arches (in rank order) whose FIELD is
# one of the VALUEs, or whose word list FIELD holds one of them.
arches_where() {
	local field=$1 arch value found=()
	shift
	for arch in $ARCHES; do
		for value in ${ARCH_INFO[$arch.$field]}; do
			case " $* " in *" $value "*) found+=("$arch"); break ;; esac
		done
	done
	echo "${found[*]}"
}

# arch_has ARCH FIELD VALUE: ARCH's FIELD is VALUE or holds it.
arch_has() {
	case " ${ARCH_INFO[$1.$2]} " in *" $3 "*) return 0 ;; esac
	return 1
}

# arch_list_text ARCH...: "a, b or c", for messages.
arch_list_text() {
	[ $# -gt 0 ] || { echo none; return; }
	local text=$1
	shift
	while [ $# -gt 1 ]; do text+=", $1"; shift; done
	[ $# -eq 0 ] || text+=" or $1"
	echo "$text"
}

# arches_text FIELD VALUE...: arches_where's arches, for messages.
arches_text() {
	local found
	read -ra found <<<"$(arches_where "$@")"
	arch_list_text "${found[@]}"
}

ARCHES=
load_arch_records
DEFAULT_ARCHES=$(arches_where ARCH_DEFAULT yes)
