#!/bin/bash
# S3c: the slow vCPU again, QEMU's vCPU threads now named (guest-boot.sh
# -name ...,debug-threads=on), from /work/main's checkout; then S4, the
# ablation of the test's CPUs on an SMT guest (run7.sh's).
set -uo pipefail
E=/work/exp/p49
cd /work/main
export BUILD_DIR=/tmp/v2/build
echo "S3c start $(date -u +%FT%TZ) in $PWD ($(git rev-parse --short HEAD) + work tree) BUILD_DIR=$BUILD_DIR" >>$E/times.txt
scripts/verify.sh --arch "x86_64 arm64" --topologies cores --host-load slow-vcpu \
	--variants "fixed regressed" --boots 2 --out $E/S3c >$E/S3c.out 2>&1
echo "S3c exit $? end $(date -u +%FT%TZ)" >>$E/times.txt
rm -rf /tmp/v4
git clone -q /work/main /tmp/v4
git -C /tmp/v4 checkout -q e9f71bc
cd /tmp/v4
echo "S4 start $(date -u +%FT%TZ) in $PWD ($(git rev-parse --short HEAD)) BUILD_DIR=$BUILD_DIR" >>$E/times.txt
scripts/verify.sh --arch x86_64 --topologies smt2x2 --oversubscribe \
	--variants "fixed regressed" --boots 2 --out $E/S4 >$E/S4.out 2>&1
echo "S4 exit $? end $(date -u +%FT%TZ)" >>$E/times.txt
