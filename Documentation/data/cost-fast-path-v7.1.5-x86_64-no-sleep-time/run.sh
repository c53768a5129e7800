#!/bin/bash
# Issue 33: what the early return saves per exit on x86_64, and what G's
# frequency update costs: the arm64 run's command for x86_64.
set -euo pipefail
cd /work/main
export KERNEL_SRC=/work/.mirror/danayer+linux-7.1.5/repo
scripts/cost.sh --arch x86_64 --boots 2 --children 2000 --repeats 3 --functions sched_move_task \
	--variants "reference+dvfs fixed+dvfs fixed@mainline-fast-path+dvfs fixed@mainline-fast-path+alt-G+dvfs" \
	--out /work/exp/x86-cost/run
