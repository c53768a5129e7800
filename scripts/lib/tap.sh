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

# tap_collect NAME DIR ARCH: exp_collect of a tool whose guests run one
# TAP job (phantom-attach.sh, pelt-bounds.sh): DIR/NAME.csv
# (arch,kernel,boot,test,result) and DIR/table.txt; returns 1 when any
# test failed or a boot gave no verdict.
tap_collect() {
	local name=$1 dir=$2 arch=$3 v b
	echo "arch,kernel,boot,test,result" >"$dir/$name.csv"
	for b in $(seq "$EXP_BOOTS"); do
		for v in $EXP_VARIANTS; do
			tap_boot_rows "$arch" "$v" "$b" "$(console_log "$dir" "$arch" "" "$v" "$b")" >>"$dir/$name.csv"
		done
	done
	tap_table "$dir/$name.csv" | tee "$dir/table.txt"
	if grep -q ',fail$' "$dir/$name.csv"; then
		grep ',fail$' "$dir/$name.csv" | sed "s/^/$name fail or no verdict: /" >&2
		return 1
	fi
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
