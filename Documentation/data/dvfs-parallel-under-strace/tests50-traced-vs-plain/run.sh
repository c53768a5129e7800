#!/bin/bash
# Does make check's strace (scripts/deps-trace.sh) disturb the guests' parallel check?
# Same dvfs.sh command as tests/50, traced and untraced, interleaved.
set -euo pipefail
cd /work/main
D=/work/exp/strace-parallel
P=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
for rep in 1 2; do
  for arm in traced plain; do
    echo "$(date +%T) rep=$rep arm=$arm start"
    rc=0
    if [ $arm = traced ]; then
      PATH=$P scripts/deps-trace.sh -o $D/trace-$rep.txt -- scripts/dvfs.sh --boots 2 --variants fixed --loads spawn --seconds 1 --out $D/$arm-$rep >$D/$arm-$rep.log 2>&1 || rc=$?
    else
      PATH=$P scripts/dvfs.sh --boots 2 --variants fixed --loads spawn --seconds 1 --out $D/$arm-$rep >$D/$arm-$rep.log 2>&1 || rc=$?
    fi
    echo "$(date +%T) rep=$rep arm=$arm rc=$rc"
  done
done
