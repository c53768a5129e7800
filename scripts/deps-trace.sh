#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run a command under strace and record every program it executed and
# every file it opened, once each, for scripts/check-deps.sh.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] -o FILE -- COMMAND [ARG...]

Run COMMAND (and everything it starts) under strace, appending to FILE one
line per distinct absolute path it executed ("x PATH") or opened
successfully ("o PATH"), as it goes, so that a later step of COMMAND can
read what the earlier steps used. The environment variable
FORK_REGRESSION_DEPS_TRACE names FILE inside COMMAND. Exits with
COMMAND's status.
USAGE
}

main() {
	local out=""
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		-o) out=${2:-}; shift 2 || usage_error "-o needs a file" ;;
		--) shift; break ;;
		*) usage_error "unknown argument $1" ;;
		esac
	done
	[ -n "$out" ] || usage_error "-o FILE is required"
	[ $# -gt 0 ] || usage_error "no command given"
	need_cmds strace awk
	mkdir -p "$(dirname "$out")"
	out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
	: >"$out"
	# --seccomp-bpf stops only at the traced calls, so a kernel build
	# runs at nearly full speed. An <unfinished ...> line may name a path
	# whose open then failed: check-deps.sh drops paths that do not exist.
	FORK_REGRESSION_DEPS_TRACE=$out exec strace -f --seccomp-bpf -qq -z -e signal=none \
		-e trace=execve,execveat,open,openat \
		-o "|awk -v out=$(printf '%q' "$out") -f $(printf '%q' "$SCRIPTS_DIR/deps-trace.awk")" "$@"
}

main "$@"
