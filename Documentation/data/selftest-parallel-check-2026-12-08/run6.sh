#!/bin/bash
# After run5.sh (pid given): S3 again (S3b) from /work/main's checkout,
# whose slow-vcpu logs each thread it holds and the quota's cpu.stat.
set -uo pipefail
E=/work/exp/p49
while kill -0 "$1" 2>/dev/null; do sleep 10; done
cd /work/main
export BUILD_DIR=/tmp/v2/build
echo "S3b start $(date -u +%FT%TZ) in $PWD ($(git rev-parse --short HEAD) + work tree) BUILD_DIR=$BUILD_DIR" >>$E/times.txt
scripts/verify.sh --arch "x86_64 arm64" --topologies cores --host-load slow-vcpu \
	--variants "fixed regressed" --boots 2 --out $E/S3b >$E/S3b.out 2>&1
echo "S3b exit $? end $(date -u +%FT%TZ)" >>$E/times.txt
