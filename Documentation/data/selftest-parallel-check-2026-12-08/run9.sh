#!/bin/bash
# S4b: S4 with the test on two CPUs (-c 2): the selftest of e9f71bc
# takes the first two of the LLC, CPUs 0 and 1, a pair of siblings.
set -uo pipefail
E=/work/exp/p49
cd /tmp/v4
export BUILD_DIR=/tmp/v2/build
echo "S4b start $(date -u +%FT%TZ) in $PWD ($(git rev-parse --short HEAD)) BUILD_DIR=$BUILD_DIR" >>$E/times.txt
scripts/verify.sh --arch x86_64 --topologies smt2x2 --oversubscribe --args "-c 2" \
	--variants "fixed regressed" --boots 2 --out $E/S4b >$E/S4b.out 2>&1
echo "S4b exit $? end $(date -u +%FT%TZ)" >>$E/times.txt
