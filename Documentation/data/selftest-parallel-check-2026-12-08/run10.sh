#!/bin/bash
# B32b: the 32-bit boots whose init leaves debugfs unmounted, from the
# checkout at HEAD.
set -uo pipefail
E=/work/exp/p49
cd /work/main
export BUILD_DIR=/tmp/v2/build
echo "B32b start $(date -u +%FT%TZ) in $PWD ($(git rev-parse --short HEAD)) BUILD_DIR=$BUILD_DIR" >>$E/times.txt
scripts/verify.sh --arch "arm i386" --topologies cores \
	--variants "reference+removal-wrap fixed" --append guest_debugfs=0 --boots 1 --out $E/B32b >$E/B32b.out 2>&1
echo "B32b exit $? end $(date -u +%FT%TZ)" >>$E/times.txt
