#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# No phantom attach: boot the kernels, run scripts/guest/phantom_attach.c
# in each, and say on which a dead task's averages came back on a cfs_rq
# or in tg->load_avg after a class or group change of the zombie.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [options]

$(run_options_usage 3 phantom)

Boots every kernel R times, interleaved, each running phantom_attach
(zombie thread group leader, then sched_setscheduler() fair -> FIFO ->
fair, or setsid() from another thread; in the root cgroup and in a cpu
cgroup). Writes DIR/phantom.csv (arch,kernel,boot,test,result) and
DIR/table.txt, and every console log under DIR/logs/. Exits 1 when any
test failed, broke or a boot gave no TAP plan: a kernel that attaches a
dead task's averages again fails here.
USAGE
}

main() {
	local arch boots variants out v b log rc=0
	parse_run_options 3 phantom "$@"
	arch=$RUN_ARCH boots=$RUN_BOOTS variants=$RUN_VARIANTS out=$RUN_OUT
	[ ! -e "$out/phantom.csv" ] || usage_error "$out already holds results"
	mkdir -p "$out/logs"
	build_guests "$arch" "" "$variants"
	for b in $(seq "$boots"); do
		for v in $variants; do
			log "phantom boot $b/$boots: $arch $v"
			log=$out/logs/$arch-$v-$b.log
			# A splat, panic or hang fails the boot: recorded as a row.
			"$SCRIPTS_DIR/guest-boot.sh" --job phantom "$arch" "${GUEST_IMAGE[$arch-$v]}" \
				"$BUILD_DIR/guest/$arch/initramfs.cpio.gz" "$log" 2>"$log.boot-error" ||
				log "boot failed: $(tail -n 1 "$log.boot-error")"
		done
	done
	echo "arch,kernel,boot,test,result" >"$out/phantom.csv"
	for b in $(seq "$boots"); do
		for v in $variants; do
			log=$out/logs/$arch-$v-$b.log
			phantom_rows "$arch" "$v" "$b" "$log" >>"$out/phantom.csv"
			if [ -s "$log.boot-error" ] && grep -q '^error: ' "$log.boot-error"; then
				echo "$arch,$v,$b,boot: $(grep -m1 '^error: ' "$log.boot-error" | tr , ';'),fail" \
					>>"$out/phantom.csv"
			fi
		done
	done
	awk -F, 'NR > 1 { k = $2 " | " $4; if (!(k in n)) order[++m] = k; n[k]++; r[k, $5]++ }
		END {
			print "| kernel | test | boots | pass | fail | skip |"
			print "|---|---|---|---|---|---|"
			for (i = 1; i <= m; i++)
				printf "| %s | %d | %d | %d | %d |\n", order[i], n[order[i]],
					r[order[i], "pass"], r[order[i], "fail"], r[order[i], "skip"]
		}' "$out/phantom.csv" | tee "$out/table.txt"
	if grep -q ',fail$' "$out/phantom.csv"; then
		grep ',fail$' "$out/phantom.csv" | sed 's/^/phantom attach or no verdict: /' >&2
		rc=1
	fi
	return "$rc"
}

# phantom_rows ARCH KERNEL BOOT LOG: one CSV row per test of the boot;
# a boot without a plan, or with fewer results than planned, is a fail.
phantom_rows() {
	tr -d '\r' <"$4" | awk -v pre="$1,$2,$3" '
		/^1\.\.[0-9]+/ { plan = substr($1, 4) + 0; seen_plan = 1 }
		/^(not )?ok [0-9]+ / {
			line = $0
			result = ($1 == "not") ? "fail" : "pass"
			if (line ~ /# SKIP/) result = "skip"
			sub(/^(not )?ok [0-9]+ /, "", line)
			sub(/ #.*/, "", line)
			gsub(/,/, ";", line)
			printf "%s,%s,%s\n", pre, line, result
			done++
		}
		END {
			if (!seen_plan) printf "%s,no TAP plan,fail\n", pre
			else if (done < plan) printf "%s,%d of %d results,fail\n", pre, done, plan
		}'
}

main "$@"
