#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the PELT change does where schedutil sets the clock: every kernel
# with the emulated DVFS driver (VARIANT+dvfs), its validation, then the
# loads of scripts/experiments/bench/guest/workloads.c under schedutil,
# per policy shape.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/../..
. "$(dirname "${BASH_SOURCE[0]}")/../../lib.sh"

FMAX_KHZ=2000000	# scripts/experiments/dvfs/emulated-cpufreq.patch
WORK_TOLERANCE=0.05	# work per second within 5 % of f / fmax
# A periodic task's util_avg at f within 10 % of its util_avg at fmax: what
# frequency invariance gives; without it, 0.57 fmax would read 75 % more.
UTIL_TOLERANCE=0.10
# The checks that judge a boot rather than the emulation: a boot failing
# one (its job did not complete, its CPUs did not compute in parallel)
# is not of the machine the tables are about, and is left out of them.
BOOT_CHECKS="completed parallel clocksource"
# workloads -v list=WHICH | -v check="L...": the loads of
# scripts/experiments/bench/guest/workloads.c, or what is wrong with the
# names L (scripts/experiments/bench/workloads.awk).
workloads() {
	awk "$@" -f "$SCRIPTS_DIR/experiments/bench/workloads.awk" "$SCRIPTS_DIR/experiments/bench/guest/workloads.c"
}
LOADS_DEFAULT=$(workloads -v list=default)

# The arches the emulated cpufreq driver covers, and the default one
# (their records' ARCH_DVFS; ARCH_CLOCKSOURCE and ARCH_DVFS_APPEND say
# what the model needs there, and why).
DVFS_ARCHES=$(arches_where ARCH_DVFS yes preferred)
DVFS_DEFAULT_ARCH=$(arches_where ARCH_DVFS preferred)
DVFS_DEFAULT_ARCH=${DVFS_DEFAULT_ARCH%% *}

usage() {
	cat <<USAGE
usage: $(basename "$0") [options]

schedutil on an emulated DVFS clock: each kernel is built with
scripts/experiments/dvfs/emulated-cpufreq.patch (never for merging; 6.12
and later) and booted R times per policy shape, interleaved. Each boot
first validates the emulation (work per frequency, two CPUs computing
at once, frequency invariance, schedutil reaching fmax), then runs each
load for S seconds under schedutil. The model, the checks and the rule
a candidate loses by: Documentation/dvfs.md.

Writes DIR/validation.csv, DIR/bench.csv, DIR/table.txt and
DIR/verdicts.csv. Exits 1 when a check other than parallel fails, a
result is missing or a candidate loses to the reference; 3 ("cannot
judge here") when the only failures are boots whose two CPUs did not
compute at once; else 0.

$(experiment_usage)
  --seconds S         seconds per load (default 4)
  --loads "L..."      loads (default: $LOADS_DEFAULT)
  --policies "P..."   policy shapes: per-cpu, remote, shared (default all)
  --period-us N       the driver's period, the work between two stalls
                      (default 1000)
  --rate-limit-us N   schedutil's rate limit in the guests (default the
                      driver's, 1 ms; 0: none), for ablations
USAGE
}

EXP_NAME=dvfs EXP_BOOTS=5 EXP_SUFFIX=+dvfs
EXP_ARCH=$DVFS_DEFAULT_ARCH EXP_ARCHES_OK=$DVFS_ARCHES
SECONDS_PER_LOAD=4 LOADS=$LOADS_DEFAULT POLICIES="per-cpu remote shared" PERIOD="" RATE_LIMIT=""

exp_option() {
	local unknown
	EXP_SHIFT=2
	case "$1" in
	--seconds) positive_option "$1" "${2:-}"; SECONDS_PER_LOAD=$2 ;;
	--loads)
		[[ "${2:-}" =~ ^[a-z-]+( [a-z-]+)*$ ]] || usage_error "--loads takes load names, got '${2:-}'"
		# Here, not in the guest after every kernel is built.
		unknown=$(workloads -v check="$2")
		[ -z "$unknown" ] || usage_error "--loads: $unknown"
		LOADS=$2
		;;
	--policies)
		[[ "${2:-}" =~ ^(per-cpu|remote|shared)( (per-cpu|remote|shared))*$ ]] ||
			usage_error "--policies takes per-cpu, remote and/or shared, got '${2:-}'"
		POLICIES=$2
		;;
	--period-us)
		positive_option "$1" "${2:-}"
		PERIOD="emulated_cpufreq.period_us=$2"
		;;
	--rate-limit-us)
		[[ "${2:-}" =~ ^(0|[1-9][0-9]*)$ ]] || usage_error "--rate-limit-us takes a whole number of microseconds"
		RATE_LIMIT="dvfs.rate_limit_us=$2"
		;;
	*) return 1 ;;
	esac
}

exp_boot_args() {
	printf '%s\n' --job dvfs --args "$SECONDS_PER_LOAD $LOADS" \
		--timeout $((600 + 20 * SECONDS_PER_LOAD * $(wc -w <<<"$LOADS")))
}

# exp_log_dirs DIR: where the console logs of exp_boot are.
exp_log_dirs() {
	local policy
	for policy in $POLICIES; do echo "$1/$policy"; done
}

# exp_boot ARCH TOPOLOGY DIR: every kernel R times per policy shape,
# each shape's console logs in DIR/POLICY/logs/.
exp_boot() {
	local policy
	for policy in $POLICIES; do
		mkdir -p "$3/$policy/logs"
		experiment_boot "$1" "$2" "$3/$policy" "dvfs $policy" \
			"$(policy_params "$policy")$(model_params "$1")${PERIOD:+ $PERIOD}${RATE_LIMIT:+ $RATE_LIMIT}"
	done
}

exp_collect() {
	local out=$1 arch=$2 policy b v
	echo "arch,policy,kernel,boot,check,khz,value,expected,ok" >"$out/validation.csv"
	echo "arch,policy,kernel,boot,load,metric,value,unit" >"$out/bench.csv"
	for policy in $POLICIES; do
		for b in $(seq "$EXP_BOOTS"); do
			for v in $EXP_VARIANTS; do
				dvfs_rows "$arch,$policy,$v,$b" "$(console_log "$out/$policy" "$arch" "" "$v" "$b")" \
					"$SECONDS_PER_LOAD" "$out"
			done
		done
	done
	dvfs_tables "$out" "$EXP_VARIANTS" "$EXP_BOOTS" "$POLICIES" "$LOADS" | tee "$out/table.txt"
	dvfs_verdict "$out"
}

main() { experiment_main "$@"; }

# dvfs_verdict DIR: 1 where a check other than parallel failed, a result
# is missing or a candidate loses; 3 ("cannot judge here") where the only
# failures are boots whose two CPUs did not compute in parallel (their
# figures are left out of the tables: this host's CPUs interfered); else 0.
# Read from DIR/verdicts.csv, the rows of the tables as data: the printed
# table is for people, and a pipe that stops reading it early can die of
# SIGPIPE under pipefail and read as no failure.
dvfs_verdict() {
	local unparallel
	if ! awk -F, 'NR > 1 && (($1 == "validation" && $4 != "parallel" && $5 == "fail") ||
			$5 == "missing" || $5 == "loses" || $7 != "") { failed = 1 }
		END { exit failed }' "$1/verdicts.csv"; then
		return 1
	fi
	unparallel=$(awk -F, '$5 == "parallel" && $9 == "fail" { n++ } END { print n + 0 }' "$1/validation.csv")
	if [ "$unparallel" -gt 0 ]; then
		echo "cannot judge here: $unparallel boot(s) whose two CPUs did not each do their solo work at once (the parallel check); their figures are left out" >&2
		return 3
	fi
	return 0
}

# model_params ARCH: what the model needs on ARCH's command line, with a
# space before it (its record's ARCH_DVFS_APPEND says why).
model_params() {
	local params
	params=$(arch_field "$1" ARCH_DVFS_APPEND)
	echo "${params:+ $params}"
}

# policy_params POLICY: the driver's parameters for a policy shape.
policy_params() {
	case "$1" in
	per-cpu) echo "emulated_cpufreq.shared=0 emulated_cpufreq.remote=0" ;;
	remote) echo "emulated_cpufreq.shared=0 emulated_cpufreq.remote=1" ;;
	shared) echo "emulated_cpufreq.shared=1 emulated_cpufreq.remote=0" ;;
	esac
}

# dvfs_rows PREFIX LOG SECONDS DIR: one boot's validation and load rows.
dvfs_rows() {
	# guest-boot.sh's reason for a failed boot (splat, panic, hang): a
	# boot can die with its job done.
	local boot_error
	boot_error=$(boot_failed "$2" || true)
	# The log through a file argument: stdin carries the program.
	awk -v pre="$1" -v seconds="$3" -v boot_error="$boot_error" -v fmax=$FMAX_KHZ -v tol=$WORK_TOLERANCE \
		-v counter="$(arch_field "${1%%,*}" ARCH_CLOCKSOURCE)" \
		-v util_tol=$UTIL_TOLERANCE -v boot_checks="$BOOT_CHECKS" \
		-v validation="$4/validation.csv" -v bench="$4/bench.csv" \
		-f "$SCRIPTS_DIR/console.awk" -f /dev/stdin <(tr -d '\r' <"$2") <<'AWK'
function check(name, khz, value, expected, ok) {
	print pre "," name "," khz "," value "," expected "," (ok ? "pass" : "fail") >>validation
	if (!ok && index(" " boot_checks " ", " " name " ")) failed++
}
function diagnostic(name, khz, value, expected) {
	print pre "," name "," khz "," value "," expected ",info" >>validation
}
function within(value, expected, t) {
	return expected > 0 && value / expected - 1 <= t && 1 - value / expected <= t
}
# The guest job exits 0 when every step and load ran: a boot
# that died (an OOM kill) has fewer values in the tables.
$1 == "@@@" && $2 == "guest-end" { guest_rc = kv("rc") }
# The job's comparisons (ratio=: a median over rounds, see
# scripts/experiments/dvfs/guest/dvfs.sh); logs of the older job, which
# measured each side once (ops=, util_avg=), are read as they were judged
# then.
$1 == "@@@" && $2 == "dvfs-work" && kv("ratio") != "" {
	e = kv("khz") / fmax
	check("work", kv("khz"), kv("ratio"), e, within(kv("ratio"), e, tol))
	nwork++
}
$1 == "@@@" && $2 == "dvfs-work" && kv("ratio") == "" { old_work[kv("khz")] = kv("ops"); nwork++; nold++ }
$1 == "@@@" && $2 == "dvfs-work-again" { again_khz = kv("khz"); again = kv("ops") }
$1 == "@@@" && $2 == "dvfs-concurrent" { concurrent = kv("ops") }
$1 == "@@@" && $2 == "dvfs-parallel" {
	nparallel++
	parallel_ok += within(kv("ratio"), 1, tol)
	if (parallel == "" || kv("ratio") < parallel) parallel = kv("ratio")
}
$1 == "@@@" && ($2 == "dvfs-invariance" || $2 == "dvfs-burst") && kv("ratio") != "" {
	check(substr($2, 6), kv("khz"), kv("ratio"), 1, within(kv("ratio"), 1, util_tol))
}
$1 == "@@@" && $2 == "dvfs-invariance" && kv("ratio") == "" {
	e = kv("util_avg_fmax")
	check("invariance", kv("khz"), kv("util_avg"), e, within(kv("util_avg"), e, util_tol))
}
# What the parallel check and the loads read the time with (the job's
# start is still on the boot's early clocksource); logs of the older job
# have no record and no check.
$1 == "@@@" && $2 == "dvfs-clocksource" && kv("when") != "start" {
	nclock++
	if (kv("name") != counter && clock_other == "") clock_other = kv("name")
	clock_last = kv("name")
}
$1 == "@@@" && $2 == "dvfs-schedutil" {
	check("schedutil_fmax", kv("khz"), kv("util_avg"), 1024,
	      kv("khz") == fmax && kv("util_avg") >= 0.95 * 1024)
}
$1 == "@@@" && $2 == "bench" && $0 ~ / value=/ {
	rows[++nrows] = pre "," kv("load") "," kv("metric") "," kv("value") "," kv("unit")
	if (kv("unit") == "1/s") ops[kv("load")] = kv("value") * seconds
}
$1 == "@@@" && $2 == "dvfs-time" {
	l = kv("load"); b = kv("busy_us") / 1e6; f = kv("khz") / fmax
	busy[l] += b; fbusy[l] += b * f; energy[l] += b * f * f * f
	if (!(l in seen)) { seen[l] = 1; order[++nl] = l }
}
END {
	check("completed", "", guest_rc, 0, guest_rc == "0" && boot_error == "")
	if (nclock)
		check("clocksource", "", clock_other != "" ? clock_other : clock_last, counter, clock_other == "")
	# Two CPUs that compute in parallel: each loop's work beside the
	# other's over its work alone, the lower of the two shown.
	if (nparallel)
		check("parallel", fmax, parallel, 1, nparallel == 2 && parallel_ok == 2)
	else if (!(fmax in old_work))
		check("parallel", fmax, "", 1, 0)
	if (!nwork) check("work", fmax, "", "", 0)
	if (fmax in old_work) {
		if (again != "" && old_work[fmax] > 0)
			diagnostic("work_again", again_khz, again / old_work[fmax], again_khz / fmax)
		if (concurrent != "" && old_work[fmax] > 0)
			diagnostic("work_concurrent", fmax, concurrent / old_work[fmax], 1)
		for (k in old_work)
			if (k != fmax) {
				e = k / fmax
				check("work", k, old_work[k] / old_work[fmax], e, within(old_work[k] / old_work[fmax], e, tol))
			}
	} else if (nold) check("work", fmax, "", "", 0)
	for (i = 1; i <= nl; i++) {
		l = order[i]
		if (busy[l] > 0)
			rows[++nrows] = pre "," l ",mean_freq," fbusy[l] / busy[l] * fmax / 1000 ",MHz"
		rows[++nrows] = pre "," l ",energy," energy[l] / seconds ",fmax-CPU-s/s"
		if (ops[l] > 0)
			rows[++nrows] = pre "," l ",energy_per_kop," energy[l] / ops[l] * 1000 ",fmax-CPU-ms"
	}
	if (!failed)
		for (i = 1; i <= nrows; i++) print rows[i] >>bench
}
AWK
}

# dvfs_tables DIR "VARIANTS" BOOTS "POLICIES" "LOADS": the validation
# summary, then per policy shape and load the medians [ranges] and the
# verdict of each candidate against the reference; each row's verdict
# also in DIR/verdicts.csv (table,policy,subject,check,verdict,losing,
# without_value): a validation row's subject is a kernel and its check
# the check; a load row's subject is the load and its check the metric,
# losing the candidates that lose ("loses") and without_value the
# kernels with no value in the row ("missing" in the printed table),
# each list space-separated.
dvfs_tables() {
	awk -F, -v variants="$2" -v boots="$3" -v policies="$4" -v loads="$5" -v tol=$WORK_TOLERANCE -v util_tol=$UTIL_TOLERANCE \
		-v boot_checks="$BOOT_CHECKS" -v verdicts="$1/verdicts.csv" \
		-f "$SCRIPTS_DIR/stats.awk" -f /dev/stdin "$1/validation.csv" "$1/validation.csv" "$1/bench.csv" <<'AWK'
function summary(key, v,   n, a, i) {
	n = count[key, v]
	if (!n) return "missing"
	for (i = 1; i <= n; i++) a[i] = val[key, v, i]
	med[key, v] = median(a, n)
	lo[key, v] = a[1]; hi[key, v] = a[n]
	return sprintf("%.4g [%.4g-%.4g]%s", med[key, v], a[1], a[n],
		n < boots ? sprintf(" (%d of %d boots)", n, boots) : "")
}
# beyond(key, c, sign): 1 where c's median is better than the
# reference's by more than the larger range of the two, -1 where it is
# worse by more than that, 0 otherwise (sign 1: higher is better).
function beyond(key, c, sign,   spread, d) {
	spread = range_spread(key, c)
	d = (med[key, c] - med[key, "reference"]) * sign
	return d > spread ? 1 : d < -spread ? -1 : 0
}
# separated(key, c, sign): 1 where every boot of c is worse than every
# boot of the reference, with at least 3 boots of each: a complete
# separation, which by chance alone is as rare as 1 in 20 at 3 boots
# each and 1 in 252 at 5, though the medians may lie within the spread.
function separated(key, c, sign) {
	if (count[key, c] < 3 || count[key, "reference"] < 3) return 0
	return sign > 0 ? hi[key, c] < lo[key, "reference"] : lo[key, c] > hi[key, "reference"]
}
function verdict(p, l, m, metric_unit,   i, c, out, s, better) {
	if (m != tput[l] && m != "churn_forks" && m !~ /^energy/) return "(diagnostic)"
	if (!(" " variants " " ~ / reference /)) return "(no reference run)"
	if (!count[p SUBSEP l SUBSEP m, "reference"]) return "missing"
	out = ""
	for (i = 1; i <= nv; i++) {
		c = vs[i]
		if (c == "reference" || c == "regressed") continue
		if (!count[p SUBSEP l SUBSEP m, c]) return "missing"
		s = metric_unit == "1/s" ? 1 : -1
		if (m ~ /^energy/) {
			# More energy only counts where throughput is not higher.
			# (lateness, in us, is better when lower)
			better = (p SUBSEP l SUBSEP tput[l]) in seen &&
				beyond(p SUBSEP l SUBSEP tput[l], c, unit[p SUBSEP l SUBSEP tput[l]] == "1/s" ? 1 : -1) > 0
			if (!better && beyond(p SUBSEP l SUBSEP m, c, -1) < 0) out = out (out == "" ? "" : ", ") c
		} else if (beyond(p SUBSEP l SUBSEP m, c, s) < 0 || separated(p SUBSEP l SUBSEP m, c, s))
			out = out (out == "" ? "" : ", ") c
	}
	return out == "" ? "same or better" : "loses (" out ")"
}
# verdict_row(table, policy, subject, check, v, without_value): the row
# of verdicts.csv of a printed verdict v.
function verdict_row(table, policy, subject, check, v, without_value,   losing) {
	losing = ""
	if (v ~ /^loses \(/) {
		losing = substr(v, 8, length(v) - 8)
		gsub(/, /, " ", losing)
		v = "loses"
	}
	print table "," policy "," subject "," check "," v "," losing "," without_value >verdicts
}
BEGIN {
	nv = split(variants, vs, " ")
	print "table,policy,subject,check,verdict,losing,without_value" >verdicts
	pooled_tol["work"] = tol; pooled_tol["invariance"] = util_tol; pooled_tol["burst"] = util_tol
}
FNR == 1 { file++; next }
# First the boots left out (BOOT_CHECKS): their figures measured this
# host rather than the emulation.
file == 1 {
	if ($9 == "fail" && index(" " boot_checks " ", " " $5 " ")) left_out[$2, $3, $4] = 1
	next
}
file == 2 {
	vkey = $2 " " $3 " " $5
	if ($9 == "info") {
		# A diagnostic: value and expected, never pass or fail;
		# summary() of the kernel "info" gives its median [range].
		val[vkey, "info", ++count[vkey, "info"]] = $7
		iexpected[vkey] = $8
	}
	vtotal[vkey]++
	if ($9 == "pass") vpass[vkey]++
	# A check judged per boot other than the boot checks (schedutil_fmax)
	# judges on the boots kept only, as the pooled ones do.
	if (!(($2, $3, $4) in left_out)) {
		ktotal[vkey]++
		if ($9 == "pass") kpass[vkey]++
	}
	if (!(vkey in vseen)) { vseen[vkey] = 1; vkeys[++nvk] = vkey }
	# The emulation's accuracy (work, invariance, burst), pooled over
	# every boot and shape of a kernel that was not left out: value /
	# expected per frequency. A kept boot without a value fails the
	# check (kept, but nothing in pv).
	if (($5 in pooled_tol) && !(($2, $3, $4) in left_out)) {
		kept[$3, $5] = 1
		if ($8 > 0 && $7 != "") {
			pkey = $3 SUBSEP $5 SUBSEP $6
			if (!(pkey in pn)) pkeys[++npk] = pkey
			pv[pkey, ++pn[pkey]] = $7 / $8
		}
	}
	next
}
{
	add($2 SUBSEP $5 SUBSEP $6, $3, $7)
	unit[$2 SUBSEP $5 SUBSEP $6] = $8
	# The load's own metric comes first (throughput, or lateness).
	if (!($5 in tput) && ($8 == "1/s" || $8 == "us")) tput[$5] = $6
}
END {
	# A pooled check passes where the median over the boots is within
	# its tolerance at every frequency it was measured at.
	for (i = 1; i <= npk; i++) {
		split(pkeys[i], pk, SUBSEP)
		n = pn[pkeys[i]]
		for (j = 1; j <= n; j++) a[j] = pv[pkeys[i], j]
		m = median(a, n)
		if (!((pk[1], pk[2]) in pooled_ok)) pooled_ok[pk[1], pk[2]] = 1
		if (m - 1 > pooled_tol[pk[2]] || 1 - m > pooled_tol[pk[2]]) pooled_ok[pk[1], pk[2]] = 0
	}
	print "| policy | kernel | check | passed | verdict |"
	print "|---|---|---|---|---|"
	for (i = 1; i <= nvk; i++) {
		split(vkeys[i], vk, " ")
		if (count[vkeys[i], "info"]) {
			printf "| %s | %s | %s | %s, %s expected | (diagnostic) |\n", vk[1], vk[2], vk[3],
				summary(vkeys[i], "info"), iexpected[vkeys[i]]
			verdict_row("validation", vk[1], vk[2], vk[3], "(diagnostic)", "")
			continue
		}
		if (vk[3] in pooled_tol)
			v = !((vk[2], vk[3]) in kept) ? "(every boot left out)" : pooled_ok[vk[2], vk[3]] ? "pass" : "fail"
		else if (index(" " boot_checks " ", " " vk[3] " "))
			v = vpass[vkeys[i]] == vtotal[vkeys[i]] ? "pass" : "fail"
		else
			v = !ktotal[vkeys[i]] ? "(every boot left out)" : kpass[vkeys[i]] == ktotal[vkeys[i]] ? "pass" : "fail"
		printf "| %s | %s | %s | %d/%d | %s |\n", vk[1], vk[2], vk[3], vpass[vkeys[i]], vtotal[vkeys[i]], v
		verdict_row("validation", vk[1], vk[2], vk[3], v, "")
	}
	if (!nvk) {
		print "| - | - | validation | - | missing |"
		verdict_row("validation", "-", "-", "validation", "missing", "")
	}
	np = split(policies, ps, " ")
	for (pi = 1; pi <= np; pi++) {
		p = ps[pi]
		printf "\n| %s policy: load | metric |", p
		for (i = 1; i <= nv; i++) printf " %s |", vs[i]
		print " vs reference |"
		printf "|---|---|"
		for (i = 1; i <= nv; i++) printf "---|"
		print "---|"
		for (k = 1; k <= nkeys; k++) {
			split(keys[k], kk, SUBSEP)
			if (kk[1] != p) continue
			printf "| %s | %s (%s) |", kk[2], kk[3], unit[keys[k]]
			without_value = ""
			for (i = 1; i <= nv; i++) {
				cell = summary(keys[k], vs[i])
				printf " %s |", cell
				if (cell == "missing") without_value = without_value (without_value == "" ? "" : " ") vs[i]
			}
			v = verdict(p, kk[2], kk[3], unit[keys[k]])
			printf " %s |\n", v
			verdict_row("load", p, kk[2], kk[3], v, without_value)
		}
	}
	printf "\n%s boots per kernel and policy shape; median [min-max] over the boots\n", boots
	print "that gave a value (\"n of N boots\" where fewer did; \"completed\" says which died)."
}
AWK
}

# Sourcing (for tests) defines the functions without running main.
[ "${BASH_SOURCE[0]}" != "$0" ] || run_main "$@"
