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
	local rc=0 held=${FORK_REGRESSION_LOCKED:-} waiting=$BASHPID holders
	if [ -z "$held" ]; then
		open_machine_lock
		if ! flock -n "$lock_fd"; then
			# Only words for the log: no failure of theirs stops the wait.
			holders=$(machine_lock_holders "$waiting" 2>/dev/null) || holders=
			log "waiting for the machine lock $MACHINE_LOCK (a build or guest runs), held by ${holders:-an unknown holder (none of its processes visible here)}"
			flock "$lock_fd"
		fi
	fi
	FORK_REGRESSION_LOCKED=1 "$@" <&0 &
	wait "$!" || rc=$?
	[ -n "$held" ] || exec {lock_fd}>&-
	return "$rc"
}

# open_machine_lock: open MACHINE_LOCK as lock_fd. Every user's builds
# and guests share the machine, so a missing lock file is made writable
# for all; and it is opened read-only (flock needs no more), which works
# on a lock file another user made, where opening it to append does not
# (no write permission, or O_CREAT on another user's file in a sticky
# /tmp under fs.protected_regular).
open_machine_lock() {
	local reason
	[ -e "$MACHINE_LOCK" ] || (umask 0 && : >>"$MACHINE_LOCK") 2>/dev/null || true
	if ! { exec {lock_fd}<"$MACHINE_LOCK"; } 2>/dev/null; then
		reason=$({ : <"$MACHINE_LOCK"; } 2>&1) || true
		die "cannot open the machine lock $MACHINE_LOCK (${reason##*: }): have it made readable for all, or set FORK_REGRESSION_LOCK to a lock file that every run on this machine uses"
	fi
}

# machine_lock_holders SELF: "pid N (its command line)" for each process
# that holds MACHINE_LOCK, as far as /proc shows them; nothing when it
# shows none (another user's processes, another pid namespace).
# The pid that /proc/locks gives is flock(1)'s, which took the lock for
# the shell that holds it and is gone; so the holders are the processes
# that have the file open, less those queued for it in /proc/locks (a
# blocked flock and the shell that waits for it) and the waiting shell
# SELF, and of those only the first of each tree, as children inherit
# the descriptor.
machine_lock_holders() {
	local self=$1 file major minor inode queued open_by pid command out="" held=()
	file=$(realpath -e -- "$MACHINE_LOCK" 2>/dev/null) || return 0
	read -r major minor inode < <(stat -L -c '%Hd %Ld %i' -- "$file") || return 0
	queued=$(awk -v key="$(printf '%02x:%02x:%s' "$major" "$minor" "$inode")" \
		'$2 == "->" && $7 == key { print $6 }' /proc/locks 2>/dev/null) || true
	open_by=$(find /proc/[0-9]*/fd -maxdepth 1 -type l -printf '%l\t%h\n' 2>/dev/null |
		awk -F '\t' -v file="$file" '$1 == file { split($2, p, "/"); print p[3] }') || true
	mapfile -t held < <(ps -e -o pid= -o ppid= | awk -v self="$self" -v queued="$queued" -v open_by="$open_by" '
		BEGIN {
			n = split(open_by, o, "\n"); for (i = 1; i <= n; i++) has[o[i]] = 1
			n = split(queued, q, "\n"); for (i = 1; i <= n; i++) waits[q[i]] = 1
		}
		{ parent[$1] = $2 }
		END {
			for (p in waits) delete has[parent[p]]
			for (p in has)
				if ((p in parent) && !(p in waits) && p != self && !(parent[p] in has)) print p
		}')
	for pid in "${held[@]}"; do
		command=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") || continue
		out+="${out:+, }pid $pid (${command% })"
	done
	echo "$out"
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

# A guest whose vCPUs run at different speeds (verify.sh --host-load
# slow-vcpu): the thread of QEMU's second vCPU (TCG's "CPU 1/TCG") of
# every guest of this run, as it starts, goes to a cpu cgroup held to
# half a host CPU (cfs quota 50 of every 100 ms). A thread of its own in
# a cgroup needs the v1 cpu hierarchy (v2 would need a threaded
# subtree, not written). stop_slow_vcpu ends it.
SLOW_VCPU_PID=""
SLOW_VCPU_CGROUP=""
start_slow_vcpu() {
	local v1=/sys/fs/cgroup/cpu
	[ -f "$v1/cpu.cfs_quota_us" ] ||
		die "--host-load slow-vcpu needs the cgroup v1 cpu hierarchy at $v1"
	SLOW_VCPU_CGROUP=$v1/fork-regression-slow-vcpu.$$
	mkdir -p "$SLOW_VCPU_CGROUP"
	echo 100000 >"$SLOW_VCPU_CGROUP/cpu.cfs_period_us"
	echo 50000 >"$SLOW_VCPU_CGROUP/cpu.cfs_quota_us"
	(
		local qemu task run=$$
		while :; do
			for qemu in $(pgrep '^qemu-system' || true); do
				grep -qzs -- "^FORK_REGRESSION_RUNS=.*:$run:" "/proc/$qemu/environ" || continue
				for task in /proc/"$qemu"/task/*; do
					[ "$(cat "$task/comm" 2>/dev/null)" = "CPU 1/TCG" ] || continue
					grep -qx "${task##*/}" "$SLOW_VCPU_CGROUP/tasks" && continue
					if echo "${task##*/}" >"$SLOW_VCPU_CGROUP/tasks" 2>/dev/null; then
						log "slow-vcpu: QEMU $qemu's thread ${task##*/} (CPU 1/TCG) held to half a host CPU"
					fi
				done
			done
			sleep 0.2
		done
	) &
	SLOW_VCPU_PID=$!
}

stop_slow_vcpu() {
	if [ -n "$SLOW_VCPU_PID" ]; then
		kill "$SLOW_VCPU_PID" 2>/dev/null || true
		wait "$SLOW_VCPU_PID" 2>/dev/null || true
		SLOW_VCPU_PID=
	fi
	if [ -n "$SLOW_VCPU_CGROUP" ]; then
		# What the quota did, for the run's record.
		log "slow-vcpu: $(tr '\n' ' ' <"$SLOW_VCPU_CGROUP/cpu.stat" 2>/dev/null || true)"
		rmdir "$SLOW_VCPU_CGROUP" 2>/dev/null || true
	fi
	SLOW_VCPU_CGROUP=""
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
