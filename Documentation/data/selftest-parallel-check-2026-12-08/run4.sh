#!/bin/bash
# After V1 (make verify, pid given): V2 and V3 (clean clones of the same
# commit, V1's kernels copied into their build/), then the shapes (S1,
# S2), the slow vCPU (S3) and the 32-bit boots without debugfs (B32).
# One after the other; nothing else runs.
set -uo pipefail
E=/work/exp/p49
while kill -0 "$1" 2>/dev/null; do sleep 10; done
echo "V1 ended $(date -u +%FT%TZ) (exit: V1.out's last lines)" >>$E/times.txt
for n in 2 3; do
	rm -rf /tmp/v$n
	git clone -q /tmp/v1 /tmp/v$n
	mkdir -p /tmp/v$n/build
	cp -a /tmp/v1/build/. /tmp/v$n/build/
	echo "V$n clone of $(git -C /tmp/v$n rev-parse --short HEAD), build/ copied from V1, start $(date -u +%FT%TZ)" >>$E/times.txt
	(cd /tmp/v$n && make verify) >$E/V$n.out 2>&1
	echo "V$n exit $? end $(date -u +%FT%TZ)" >>$E/times.txt
done
run() {
	local name=$1; shift
	echo "$name start $(date -u +%FT%TZ) in $PWD BUILD_DIR=${BUILD_DIR:-}" >>$E/times.txt
	scripts/verify.sh "$@" --out $E/$name >$E/$name.out 2>&1
	echo "$name exit $? end $(date -u +%FT%TZ)" >>$E/times.txt
}
cd /tmp/v2
export BUILD_DIR=/tmp/v2/build
run S1 --arch x86_64 --topologies "smt2x2 cores4 cores8 cores16" --oversubscribe --variants "fixed regressed" --boots 2
run S3 --arch "x86_64 arm64" --topologies cores --host-load slow-vcpu --variants "fixed regressed" --boots 2
run S2 --arch arm64 --topologies "asym1x1 cores4" --oversubscribe --variants "fixed regressed" --boots 2
run B32 --arch "i386 arm" --topologies cores \
	--variants "reference+removal-wrap fixed" --append guest_debugfs=0 --boots 2
