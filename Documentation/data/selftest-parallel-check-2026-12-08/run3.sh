#!/bin/bash
# After V1 (make verify, pid given): the 32-bit boots without debugfs
# (B32), V2 (a clean clone, V1's kernels copied into its build/), then
# the shapes (S1, S2) and the slow vCPU (S3). One after the other.
set -uo pipefail
E=/work/exp/p49
while kill -0 "$1" 2>/dev/null; do sleep 10; done
echo "V1 ended $(date -u +%FT%TZ) (exit: V1.out's last lines)" >>$E/times.txt
run() {
	local name=$1; shift
	echo "$name start $(date -u +%FT%TZ) in $PWD BUILD_DIR=${BUILD_DIR:-}" >>$E/times.txt
	scripts/verify.sh "$@" --out $E/$name >$E/$name.out 2>&1
	echo "$name exit $? end $(date -u +%FT%TZ)" >>$E/times.txt
}
cd /tmp/v1
BUILD_DIR=/tmp/v1/build run B32 --arch "i386 arm" --topologies cores \
	--variants "reference+removal-wrap fixed" --append guest_debugfs=0 --boots 2
rm -rf /tmp/v2
git clone -q /tmp/v1 /tmp/v2
mkdir -p /tmp/v2/build
cp -a /tmp/v1/build/. /tmp/v2/build/
echo "V2 clone of $(git -C /tmp/v2 rev-parse --short HEAD), build/ copied from V1, start $(date -u +%FT%TZ)" >>$E/times.txt
(cd /tmp/v2 && make verify) >$E/V2.out 2>&1
echo "V2 exit $? end $(date -u +%FT%TZ)" >>$E/times.txt
cd /tmp/v2
export BUILD_DIR=/tmp/v2/build
run S1 --arch x86_64 --topologies "smt2x2 cores4 cores8 cores16" --oversubscribe --variants "fixed regressed" --boots 2
run S2 --arch arm64 --topologies "asym1x1 cores4" --oversubscribe --variants "fixed regressed" --boots 2
run S3 --arch "x86_64 arm64" --topologies cores --host-load slow-vcpu --variants "fixed regressed" --boots 2
