#!/bin/bash
# The checking run: the threshold built in (commit in commit-check.txt).
set -euo pipefail
cd /work/main
E=/work/exp/selftest-parallel-share
export BUILD_DIR=/tmp/cc-check/build
scripts/verify.sh --arch "x86_64 arm64" --topologies cores --variants "fixed regressed" \
	--boots 2 --out $E/C1 > $E/C1.out 2>&1 || echo "C1 exit $?" >> $E/C1.out
scripts/verify.sh --arch x86_64 --topologies cores4 --oversubscribe --variants "reference fixed" \
	--boots 25 --out $E/C2 > $E/C2.out 2>&1 || echo "C2 exit $?" >> $E/C2.out
