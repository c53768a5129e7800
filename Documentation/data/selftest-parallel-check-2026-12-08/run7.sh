#!/bin/bash
# After run6.sh (pid given): S4, the ablation of the test's CPUs on an
# SMT guest: smt2x2 with the selftest of e9f71bc (the first two CPUs of
# the LLC, a pair of siblings; the old "at once" figure), against S1's
# one thread per core.
set -uo pipefail
E=/work/exp/p49
while kill -0 "$1" 2>/dev/null; do sleep 10; done
rm -rf /tmp/v4
git clone -q /work/main /tmp/v4
git -C /tmp/v4 checkout -q e9f71bc
cd /tmp/v4
export BUILD_DIR=/tmp/v2/build
echo "S4 start $(date -u +%FT%TZ) in $PWD ($(git rev-parse --short HEAD)) BUILD_DIR=$BUILD_DIR" >>$E/times.txt
scripts/verify.sh --arch x86_64 --topologies smt2x2 --oversubscribe \
	--variants "fixed regressed" --boots 2 --out $E/S4 >$E/S4.out 2>&1
echo "S4 exit $? end $(date -u +%FT%TZ)" >>$E/times.txt
