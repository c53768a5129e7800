#!/bin/bash
# Issue 49 runs, one after the other (never two guests at once).
set -uo pipefail
E=/work/exp/p49
rev=$(git -C /work/main rev-parse --short HEAD)
for n in 1 2; do
	rm -rf /tmp/v$n
	git clone -q /work/main /tmp/v$n
	echo "V$n clone of $(git -C /tmp/v$n rev-parse --short HEAD) start $(date -u +%FT%TZ)" >>$E/times.txt
	(cd /tmp/v$n && make verify) >$E/V$n.out 2>&1
	echo "V$n exit $? end $(date -u +%FT%TZ)" >>$E/times.txt
done
