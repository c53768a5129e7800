#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the project needs, when they are missing.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# What every arch needs; each arch's cross compiler, C library and QEMU
# are its record's ARCH_PACKAGES (scripts/arch/), added below.
PACKAGES=(
	build-essential flex bison bc libelf-dev libssl-dev ccache cpio gzip
	xz-utils file git perl python3-ply python3-git shellcheck
	linux-source-6.12 busybox-static rsync strace procps
	pkgconf device-tree-compiler
	git-email libmailtools-perl libio-socket-ssl-perl libauthen-sasl-perl
)
# The guests' busybox-static of another arch is fetched with apt-get
# download (scripts/guest-initramfs.sh), which needs that arch in dpkg:
# every arch's ARCH_DEBIAN but the host's own.
FOREIGN_ARCHES=()
arch_packages() {
	local arch darch p host
	host=$(dpkg --print-architecture 2>/dev/null || true)
	for arch in $ARCHES; do
		for p in $(arch_field "$arch" ARCH_PACKAGES); do
			case " ${PACKAGES[*]} " in *" $p "*) ;; *) PACKAGES+=("$p") ;; esac
		done
		darch=$(arch_field "$arch" ARCH_DEBIAN)
		[ "$darch" = "$host" ] || FOREIGN_ARCHES+=("$darch")
	done
}
arch_packages

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] [--check|--list]

Install what is missing of: ${PACKAGES[*]}
and enable the ${FOREIGN_ARCHES[*]} architectures in dpkg (for the guests'
busybox-static of that arch).
Needs root and Debian 12. --check only lists what is missing; --list
prints the packages, one a line (scripts/deps/check-deps.sh reads them).
USAGE
}

# apt-get update, tried again when it fails: a Debian mirror caught in
# its sync serves index files of the wrong size for minutes ("Mirror sync
# in progress?"), and one such file fails the whole update. The delays
# add up to about five minutes; INSTALL_DEPS_RETRY_DELAY (seconds, first
# delay, doubled each time) shortens them for the tests.
update_indexes() {
	local attempt delay=${INSTALL_DEPS_RETRY_DELAY:-40} attempts=4 out
	for attempt in $(seq "$attempts"); do
		out=$(apt-get update -q 2>&1) && return 0
		[ "$attempt" -lt "$attempts" ] || break
		log "apt-get update failed (attempt $attempt of $attempts), again in ${delay} s:"
		grep -m 3 '^[EW]:' <<<"$out" >&2 || true
		sleep "$delay"
		delay=$((delay * 2))
	done
	log "apt-get update failed $attempts times; going on with the index files apt has:"
	grep -m 5 '^[EW]:' <<<"$out" >&2 || true
	return 1
}

# Each foreign arch is there for busybox-static of that arch: after a
# failed update, make sure apt knows of it, or say which one is missing.
check_foreign_indexes() {
	local darch
	for darch in "${FOREIGN_ARCHES[@]}"; do
		[[ $(LC_ALL=C apt-cache policy "busybox-static:$darch" 2>/dev/null) == *"Candidate: "[0-9]* ]] ||
			die "apt has no index of the $darch packages (busybox-static:$darch): apt-get update failed, run this again later"
	done
}

missing_packages() {
	local p
	for p in "${PACKAGES[@]}"; do
		# A line per arch the package has an entry for (the foreign
		# arches are enabled): installed when one says so.
		grep -qx 'install ok installed' <<<"$(dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null)" ||
			echo "$p"
	done
}

main() {
	local check=false missing
	case "${1:-}" in
	-h | --help) usage; exit 0 ;;
	--check) check=true ;;
	--list) printf '%s\n' "${PACKAGES[@]}"; exit 0 ;;
	"") ;;
	*) usage_error "unknown argument $1" ;;
	esac
	command -v dpkg-query >/dev/null || die "not a Debian system: install the tools by hand (see README)"
	mapfile -t missing < <(missing_packages)
	# Read into a variable first: `dpkg ... | grep -q`, under pipefail,
	# failed whenever grep had its match before dpkg had written its last
	# line (SIGPIPE), and sent CI to apt-get update on a machine that
	# needed nothing.
	local darch foreign
	foreign=$(dpkg --print-foreign-architectures)
	for darch in "${FOREIGN_ARCHES[@]}"; do
		grep -qx "$darch" <<<"$foreign" && continue
		$check && { echo "dpkg architecture $darch not enabled"; exit 1; }
		[ "$(id -u)" -eq 0 ] || die "run as root to enable $darch in dpkg"
		dpkg --add-architecture "$darch"
		missing+=(apt-update)
	done
	[ ${#missing[@]} -gt 0 ] || exit 0
	if $check; then
		printf 'missing: %s\n' "${missing[*]}"
		exit 1
	fi
	[ "$(id -u)" -eq 0 ] || die "missing packages: ${missing[*]}; run as root to install them"
	log "installing: ${missing[*]/apt-update/}"
	export DEBIAN_FRONTEND=noninteractive
	update_indexes || check_foreign_indexes
	mapfile -t missing < <(missing_packages)
	[ ${#missing[@]} -eq 0 ] ||
		apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
		die "apt-get install of ${missing[*]} failed"
}

main "$@"
