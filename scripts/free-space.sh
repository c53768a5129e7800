#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Refuse to start a long run on a filesystem that cannot hold it: a full
# disk half-way through make check fails a dozen tests for one cause
# (git's "unable to write file", builds and boots that never ran), which
# hides it; this names it before the first test.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] GIB DIR...

Exits 0 when the filesystem of each DIR (or of its nearest existing
parent) has at least GIB GiB free, else 1 naming the DIR, what it has and
what is needed. DIR need not exist yet.
USAGE
}

case ${1:-} in
-h | --help)
	usage
	exit 0
	;;
esac
[ $# -ge 2 ] || usage_error "needs GIB and at least one DIR"
need=$1
shift
[[ $need =~ ^[0-9]+$ ]] || usage_error "GIB must be a whole number of GiB, not '$need'"
need=$((10#$need))	# 08 is eight, not a bad octal number

short=0
for dir in "$@"; do
	probe=$dir
	while [ ! -e "$probe" ]; do
		probe=$(dirname "$probe")
	done
	free_kib=$(df -Pk "$probe" | awk 'NR == 2 { print $4 }') || die "df failed for $probe"
	[[ $free_kib =~ ^[0-9]+$ ]] || die "df gave no free space for $probe"
	if [ "$free_kib" -lt $((need * 1024 * 1024)) ]; then
		printf 'error: %s has %s GiB free; this run needs about %s GiB there\n' \
			"$dir" "$(awk -v k="$free_kib" 'BEGIN { printf "%.1f", k / 1048576 }')" "$need" >&2
		short=1
	fi
done
exit "$short"
