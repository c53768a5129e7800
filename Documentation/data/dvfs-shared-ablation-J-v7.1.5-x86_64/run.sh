#!/bin/bash
# Issue 33: what raises the clock shared by both CPUs with the PELT fix?
# Ablation J: the dead task's sums leave at v7.1.5's time, with v7.1.5's
# amount (fixed+alt-J) or the exact one (fixed@mainline-removal+alt-J).
set -euo pipefail
cd /work/main
export KERNEL_SRC=/work/.mirror/danayer+linux-7.1.5/repo
scripts/dvfs.sh --arch x86_64 --boots 6 --seconds 3 --policies shared \
	--loads "shell exec" \
	--variants "reference fixed fixed+alt-J fixed@mainline-removal fixed@mainline-removal+alt-J" \
	--out /work/exp/shared-ablation/run
