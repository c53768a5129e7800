# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source lib.sh
# SPDX-License-Identifier: GPL-2.0
# TAP: rows of a guest's TAP results, the whole of a tool whose guests
# run one TAP job, and its table.
# Sourced by scripts/lib.sh, never run.

# tap_rows ARCH KERNEL BOOT LOG: one CSV row (ARCH,KERNEL,BOOT,test,result)
# per TAP result of a guest's console log; a boot without a plan, or
# with fewer results than planned, is a fail.
tap_rows() {
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

# tap_boot_rows ARCH KERNEL BOOT LOG: tap_rows, and a fail row for a boot
# that guest-boot.sh failed (splat, panic, hang: LOG.boot-error).
tap_boot_rows() {
	local error
	tap_rows "$@"
	if error=$(boot_failed "$4"); then
		echo "$1,$2,$3,boot: $(tr , ';' <<<"$error"),fail"
	fi
}

# run_tap_job NAME JOB "$@": the whole of a tool whose guests run one TAP
# job (phantom-attach.sh, pelt-bounds.sh): parse the run options, build,
# boot every kernel R times interleaved, write DIR/NAME.csv
# (arch,kernel,boot,test,result) and DIR/table.txt; returns 1 when any
# test failed or a boot gave no verdict.
run_tap_job() {
	local name=$1 job=$2 arch boots variants out v b rc=0
	shift 2
	parse_run_options 3 "$name" "$@"
	arch=$RUN_ARCH boots=$RUN_BOOTS variants=$RUN_VARIANTS out=$RUN_OUT
	[ ! -e "$out/$name.csv" ] || usage_error "$out already holds results"
	mkdir -p "$out/logs"
	build_guests "$arch" "" "$variants"
	boot_interleaved "$arch" "$boots" "$variants" "$out" "$name" --job "$job"
	echo "arch,kernel,boot,test,result" >"$out/$name.csv"
	for b in $(seq "$boots"); do
		for v in $variants; do
			tap_boot_rows "$arch" "$v" "$b" "$out/logs/$arch-$v-$b.log" >>"$out/$name.csv"
		done
	done
	tap_table "$out/$name.csv" | tee "$out/table.txt"
	if grep -q ',fail$' "$out/$name.csv"; then
		grep ',fail$' "$out/$name.csv" | sed "s/^/$name fail or no verdict: /" >&2
		rc=1
	fi
	return "$rc"
}

# tap_table CSV: per kernel and test, how many boots passed, failed and
# skipped (markdown), from rows of tap_boot_rows under a header line.
tap_table() {
	awk -F, 'NR > 1 { k = $2 " | " $4; if (!(k in n)) order[++m] = k; n[k]++; r[k, $5]++ }
		END {
			print "| kernel | test | boots | pass | fail | skip |"
			print "|---|---|---|---|---|---|"
			for (i = 1; i <= m; i++)
				printf "| %s | %d | %d | %d | %d |\n", order[i], n[order[i]],
					r[order[i], "pass"], r[order[i], "fail"], r[order[i], "skip"]
		}' "$1"
}
