# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# The untraced side door of scripts/deps/deps-trace.sh: a command that would
# cost make check most of its time under strace runs outside it, with
# only the programs it executes recorded.
# Sourced by scripts/lib.sh, never run.

# run_untraced [--alone] CMD...: run the program CMD (not a shell function) and
# return its status. Under scripts/deps/deps-trace.sh (FORK_REGRESSION_UNTRACED
# names its server's directory) CMD runs outside the traced tree, in the
# server that deps-trace.sh started before strace: with this shell's
# environment, directory, stdout and stderr, stdin /dev/null, its
# executed programs appended to the trace and its opened files not
# (strace stops a process at every open it traces: a kernel compile
# opens hundreds of the tree's headers per file and took 2.3 to 3.5
# times as long). CMD's processes carry this run's FORK_REGRESSION_RUNS,
# so a signal stops them as it stops the rest of the run.
#
# --alone: nothing of CMD is traced, only CMD's own program is recorded.
# For a guest's QEMU, whose two vCPU threads need the host's two cores
# whole: under strace, even of its execs alone, 23 of 24 boots failed
# the parallel check of the emulated DVFS clock, against 3 of 21 without
# (Documentation/data/dvfs-parallel-under-strace/).
# What such a command opens is the caller's to record (guest-boot.sh
# probes QEMU traced, paused at its start).
run_untraced() {
	local dir=${FORK_REGRESSION_UNTRACED:-} request rc alone=false
	if [ "${1:-}" = --alone ]; then
		alone=true
		shift
	fi
	if [ -z "$dir" ]; then
		"$@"
		return
	fi
	if [ ! -p "$dir/requests" ] || ! kill -0 "$(cat "$dir/server" 2>/dev/null)" 2>/dev/null; then
		die "FORK_REGRESSION_UNTRACED=$dir: no scripts/deps/deps-trace.sh server there"
	fi
	request=$(mktemp -d "$dir/request.XXXXXX")
	! $alone || : >"$request/alone"
	printf '%s\0' "$@" >"$request/argv"
	env -0 >"$request/env"
	printf '%s' "$PWD" >"$request/cwd"
	echo "$BASHPID" >"$request/client"
	echo "$request" >"$dir/requests"
	until [ -f "$request/status" ]; do sleep 0.2; done
	rc=$(cat "$request/status")
	rm -rf "$request"
	return "$rc"
}
