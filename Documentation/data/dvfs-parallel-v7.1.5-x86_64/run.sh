#!/bin/bash
# Issue 33: x86_64 on the parallel model (the driver of cae99fa), every
# policy shape, the kernels of results.md's arm64 tables.
set -euo pipefail
cd /work/main
export KERNEL_SRC=/work/.mirror/danayer+linux-7.1.5/repo
scripts/dvfs.sh --arch x86_64 --boots 5 --seconds 3 --policies "per-cpu remote shared" \
	--loads "shell spawn exec periodic-churn" \
	--variants "reference regressed fixed fixed@mainline-fast-path fixed@mainline-fast-path+alt-G" \
	--out /work/exp/x86-matrix/run
