#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run a command under strace and record every program it executed and
# every file it opened, once each, for scripts/deps/check-deps.sh.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/..
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# A command that COMMAND runs through run_untraced runs outside strace's
# tree, in a server started before strace, under a strace of its own that
# records only the programs it executes: the compile of a kernel, whose
# opens of the tree's own headers would take most of the time.
# kernel-build.sh runs the steps before it (configure, make prepare
# scripts: kconfig, objtool, dtc, asm-offsets, which open what they need
# of the system) traced in full. --programs-only is for tests that run the
# project's scripts on recorded data through fakes, whose opens (the
# project's own files, thousands of logs) made them four times as slow;
# what the programs open of the system comes from their packages.
usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] [--append] [--programs-only] -o FILE -- COMMAND [ARG...]

Run COMMAND under strace, appending to FILE a line per distinct absolute
path it executed ("x PATH") or opened ("o PATH"), as it goes
(FORK_REGRESSION_DEPS_TRACE names FILE inside COMMAND). Exits with
COMMAND's status. What COMMAND runs through run_untraced
(scripts/lib/trace.sh: a kernel compile, QEMU) records its programs only.
  --append          add to FILE (default: FILE starts empty)
  --programs-only   record programs, not opens (the fast tests, whose opens
                    are the project's own files and recorded logs)
USAGE
}

# trace_args OUT [open]: the strace arguments (NUL-separated) that append
# to OUT what the traced processes execute and, with open, what they open.
# --seccomp-bpf stops only at the traced calls, but strace 6.1 stops a
# forked process at every call until its first traced one: a subshell
# that runs no program (run_main's main, a $(function), a loop in a
# pipeline) ran about 30 times as slow (a read loop of 100,000 lines in
# a subshell: 23 s traced, 0.8 s with this;
# Documentation/data/deps-trace-fork-stops-2026-12-07/). glibc's fork
# makes set_robust_list in the child first thing, and otherwise only as
# a program or a thread starts: traced, it ends that at once
# (deps-trace.awk reads no line of it). An <unfinished ...> line may
# name a path whose open then failed: check-deps.sh drops paths that do
# not exist.
trace_args() {
	local out=$1 calls=execve,execveat,set_robust_list
	[ $# -lt 2 ] || calls=$calls,open,openat
	printf '%s\0' -f --seccomp-bpf -qq -z -e signal=none -e "trace=$calls" \
		-o "|awk -v out=$(printf '%q' "$out") -f $(printf '%q' "$SCRIPTS_DIR/deps/deps-trace.awk")"
}

# serve_request REQUEST OUT: run the command run_untraced wrote into
# REQUEST, as it asked, tracing only what it executes into OUT (nothing
# when OUT is empty; with REQUEST/alone nothing, and only the command's
# own program is recorded), and leave its status in REQUEST/status. INT
# and HUP as the traced command has them (see main).
serve_request() {
	local request=$1 out=$2 client rc=0 argv envs tracer=() program
	client=$(cat "$request/client")
	mapfile -d '' -t argv <"$request/argv"
	mapfile -d '' -t envs <"$request/env"
	if [ -e "$request/alone" ]; then
		if [ -n "$out" ] && program=$(cd "$(cat "$request/cwd")" &&
			PATH=$(printf '%s\n' "${envs[@]}" | sed -n 's/^PATH=//p') type -P "${argv[0]}"); then
			echo "x $(realpath -s "$program")" >>"$out"
		fi
	elif [ -n "$out" ]; then
		mapfile -d '' -t tracer < <(trace_args "$out")
		tracer=(strace "${tracer[@]}" --)
	fi
	(cd "$(cat "$request/cwd")" && exec env -i --default-signal=INT,HUP "${envs[@]}" "${tracer[@]}" "${argv[@]}") \
		</dev/null >>"/proc/$client/fd/1" 2>>"/proc/$client/fd/2" || rc=$?
	echo "$rc" >"$request/status.new"
	mv "$request/status.new" "$request/status"
}

# serve_untraced DIR OUT: serve the requests written to DIR/requests,
# each in a process of its own, until killed. Started before strace, so
# nothing it runs is below strace.
serve_untraced() {
	local dir=$1 out=$2 request
	echo "$BASHPID" >"$dir/server"
	exec 3<>"$dir/requests"
	while IFS= read -r request <&3; do
		serve_request "$request" "$out" &
	done
}

main() {
	local out="" server rc=0 args append=false calls=open
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--append) append=true; shift ;;
		--programs-only) calls=""; shift ;;
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
	$append || : >"$out"
	server=$(mktemp -d "${TMPDIR:-/tmp}/deps-trace.XXXXXX")
	# shellcheck disable=SC2064 # this server's directory, now
	trap "rm -rf '$server'" EXIT
	mkfifo "$server/requests"
	# Its own messages (a job killed by a signal) would land in the
	# middle of COMMAND's output.
	serve_untraced "$server" "$out" 2>/dev/null &
	until [ -s "$server/server" ]; do sleep 0.1; done
	mapfile -d '' -t args < <(trace_args "$out" ${calls:+"$calls"})
	# COMMAND gets INT and HUP as a terminal gives them, not ignored as
	# run_main's main has them (ignored signals are inherited through
	# exec, and a shell cannot trap a signal it started with ignored).
	FORK_REGRESSION_DEPS_TRACE=$out FORK_REGRESSION_UNTRACED=$server \
		env --default-signal=INT,HUP strace "${args[@]}" "$@" || rc=$?
	kill "$(cat "$server/server")" 2>/dev/null || true
	return "$rc"
}

# Sourcing (for tests) defines the functions without running main.
[ "${BASH_SOURCE[0]}" != "$0" ] || run_main "$@"
