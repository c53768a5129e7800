#!/bin/bash
# Which part of make check's tracing takes CPU from the guests? dvfs.sh
# (tests/50's command, per-cpu shape, 3 boots) under: strace of execs and
# opens (scripts/deps-trace.sh, as make check), strace of execs only (as
# run_untraced's server traces), no strace. Interleaved, 2 rounds.
set -euo pipefail
cd /work/main
D=/work/exp/strace-ablation
P=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
while pgrep -f strace-parallel/run.sh >/dev/null; do sleep 10; done
dvfs() { scripts/dvfs.sh --boots 3 --policies per-cpu --variants fixed --loads spawn --seconds 1 --out "$1"; }
for rep in 1 2; do
  for arm in full exec none; do
    echo "$(date +%T) rep=$rep arm=$arm start"
    rc=0
    case $arm in
    full) PATH=$P scripts/deps-trace.sh -o $D/trace-$rep.txt -- scripts/dvfs.sh --boots 3 --policies per-cpu --variants fixed --loads spawn --seconds 1 --out $D/$arm-$rep >$D/$arm-$rep.log 2>&1 || rc=$? ;;
    exec) PATH=$P strace -f --seccomp-bpf -qq -z -e signal=none -e trace=execve,execveat \
            -o "|awk -v out=$D/exec-trace-$rep.txt -f scripts/deps-trace.awk" \
            scripts/dvfs.sh --boots 3 --policies per-cpu --variants fixed --loads spawn --seconds 1 --out $D/$arm-$rep >$D/$arm-$rep.log 2>&1 || rc=$? ;;
    none) PATH=$P scripts/dvfs.sh --boots 3 --policies per-cpu --variants fixed --loads spawn --seconds 1 --out $D/$arm-$rep >$D/$arm-$rep.log 2>&1 || rc=$? ;;
    esac
    echo "$(date +%T) rep=$rep arm=$arm rc=$rc"
  done
done
