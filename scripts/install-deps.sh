#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the project needs, when they are missing.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PACKAGES=(
	build-essential flex bison bc libelf-dev libssl-dev ccache cpio gzip
	xz-utils file git perl python3-ply python3-git shellcheck
	gcc-aarch64-linux-gnu qemu-system-x86 qemu-system-arm
	linux-source-6.12 busybox-static rsync libc6-dev-arm64-cross strace procps
	pkgconf
)

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] [--check|--list]

Install what is missing of: ${PACKAGES[*]}
and enable the arm64 architecture in dpkg (for busybox-static:arm64).
Needs root and Debian 12. --check only lists what is missing; --list
prints the packages, one a line (scripts/check-deps.sh reads them).
USAGE
}

missing_packages() {
	local p
	for p in "${PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
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
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		$check && { echo "dpkg architecture arm64 not enabled"; exit 1; }
		[ "$(id -u)" -eq 0 ] || die "run as root to enable arm64 in dpkg"
		dpkg --add-architecture arm64
		missing+=(apt-update)
	fi
	[ ${#missing[@]} -gt 0 ] || exit 0
	if $check; then
		printf 'missing: %s\n' "${missing[*]}"
		exit 1
	fi
	[ "$(id -u)" -eq 0 ] || die "missing packages: ${missing[*]}; run as root to install them"
	log "installing: ${missing[*]/apt-update/}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	mapfile -t missing < <(missing_packages)
	[ ${#missing[@]} -eq 0 ] ||
		apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
}

main "$@"
