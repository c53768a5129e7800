# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source lib.sh
# SPDX-License-Identifier: GPL-2.0
# The machine lock and signals: one build or guest at a time, and a run
# that stops as a whole.
# Sourced by scripts/lib.sh, never run.

# with_machine_lock CMD...: run CMD alone on the machine (see MACHINE_LOCK).
# FORK_REGRESSION_LOCKED=1 marks a process tree that holds it already.
# CMD runs in a child, where set -e holds (in "CMD || rc=$?" bash would
# ignore it in every function CMD calls), so a shell function CMD stops
# at its first failing command and cannot set the caller's variables.
with_machine_lock() {
	local rc=0 held=${FORK_REGRESSION_LOCKED:-}
	if [ -z "$held" ]; then
		exec {lock_fd}>>"$MACHINE_LOCK"
		if ! flock -n "$lock_fd"; then
			log "waiting for the machine lock $MACHINE_LOCK (a build or guest runs)"
			flock "$lock_fd"
		fi
	fi
	FORK_REGRESSION_LOCKED=1 "$@" <&0 &
	wait "$!" || rc=$?
	[ -n "$held" ] || exec {lock_fd}>&-
	return "$rc"
}

# A competing load on the host, outside the machine lock, for the runs
# that measure the selftest beside one (host-runs.sh --load cpu,
# verify.sh --host-load cpu): one busy loop, as stress-ng --cpu 1 would
# be, in the root cgroup of every hierarchy we know of, so that it
# competes with everything else alike. stop_hog ends it.
HOG_PID=
start_hog() {
	bash -c 'while :; do :; done' &
	HOG_PID=$!
	local procs
	for procs in /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/cpu/cgroup.procs; do
		if [ -w "$procs" ]; then echo "$HOG_PID" >"$procs" 2>/dev/null || true; fi
	done
}

stop_hog() {
	if [ -n "$HOG_PID" ]; then
		kill "$HOG_PID" 2>/dev/null || true
		wait "$HOG_PID" 2>/dev/null || true
		HOG_PID=
	fi
}

# Signals. bash runs a trap only after the foreground command it waits
# for has ended, a SIGTERM or SIGHUP sent to a script's process alone (a
# CI timeout, kill PID) reaches none of its children, and timeout(1)
# puts QEMU in a process group of its own that the terminal's Ctrl-C
# does not reach: so a script went on to its next boot when told to
# stop. run_main runs main in a child and waits for it where a trap can
# interrupt the wait; on INT, TERM or HUP, stop_run stops every process
# of the run (builds, QEMU, nested scripts, which remove their temporary
# trees in their EXIT traps) before the script ends with that signal,
# and the machine lock, whose descriptor only they hold, is free again.
# The processes of a run are those below the script and those that
# carry its pid in FORK_REGRESSION_RUNS (":pid:pid:", exported by
# run_main, so inherited by every program started since): a process
# whose parent died first is no longer below the script.

# run_pids: the processes of this script's run, this one left out, and
# those of the command substitution that runs it.
run_pids() {
	local f marked="" self=$BASHPID
	# grep runs without the mark, so it does not find itself.
	for f in $(env -u FORK_REGRESSION_RUNS grep -lzs -- "^FORK_REGRESSION_RUNS=.*:$$:" /proc/[0-9]*/environ); do
		f=${f#/proc/}
		marked+=" ${f%/environ}"
	done
	# The script's own subshells are forks, not programs, and carry no
	# mark in /proc: the tree finds them.
	ps -e -o pid= -o ppid= | awk -v root=$$ -v skip="$self" -v marked="$marked" '
		BEGIN { n = split(marked, m, " "); for (i = 1; i <= n; i++) want[m[i]] = 1 }
		{ parent[$1] = $2 }
		END {
			for (p in parent) {
				below = 0
				for (q = p; q in parent && q > 1; q = parent[q]) {
					if (q == skip) { below = -1; break }
					if (q == root) { below = (p != root); break }
				}
				if (below > 0 || (below == 0 && p in want)) print p
			}
		}' | sort -n
}

# stop_run: SIGSTOP the run's processes until they hold still (a loop
# cannot start its next boot while the others die), then SIGTERM and
# SIGCONT them; SIGKILL what is left after 10 s.
stop_run() {
	local pids now i
	pids=$(run_pids)
	for i in 1 2 3 4 5; do
		[ -n "$pids" ] || return 0
		# shellcheck disable=SC2086 # one word per pid
		kill -STOP $pids 2>/dev/null || true
		now=$(run_pids)
		[ "$now" != "$pids" ] || break
		pids=$now
	done
	# shellcheck disable=SC2086
	kill -TERM $pids 2>/dev/null || true
	# shellcheck disable=SC2086
	kill -CONT $pids 2>/dev/null || true
	for i in $(seq 50); do
		pids=$(run_pids)
		[ -n "$pids" ] || return 0
		sleep 0.2
	done
	# shellcheck disable=SC2086
	kill -KILL $pids 2>/dev/null || true
}

on_signal() {
	trap '' INT TERM HUP
	log "stopping on SIG$1"
	stop_run
	wait 2>/dev/null || true
	trap - "$1" EXIT
	kill -"$1" $$
}

# run_main ARGS...: main ARGS... as above; exits with main's status. main
# ignores INT and HUP, which a terminal sends to the whole process group:
# the script's trap stops it (with TERM), in order.
run_main() {
	local sig rc=0
	for sig in INT TERM HUP; do
		# shellcheck disable=SC2064 # the signal's name, now
		trap "on_signal $sig" "$sig"
	done
	export FORK_REGRESSION_RUNS=${FORK_REGRESSION_RUNS:-:}$$:
	(
		trap '' INT HUP
		main "$@"
	) <&0 &
	wait "$!" || rc=$?
	exit "$rc"
}
