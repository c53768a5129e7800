#!/bin/bash
# shares.sh RUN-DIR...: per boot (and try), the selftest's two "CPUs at
# once" figures and its outcome (parse-console.sh --verdict's test
# column), one line each:
#   run arch-topology-kernel-boot[.tryN] before after outcome
set -euo pipefail
for dir; do
	for log in "$dir"/logs/*.log "$dir"/logs/*.log.try[0-9]; do
		[ -f "$log" ] || continue
		name=${log##*/}
		figures=$(tr -d '\r' <"$log" | awk '
			/computed [0-9.]+ of what each did alone, before/ { for (i = 1; i <= NF; i++) if ($i == "computed") b = $(i + 1) }
			/computed [0-9.]+ of what each did alone, after/ { for (i = 1; i <= NF; i++) if ($i == "computed") a = $(i + 1) }
			END { printf "%s %s", b == "" ? "-" : b, a == "" ? "-" : a }')
		outcome=$(/work/main/scripts/parse-console.sh --verdict "$log" - - - - | awk -F, '{ print $NF }')
		echo "${dir##*/} ${name%.log*}${name#*.log} $figures $outcome"
	done
done
