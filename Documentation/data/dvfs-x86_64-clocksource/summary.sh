#!/bin/bash
# One line per boot of ablation/: shape, driver, boot, the clocksource at
# the parallel check and at the end, the parallel check's two sides (last
# CPU, CPU 0), work at fmin (expected 0.25), invariance and burst (1).
cd "$(dirname "$0")/ablation"
printf '%-8s %-4s %s %-6s %-6s %-7s %-7s %-7s %-7s %-7s\n' shape drv b cs_par cs_end par_cpu1 par_cpu0 work_fmin invar burst
for f in *-[0-9].log; do
	IFS=- read -r shape drv b <<<"${f%.log}"
	[ "$shape" = per ] && { shape=per-cpu; IFS=- read -r _ _ drv b <<<"${f%.log}"; }
	awk -v shape="$shape" -v drv="$drv" -v b="$b" '
	function field(k,   i, kv) { for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) return kv[2] } return "" }
	$2 == "dvfs-clocksource" { cs[field("when")] = field("name") }
	$2 == "dvfs-parallel" { par[field("cpu")] = field("ratio") }
	$2 == "dvfs-work" && field("khz") == 500000 { wf = field("ratio") }
	$2 == "dvfs-invariance" { inv = field("ratio") }
	$2 == "dvfs-burst" { bu = field("ratio") }
	END { printf "%-8s %-4s %s %-6s %-6s %-7s %-7s %-7s %-7s %-7s\n", shape, drv, b,
		cs["parallel"] == "" ? "-" : cs["parallel"], cs["end"] == "" ? "-" : cs["end"], par[1], par[0], wf, inv, bu }' <(tr -d '\r' <"$f")
done
