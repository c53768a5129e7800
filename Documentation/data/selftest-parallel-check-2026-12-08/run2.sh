#!/bin/bash
# After run.sh: the shapes (S1, S2) and the slow vCPU (S3), on V2's kernels.
set -uo pipefail
E=/work/exp/p49
until grep -q '^V2 exit' $E/times.txt; do sleep 20; done
export BUILD_DIR=/tmp/v2/build
cd /tmp/v2
run() {
	local name=$1; shift
	echo "$name start $(date -u +%FT%TZ)" >>$E/times.txt
	scripts/verify.sh "$@" --out $E/$name >$E/$name.out 2>&1
	echo "$name exit $? end $(date -u +%FT%TZ)" >>$E/times.txt
}
run S1 --arch x86_64 --topologies "smt2x2 cores4 cores8 cores16" --oversubscribe --variants "fixed regressed" --boots 2
run S2 --arch arm64 --topologies "asym1x1 cores4" --oversubscribe --variants "fixed regressed" --boots 2
run S3 --arch "x86_64 arm64" --topologies cores --host-load slow-vcpu --variants "fixed regressed" --boots 2
