#!/bin/bash
# Issue 33: does the PELT fix's higher shared clock go with schedutil's
# rate limit? The same kernels as the J ablation's reference and fixed,
# every update let through (rate_limit_us 0).
set -euo pipefail
cd /work/main
export KERNEL_SRC=/work/.mirror/danayer+linux-7.1.5/repo
scripts/dvfs.sh --arch x86_64 --boots 6 --seconds 3 --policies shared \
	--loads "shell exec" --rate-limit-us 0 \
	--variants "reference fixed" \
	--out /work/exp/rate-limit/run
