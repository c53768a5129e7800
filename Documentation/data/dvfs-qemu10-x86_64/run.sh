#!/bin/bash
# Does QEMU 10.0 (bookworm-backports, extracted to /opt/qemu10, not
# installed) let two x86_64 vCPUs compute in parallel under the emulated
# DVFS driver, where QEMU 7.2's fail the parallel check? dvfs.sh, x86_64
# fixed+dvfs (Debian 6.12.118 + patches/6.12.y), every policy shape, 2
# boots, QEMU 7.2 and 10.0 interleaved, 2 rounds.
set -euo pipefail
cd /work/main
D=/work/exp/qemu10-x86
while pgrep -f "cc-check|prove -v --timer" >/dev/null; do sleep 10; done
for rep in 1 2; do
  for q in q72 q10; do
    echo "$(date +%T) rep=$rep qemu=$q start"
    rc=0
    if [ $q = q10 ]; then
      PATH=/opt/qemu10/usr/bin:$PATH scripts/dvfs.sh --arch x86_64 --boots 2 --variants fixed --loads spawn --seconds 1 --out $D/$q-$rep >$D/$q-$rep.log 2>&1 || rc=$?
    else
      scripts/dvfs.sh --arch x86_64 --boots 2 --variants fixed --loads spawn --seconds 1 --out $D/$q-$rep >$D/$q-$rep.log 2>&1 || rc=$?
    fi
    echo "$(date +%T) rep=$rep qemu=$q rc=$rc"
  done
done
