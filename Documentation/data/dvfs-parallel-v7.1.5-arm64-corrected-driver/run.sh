#!/bin/bash
# Issue 33: arm64 on the corrected parallel model (the driver of cae99fa:
# idle CPUs without its timer), every policy shape, the kernels of the
# x86_64 matrix.
set -euo pipefail
cd /work/main
export KERNEL_SRC=/work/.mirror/danayer+linux-7.1.5/repo
scripts/dvfs.sh --arch arm64 --boots 5 --seconds 3 --policies "per-cpu remote shared" \
	--loads "shell spawn exec periodic-churn" \
	--variants "reference regressed fixed fixed@mainline-fast-path fixed@mainline-fast-path+alt-G" \
	--out /work/exp/arm64-matrix/run
