#!/bin/bash
# The ablation behind deps-trace.sh's set_robust_list: a read loop of
# 100,000 lines (seq 100000 >/tmp/nums) in the shell itself or in a
# forked subshell, untraced, under strace as deps-trace.sh ran it
# (execve,execveat), and with set_robust_list traced too.
set -u
seq 100000 >/tmp/nums
S="strace -f --seccomp-bpf -qq -e signal=none -o /dev/null"
t() { local s=$EPOCHREALTIME; "$@"; printf '%6.2f s  %s\n' "$(echo "$EPOCHREALTIME - $s" | bc)" "${*: -1}"; }
for trace in "" "$S -e trace=execve,execveat" "$S -e trace=execve,execveat,set_robust_list"; do
	echo "== ${trace:-untraced}"
	t $trace bash -c 'while read -r x; do :; done </tmp/nums'
	t $trace bash -c '( while read -r x; do :; done </tmp/nums ); :'
	t $trace bash -c '( exec bash -c "while read -r x; do :; done </tmp/nums" ); :'
done
