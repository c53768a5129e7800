#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest job: scripts/experiments/stress/guest/pelt_stress.c, with CPU
# hotplug, for the arguments given (e.g. --minutes 10): fork/exit, zombie
# leaders, group, autogroup, class and CPU changes at once, then no
# average may be left.
#
# With --trace-detach first: ftrace's function tracer, with a stack trace
# of each call, on detach_entity_load_avg() while the stress runs, to see
# which paths take a dying task's own sums off: do_task_dead() on the
# stack, and no load balancing (a dying task's __schedule() may pull
# other tasks over in newidle balance, detaching theirs). Counted: from
# its last dequeue_entities() (patch 1's DEQUEUE_DEAD), or from anything
# else, such as dequeue_throttled_task() for a task that died throttled,
# which is inlined and cannot be traced itself. The reader runs at nice
# -20 with 16 MiB of buffer per CPU; what it still lost is reported.
mount -t debugfs debugfs /sys/kernel/debug || exit 1
trace=
if [ "${1:-}" = --trace-detach ]; then
	shift
	trace=/sys/kernel/tracing
	mount -t tracefs tracefs "$trace" 2>/dev/null
	if ! echo detach_entity_load_avg >"$trace/set_ftrace_filter"; then
		echo "# detach trace: detach_entity_load_avg() cannot be traced here"
		exit 1
	fi
	echo 16384 >"$trace/buffer_size_kb"
	echo 1 >"$trace/options/func_stack_trace"
	echo function >"$trace/current_tracer"
	# One event: the call line, then its stack; any other line (the
	# marker written at the end) closes it. The counts go to a file after
	# every dying task's event and at the marker, so that they survive
	# the reader being killed.
	awk 'function event_done() {
			if (!open) return
			events++
			if (dead && !balance && dequeue_entities) in_dequeue++
			else if (dead && !balance) elsewhere++
			if (dead && !balance) save()
			open = dead = balance = dequeue_entities = 0
		}
		function save() {
			print events, in_dequeue + 0, elsewhere + 0 >"/tmp/detach-counts"
			close("/tmp/detach-counts")
		}
		/ detach_entity_load_avg <-/ { event_done(); open = 1; next }
		/<stack trace>/ { next }
		/^ => / { if ($2 == "do_task_dead") dead = 1
			if ($2 == "dequeue_entities") dequeue_entities = 1
			if ($2 ~ /balance/) balance = 1
			next }
		{ event_done(); save() }' <"$trace/trace_pipe" &
	reader=$!
	renice -20 -p "$reader" >/dev/null
fi
/guest/pelt_stress --hotplug "$@"
rc=$?
if [ -n "$trace" ]; then
	echo "pelt_stress done" >"$trace/trace_marker"
	sleep 2
	echo nop >"$trace/current_tracer"
	kill "$reader"
	lost=$(cat "$trace"/per_cpu/cpu*/stats | awk '/^overrun:/ { n += $2 } END { print n + 0 }')
	read -r events in_dequeue elsewhere </tmp/detach-counts || events=
	if [ -n "$events" ]; then
		echo "# detach trace: events=$events dead_in_dequeue_entities=$in_dequeue dead_elsewhere=$elsewhere lost=$lost"
	else
		echo "# detach trace failed: no event read, $lost lost"
	fi
fi
exit "$rc"
