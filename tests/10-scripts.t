#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The scripts' own logic: input checks, config check, parsing, the table.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 49

check "shellcheck is clean" shellcheck -x -P SCRIPTDIR "$SCRIPTS_DIR"/*.sh "$SCRIPTS_DIR"/*/*.sh \
	"$SCRIPTS_DIR"/experiments/*/*.sh "$SCRIPTS_DIR"/guest/init "$SCRIPTS_DIR"/experiments/*/guest/*.sh \
	"$PROJECT_DIR"/tests/*.t "$PROJECT_DIR"/tests/lib.sh "$PROJECT_DIR"/tests/fakes.sh "$PROJECT_DIR"/.ci/run

# An arch's facts live in its record, scripts/arch/ARCH.sh, only: the
# names a record gives (the arch's, the kernel's ARCH= and arch/ folder,
# Debian's, the cross compiler's) are nowhere else in the harness's code
# and comments. A path into Documentation/ is prose, a kernel patch is
# the kernel's code and a README is documentation: those are left out.
arch_facts_in_records() {
	local names hits
	names=$(bash -c '. "$1/lib.sh"
		for a in $ARCHES; do
			printf "%s\n" "$a" "$(arch_field "$a" ARCH_KERNEL)" "$(arch_field "$a" ARCH_DEBIAN)"
			image=$(arch_field "$a" ARCH_IMAGE); image=${image#arch/}; echo "${image%%/*}"
			cross=$(arch_field "$a" ARCH_CROSS_COMPILE); [ -z "$cross" ] || echo "${cross%%-*}"
		done' _ "$SCRIPTS_DIR" | sort -u | paste -sd'|') || return 1
	echo "names: $names"
	hits=$(git -C "$PROJECT_DIR" grep -nwE "$names" -- scripts Makefile .ci \
		':!scripts/arch' ':!*.patch' ':!*README*' | sed -E 's#Documentation/[^ )"]*##g' |
		grep -wE "$names") || return 0
	echo "$hits"
	return 1
}
check "arch facts are in scripts/arch/ only" arch_facts_in_records

# Adding an arch is one new record: a copy of the scripts with one more
# (a second x86 record under another name) lists it everywhere.
new_arch_one_file() {
	local copy=$TEST_TMP/arch-copy
	rm -rf "$copy"
	mkdir -p "$copy"
	cp -r "$SCRIPTS_DIR" "$copy/scripts"
	sed -e 's/^ARCH_RANK=.*/ARCH_RANK=99/' -e 's/^ARCH_PACKAGES=.*/ARCH_PACKAGES="qemu-system-misc"/' \
		"$SCRIPTS_DIR/arch/x86_64.sh" >"$copy/scripts/arch/newarch.sh"
	"$copy/scripts/guest-boot.sh" --help | grep -q 'ARCH (x86_64 arm64 i386 arm newarch)' &&
		"$copy/scripts/install-deps.sh" --list | grep -qx qemu-system-misc &&
		"$copy/scripts/verify.sh" --help | grep -q 'smt\*: x86_64 or newarch' &&
		fails_with 2 "expected one of: x86_64 arm64 i386 arm newarch" \
			"$copy/scripts/kernel-build.sh" sparc reference
}
check "a new arch is one new file in scripts/arch/" new_arch_one_file

# The tools that boot each kernel R times read the common options in one
# place (scripts/lib/experiment.sh): verify.sh and every experiment's
# (scripts/experiments/NAME/NAME.sh) list all of them.
common_options() {
	local tool option help
	for tool in "$SCRIPTS_DIR/verify.sh" "$SCRIPTS_DIR"/experiments/*/*.sh; do
		help=$("$tool" --help)
		for option in --arch --boots --variants --topologies --append --icount --extra-config \
			--out --table; do
			grep -q -- "^  $option " <<<"$help" || { echo "$tool --help lacks $option"; return 1; }
		done
	done
}
check "every experiment tool takes the common options, --table among them" common_options

# The one reader of the console's k=v words (scripts/console.awk): a
# number compares as a number, a value keeps a "=" of its own, a word
# that is not there is empty, and a key never matches another's prefix.
console_reader() {
	local got
	got=$(bash -c '. "$1/lib.sh" && echo "@@@ dvfs util_avg=1019 args=a=b khzmax=1 khz=2000000" |
		console_awk "{ print (kv(\"util_avg\") >= 972.8), kv(\"args\"), \"[\" kv(\"none\") \"]\", kv(\"khz\"), kv_key(\$3) }"' \
		_ "$SCRIPTS_DIR") || return 1
	echo "$got"
	[ "$got" = "1 a=b [] 2000000 util_avg" ]
}
check "the console's k=v reader: numbers as numbers, a value's own =, missing is empty" console_reader

# The entry points: the main path's in scripts/, the posting, dependency
# and evidence tools in their folders, each experiment's in its own.
entry_points() {
	local s
	for s in "$SCRIPTS_DIR"/*.sh "$SCRIPTS_DIR"/{posting,deps,evidence}/*.sh \
		"$SCRIPTS_DIR"/experiments/*/*.sh; do
		[ "$s" = "$SCRIPTS_DIR/lib.sh" ] || echo "$s"
	done
}
help_works() {
	local s
	for s in $(entry_points); do
		"$s" --help | grep -q '^usage:' || { echo "$s --help"; return 1; }
	done
}
check "every entry point answers --help" help_works

# Each experiment is one folder of scripts/experiments/: its host script
# named as the folder, its guest code in guest/. The guests' /guest/ holds
# the jobs and programs of scripts/guest/ and of every such folder, so no
# two jobs and no two programs share a name.
# experiment_layout SCRIPTS: SCRIPTS (a scripts/ folder) keeps that rule.
experiment_layout() {
	local d ext twice
	for d in "$1"/experiments/*/; do
		d=${d%/}
		[ -x "$d/$(basename "$d").sh" ] || { echo "$d has no $(basename "$d").sh"; return 1; }
	done
	for ext in sh c; do
		twice=$(bash -c '. "$1/lib.sh" && guest_code "$2"' _ "$1" "$ext" |
			xargs -n1 basename | sort | uniq -d)
		[ -z "$twice" ] || { echo "more than one guest file named $twice"; return 1; }
	done
}
guest_layout() {
	experiment_layout "$SCRIPTS_DIR" || return 1
	# The rule can fail: a second cost.sh job, in another experiment.
	mkdir "$TEST_TMP/layout"
	cp -r "$SCRIPTS_DIR" "$TEST_TMP/layout/scripts"
	cp "$SCRIPTS_DIR/experiments/cost/guest/cost.sh" "$TEST_TMP/layout/scripts/experiments/bench/guest/"
	! experiment_layout "$TEST_TMP/layout/scripts" && rm -rf "$TEST_TMP/layout"
}
check "each experiment one folder; every guest job and program name once" guest_layout

# Documentation/data/README lists the runs the tests replay or read (the
# fixtures among the records): each exists, and every run a test's code
# (not a comment) names is listed.
fixtures_listed() {
	local listed run code named=""
	listed=$(bash -c '. "$1/evidence/lab-data.sh" && replayed_runs' _ "$SCRIPTS_DIR") || return 1
	for run in $listed; do
		[ -d "$PROJECT_DIR/Documentation/data/$run" ] || { echo "listed, not there: $run"; return 1; }
	done
	code=$(cat "$PROJECT_DIR"/tests/*.t "$PROJECT_DIR"/tests/*.sh | grep -v '^[[:space:]]*#')
	for run in "$PROJECT_DIR"/Documentation/data/*/; do
		run=${run%/}
		run=${run##*/}
		grep -q "${run//./\\.}\([^A-Za-z0-9._+-]\|$\)" <<<"$code" || continue
		named+=" $run"
		grep -qxF "$run" <<<"$listed" || { echo "named by a test, not listed: $run"; return 1; }
	done
	echo "named:$named"
}
check "Documentation/data/README lists every run the tests replay" fixtures_listed
# The recorded runs' console logs (scripts/evidence/lab-data.sh): in the
# main tree only those of the runs the tests replay, every run whole on
# the branch lab-data.
if [ -n "$(git -C "$PROJECT_DIR" rev-parse -q --verify lab-data 2>/dev/null ||
	git -C "$PROJECT_DIR" rev-parse -q --verify origin/lab-data 2>/dev/null)" ]; then
	check "the main tree holds console logs of replayed runs only, lab-data every run whole" \
		"$SCRIPTS_DIR/evidence/lab-data.sh" check
else
	skip_test "the main tree holds console logs of replayed runs only, lab-data every run whole" \
		"no branch lab-data in this clone (git fetch origin lab-data:lab-data)"
fi
# A new run kept in a scratch repository: whole on lab-data, its tables
# and CSVs in the working tree, whole again from get (with the main
# branch's README, corrected since); the check names a console log of it
# added to the main tree, and a CSV that differs.
lab_data_round_trip() {
	local repo=$TEST_TMP/lab-repo res=$TEST_TMP/lab-run got=$TEST_TMP/lab-got tool
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
	mkdir -p "$repo/Documentation/data/replayed/logs" "$res/logs"
	cp -r "$SCRIPTS_DIR" "$repo/scripts"
	printf 'runs\n\n  replayed  tests/14: a replay\n' >"$repo/Documentation/data/README"
	echo 'console' >"$repo/Documentation/data/replayed/logs/a-1.log"
	git -C "$repo" init -q -b main
	git -C "$repo" add -A
	git -C "$repo" commit -q -m base
	git -C "$repo" branch lab-data
	echo 'console' >"$res/logs/x86_64-fixed-1.log"
	echo 'qemu -smp 2' >"$res/logs/x86_64-fixed-1.log.cmdline"
	echo 'boot,pass' >"$res/runs.csv"
	echo 'what ran' >"$res/README"
	tool=$repo/scripts/evidence/lab-data.sh
	"$tool" keep "$res" new-run || return 1
	[ "$(git -C "$repo" ls-tree -r --name-only lab-data Documentation/data/new-run | wc -l)" -eq 4 ] ||
		{ echo "lab-data lacks files of new-run"; return 1; }
	if [ ! -f "$repo/Documentation/data/new-run/runs.csv" ] || [ -e "$repo/Documentation/data/new-run/logs" ]; then
		echo "working tree: $(cd "$repo/Documentation/data/new-run" && find . -type f)"
		return 1
	fi
	"$tool" get new-run "$got" || return 1
	diff -r "$res" "$got" || return 1
	echo 'what ran, corrected' >"$repo/Documentation/data/new-run/README"
	git -C "$repo" add Documentation/data/new-run
	"$tool" check || return 1
	git -C "$repo" commit -q -m new-run
	"$tool" get new-run "$got.2" || return 1
	[ "$(cat "$got.2/README")" = 'what ran, corrected' ] || { echo "get: lab-data's README, not the main branch's"; return 1; }
	fails_with 2 "exists already" "$tool" keep "$res" new-run || return 1
	mkdir "$repo/Documentation/data/new-run/logs"
	cp "$res/logs/x86_64-fixed-1.log" "$repo/Documentation/data/new-run/logs/"
	git -C "$repo" add Documentation/data/new-run
	fails_with 1 "in the main tree: Documentation/data/new-run/logs/x86_64-fixed-1.log" "$tool" check || return 1
	git -C "$repo" rm -q -f Documentation/data/new-run/logs/x86_64-fixed-1.log
	echo 'boot,fail' >"$repo/Documentation/data/new-run/runs.csv"
	git -C "$repo" add Documentation/data/new-run
	fails_with 1 "differs from lab-data: Documentation/data/new-run/runs.csv" "$tool" check
}
check "lab-data.sh keeps a run whole on lab-data and its tables in the tree; check names a log or CSV out of place" \
	lab_data_round_trip

check "unknown arch is refused" \
	fails_with 2 "unknown arch 'sparc'" "$SCRIPTS_DIR/kernel-build.sh" sparc reference
check "unknown variant is refused" \
	fails_with 2 "unknown variant 'tuned'" "$SCRIPTS_DIR/kernel-tree.sh" tuned
check "fixed@S names a series of patches/, nothing else" \
	fails_with 2 "unknown variant 'fixed@../patches/mainline'" "$SCRIPTS_DIR/kernel-tree.sh" fixed@../patches/mainline
check "fixed@S of a series that does not exist is refused" \
	fails_with 2 "unknown variant 'fixed@nonesuch'" "$SCRIPTS_DIR/kernel-tree.sh" fixed@nonesuch
# Every form check_variant's message names is accepted (kernel-tree.sh
# reads fixed@S+alt-X as the series S plus candidate X).
variant_forms() {
	local v
	for v in reference regressed fixed bugfix fixed+diag reference+dvfs alt-B alt-B+diag \
		reference+alt-B fixed@mainline fixed@mainline+dvfs fixed@mainline-fast-path+alt-G \
		fixed@mainline-fast-path+alt-G+dvfs fixed@mainline-fast-path+alt-H+diag \
		reference+removal-wrap; do
		bash -c '. "$1/lib.sh" && check_variant "$2"' _ "$SCRIPTS_DIR" "$v" ||
			{ echo "refused: $v"; return 1; }
	done
	for v in fixed@mainline+alt-nonesuch fixed@nonesuch+alt-G alt-nonesuch nonesuch+alt-G; do
		! bash -c '. "$1/lib.sh" && check_variant "$2"' _ "$SCRIPTS_DIR" "$v" 2>/dev/null ||
			{ echo "accepted: $v"; return 1; }
	done
}
check "the variant grammar: every form its message names, and no other" variant_forms
# A suffix's config fragment joins the build wherever it is in the name.
suffix_fragments() {
	local v frags
	for v in fixed+dvfs fixed@mainline+dvfs+diag alt-B+dvfs; do
		frags=$(bash -c '. "$1/kernel-build.sh" && fragments x86_64 "/w/$2"' \
			_ "$SCRIPTS_DIR" "$v") || return 1
		grep -qx "$SCRIPTS_DIR/experiments/dvfs/dvfs.config" <<<"$frags" || { echo "no dvfs.config: $v"; return 1; }
	done
	frags=$(bash -c '. "$1/kernel-build.sh" && fragments x86_64 /w/fixed+diag' _ "$SCRIPTS_DIR")
	! grep -q dvfs <<<"$frags"
}
check "a variant suffix's config fragment joins its build, and no other's" suffix_fragments
check "dvfs.sh --rate-limit-us takes whole microseconds only" \
	fails_with 2 "rate-limit-us takes a whole number" "$SCRIPTS_DIR/experiments/dvfs/dvfs.sh" --rate-limit-us -1
check "unknown topology is refused" \
	fails_with 2 "unknown topology" "$SCRIPTS_DIR/verify.sh" --topologies numa
check "possible CPUs beyond the present ones are refused on x86_64" \
	fails_with 2 "--possible-cpus: arm64 only" "$SCRIPTS_DIR/guest-boot.sh" --possible-cpus 64 \
	x86_64 /dev/null /dev/null "$TEST_TMP/x.log"

# dtb_cpus DTB: the CPU nodes of a device tree, "reg capacity" a line
# (in hex, as dtc prints them; capacity 0x400 = 1024, 0x1e5 = 485).
dtb_cpus() {
	dtc -q -I dtb -O dts "$1" | awk '
		/^\t\tcpu@[0-9a-f]+ \{$/ { cpu = 1; cap = "-" }
		cpu && /capacity-dmips-mhz/ { cap = $3 }
		cpu && /reg = / { reg = $3 }
		cpu && /^\t\t};$/ { print reg, cap; cpu = 0 }' | tr -d '<>;'
}
# The device trees arm64 guests boot with: CPU nodes up to --possible-cpus
# after QEMU's own, and big and little capacities, each with the other.
arm64_device_trees() {
	local cmd
	cmd=$(bash -c '. "$1" && qemu_command arm64 Image initrd "$2" cores4 "" false 64' \
		_ "$SCRIPTS_DIR/guest-boot.sh" "$TEST_TMP/possible.log") || return 1
	if ! grep -qx -- -dtb <<<"$cmd" || ! grep -qx 'virt,gic-version=3' <<<"$cmd"; then
		echo "$cmd"
		return 1
	fi
	[ "$(dtb_cpus "$TEST_TMP/possible.log.dtb" | awk '$1 == sprintf("0x%02x", NR - 1) || $1 == sprintf("0x%x", NR - 1)' | wc -l)" -eq 64 ] ||
		{ dtb_cpus "$TEST_TMP/possible.log.dtb"; return 1; }
	bash -c '. "$1" && qemu_command arm64 Image initrd "$2" asym2x2 "" false 0' \
		_ "$SCRIPTS_DIR/guest-boot.sh" "$TEST_TMP/asym.log" >/dev/null || return 1
	[ "$(dtb_cpus "$TEST_TMP/asym.log.dtb" | awk '{ print $2 }' | tr '\n' ' ')" = "0x400 0x400 0x1e5 0x1e5 " ] ||
		{ dtb_cpus "$TEST_TMP/asym.log.dtb"; return 1; }
}
check "arm64 device trees: possible CPUs that never start, big and little capacities" arm64_device_trees

not_a_tree() {
	mkdir -p "$TEST_TMP/notlinux"
	BUILD_DIR=$TEST_TMP/build KERNEL_SRC=$TEST_TMP/notlinux \
		fails_with 1 "is not a kernel git repository" "$SCRIPTS_DIR/kernel-tree.sh" reference &&
		[ ! -e "$TEST_TMP/build/src" ]
}
check "KERNEL_SRC that is not a kernel git tree is refused, nothing written" not_a_tree

missing_tool() {
	bash -c '. "$1" && need_cmds sh no-such-tool-xyz' _ "$SCRIPTS_DIR/lib.sh"
}
check "a missing tool is named" fails_with 1 "missing tools: no-such-tool-xyz" missing_tool

config_check_catches_drops() {
	printf 'CONFIG_SMP=y\nCONFIG_NR_CPUS=8\n# CONFIG_SLUB_TINY is not set\n' >"$TEST_TMP/.config"
	printf 'CONFIG_SMP=y\nCONFIG_ACPI=y\nCONFIG_NR_CPUS=8\n# CONFIG_SLUB_TINY is not set\n# CONFIG_SMP is not set\n' >"$TEST_TMP/frag"
	# kernel-build.sh only defines its functions when sourced.
	[ "$(bash -c '. "$1" && check_config "$2" "$3"' _ "$SCRIPTS_DIR/kernel-build.sh" \
		"$TEST_TMP/.config" "$TEST_TMP/frag")" = \
		"$(printf '# CONFIG_SMP is not set\nCONFIG_ACPI=y')" ]
}
check "the config check lists options lost by olddefconfig, last fragment wins" config_check_catches_drops

# seed_tree: variants of one repository as kernel-tree.sh makes them
# (worktrees side by side), regressed built (a finished build directory:
# its fragments' key, an object, objtool's absolute path, the image
# last), fixed one file away from it.
seed_tree() {
	local top=$TEST_TMP/seed g=(/usr/bin/git -c user.name=t -c user.email=t@localhost)
	rm -rf "$top"
	mkdir -p "$top/src/sub"
	printf 'config A\n' >"$top/src/Kconfig"
	echo a >"$top/src/a.c"
	echo b >"$top/src/sub/b.c"
	"${g[@]}" -C "$top/src" init -q
	echo '/out-*/' >>"$top/src/.git/info/exclude"
	"${g[@]}" -C "$top/src" add -A
	"${g[@]}" -C "$top/src" commit -q -m base
	"${g[@]}" -C "$top/src" worktree add -q --detach "$top/kernels/regressed" HEAD
	"${g[@]}" -C "$top/src" worktree add -q --detach "$top/kernels/fixed" HEAD
	echo b2 >"$top/kernels/fixed/sub/b.c"
	"${g[@]}" -C "$top/kernels/fixed" commit -q -am fix
	local out=$top/kernels/regressed/out-x86_64
	mkdir -p "$out/tools" "$out/arch/x86/boot"
	: >"$out/.config"
	bash -c '. "$1" && fragments_key x86_64 "$2"' _ "$SCRIPTS_DIR/kernel-build.sh" \
		"$top/kernels/regressed" >"$out/.fragments-sha"
	echo "$top/kernels/regressed/tools/x.c" >"$out/tools/.x.o.cmd"
	echo obj >"$out/a.o"
	echo image >"$out/arch/x86/boot/bzImage"
	# The times seed_donor compares, set: the sources, then the build,
	# then the image last, each a minute apart, so that a file touched
	# now is newer than the image whatever the clock's resolution.
	find "$top/kernels" -path '*/out-x86_64' -prune -o -type f -exec touch -d @1600000000 {} +
	find "$out" -type f -exec touch -d @1600000060 {} +
	touch -d @1600000120 "$out/arch/x86/boot/bzImage"
}
# seed: seed_build_dir for fixed's build directory.
seed() {
	mkdir -p "$TEST_TMP/seed/kernels/fixed/out-x86_64"
	bash -c '. "$1" && seed_build_dir x86_64 "$2" "$2/out-x86_64"' _ "$SCRIPTS_DIR/kernel-build.sh" \
		"$TEST_TMP/seed/kernels/fixed"
}
# unseeded WHY: seed must leave fixed's build directory empty.
unseeded() {
	seed || return 1
	[ ! -e "$TEST_TMP/seed/kernels/fixed/out-x86_64/a.o" ] || { echo "seeded from $1"; return 1; }
}
seeded_build_dir() {
	local wt=$TEST_TMP/seed/kernels/fixed out
	out=$wt/out-x86_64
	seed_tree && seed || return 1
	if [ ! -f "$out/a.o" ] || [ ! -f "$out/.fragments-sha" ] || [ -e "$out/.seeding" ]; then
		ls -a "$out"
		return 1
	fi
	[ "$(cat "$out/tools/.x.o.cmd")" = "$wt/tools/x.c" ] || { cat "$out/tools/.x.o.cmd"; return 1; }
	# make rebuilds what differs, and only that.
	if [ ! "$out/a.o" -nt "$wt/a.c" ] || [ ! "$wt/sub/b.c" -nt "$out/a.o" ]; then
		ls -l --full-time "$wt" "$wt/sub" "$out"
		return 1
	fi
	[ -z "$(git -C "$wt" status --porcelain)" ] || { git -C "$wt" status; return 1; }
	# A change to Kconfig configures again.
	seed_tree
	printf 'config B\n' >"$wt/Kconfig"
	git -C "$wt" -c user.name=t -c user.email=t@localhost commit -q -am kconfig
	seed || return 1
	if [ ! -f "$out/a.o" ] || [ -e "$out/.fragments-sha" ]; then
		echo "Kconfig: kept the key"
		return 1
	fi
	# No donor: an edit git does not know of, a file newer than the
	# image (a tree prepared again, not rebuilt), another config.
	seed_tree && echo edit >>"$TEST_TMP/seed/kernels/regressed/a.c"
	unseeded "an edited tree" || return 1
	seed_tree && touch "$TEST_TMP/seed/kernels/regressed/a.c"
	unseeded "a tree newer than its image" || return 1
	seed_tree && echo other >"$TEST_TMP/seed/kernels/regressed/out-x86_64/.fragments-sha"
	unseeded "another config" || return 1
	# A start that was stopped is thrown away.
	seed_tree && mkdir -p "$out" && : >"$out/.seeding" && : >"$out/.config" && : >"$out/stale.o"
	seed || return 1
	if [ -e "$out/stale.o" ] || [ ! -f "$out/a.o" ]; then
		ls -a "$out"
		return 1
	fi
}
check "a new build directory starts from the closest finished variant's: what differs is newer, its paths its own; never from an edited, unbuilt or other-config tree" seeded_build_dir

# Real console logs (tests/fixtures/console/, how each was made is in
# its expected.csv) and the verdict each must give.
LOGS=$PROJECT_DIR/tests/fixtures/console
parse_runs() {
	local rows
	rows=$("$SCRIPTS_DIR/parse-console.sh" --runs "$LOGS/x86_64-reference-pass.log" x86_64 cores reference 1)
	echo "$rows"
	[ "$(echo "$rows" | wc -l)" -eq 10 ] &&
		[ "$(echo "$rows" | grep -c '^x86_64,cores,reference,1,cgroup,[1-5],[0-9.]*,[0-9.]*,[0-9.]*$')" -eq 5 ]
}
check "runs are parsed from a console log" parse_runs

verdicts_of_real_logs() {
	local log want got bad=0
	while IFS=, read -r log want; do
		case "$log" in "#"* | file) continue ;; esac
		got=$("$SCRIPTS_DIR/parse-console.sh" --verdict "$LOGS/$log" a t k 1)
		if [ "${got#a,t,k,1,}" != "$want" ]; then
			echo "$log: got ${got#a,t,k,1,}, want $want"
			bad=1
		fi
	done <"$LOGS/expected.csv"
	[ "$bad" -eq 0 ] && [ "$(grep -c '\.log,' "$LOGS/expected.csv")" -eq "$(find "$LOGS" -name "*.log" | wc -l)" ]
}
check "verdicts of real logs: pass, fail, figures, skip, bail-out, timeout, splat, panic, hang" \
	verdicts_of_real_logs

# The splat log with a megabyte of a passing run after it: the console
# scan once stopped at the splat while tr still wrote, tr died of
# SIGPIPE, and under pipefail the splat read as none.
splat_in_long_log() {
	local log=$TEST_TMP/long-splat.log got
	{ cat "$LOGS/x86_64-splat.log"; for _ in $(seq 500); do cat "$LOGS/x86_64-fixed-pass.log"; done; } >"$log"
	[ "$(wc -c <"$log")" -gt 1000000 ] || return 1
	got=$("$SCRIPTS_DIR/parse-console.sh" --verdict "$log" a t k 1)
	[ "${got##*,}" = splat ] || { echo "got $got"; return 1; }
}
check "a splat early in a long console log is still a splat" splat_in_long_log

# boot_outcome, the one reading of what a boot was, on recorded logs and
# the facts guest-boot.sh leaves beside them (QEMU's exit status and the
# timeout): its class, and guest-boot.sh's error line for it.
boot_outcomes() {
	local d=$TEST_TMP/outcomes want log rc got
	rm -rf "$d"
	mkdir -p "$d"
	while read -r want log rc; do
		cp "$LOGS/$log" "$d/$want.log"
		[ "$rc" = - ] || echo "rc=$rc timeout=30" >"$d/$want.log.qemu-exit"
		got=$(bash -c '. "$1/lib.sh" && o=$(boot_outcome "$2") && echo "$o" &&
			boot_outcome_error "$2" "$o"' _ "$SCRIPTS_DIR" "$d/$want.log") || return 1
		echo "$want: $got"
		case "$want" in
		ended) [[ $got == "ended 0"* ]] ;;
		panic) [[ $got == "panic "*"Kernel panic"*$'\n'"guest panicked: "* ]] ;;
		splat) [[ $got == "splat "*$'\n'"kernel splat: "* ]] ;;
		hang) [[ $got == "hang 30"$'\n'"guest hung: no result after 30s; console: "* ]] ;;
		qemu-failed) [[ $got == "qemu-failed 1"$'\n'"QEMU failed (exit 1): "* ]] ;;
		no-result) [[ $got == "no-result"$'\n'"guest printed no result; console: "* ]] ;;
		esac || { echo "wrong for $want"; return 1; }
	done <<-OUTCOMES
		ended x86_64-fixed-pass.log 0
		panic x86_64-panic.log 0
		splat x86_64-splat.log 0
		hang x86_64-hang.log 124
		qemu-failed x86_64-hang.log 1
		no-result x86_64-hang.log -
	OUTCOMES
}
check "boot_outcome: ended, panic, splat, hang, QEMU failed, no result, each with its error line" boot_outcomes

# results_dir DIR LOG-FOR-REFERENCE LOG-FOR-REGRESSED LOG-FOR-FIXED: a
# results directory as verify.sh writes it, from real logs; the kernels'
# names end in $KERNEL_SUFFIX (e.g. +dvfs).
results_dir() {
	local d=$1 v log
	shift
	mkdir -p "$d"
	echo "arch,topology,kernel,boot,setup,round,loops_per_s,idle_pct,remote_pct" >"$d/runs.csv"
	echo "arch,topology,kernel,boot,placement,idle,throughput,test" >"$d/verdicts.csv"
	for v in reference regressed fixed; do
		log=$LOGS/$1
		shift
		"$SCRIPTS_DIR/parse-console.sh" --runs "$log" x86_64 cores "$v${KERNEL_SUFFIX:-}" 1 >>"$d/runs.csv"
		"$SCRIPTS_DIR/parse-console.sh" --verdict "$log" x86_64 cores "$v${KERNEL_SUFFIX:-}" 1 >>"$d/verdicts.csv"
	done
}
# check_says [--status N] PATTERN LOG LOG LOG: report.sh --check exits N
# (default 1) and says PATTERN.
check_says() {
	local d=$TEST_TMP/check-$RANDOM status=1
	if [ "$1" = --status ]; then
		status=$2
		shift 2
	fi
	local want=$1
	shift
	results_dir "$d" "$@"
	fails_with "$status" "$want" "$SCRIPTS_DIR/report.sh" --check "$d"
}
check_passes() {
	local d=$TEST_TMP/check-ok
	results_dir "$d" x86_64-reference-pass.log x86_64-regressed-fail.log x86_64-fixed-pass.log
	"$SCRIPTS_DIR/report.sh" --check "$d" && [ -z "$("$SCRIPTS_DIR/report.sh" --check "$d")" ]
}
check "report --check: all verdicts as expected, exit 0" check_passes
check "report --check: a fixed kernel that fails is named" check_says \
	"^error: x86_64 cores fixed: the selftest failed on 1 of 1 boots; it must pass on every boot$" \
	x86_64-reference-pass.log x86_64-regressed-fail.log x86_64-regressed-fail.log
check "report --check: a regressed kernel that passes: this host cannot show it, exit 3" check_says \
	--status 3 "^cannot show it here: x86_64 cores: the regressed kernel passed the selftest on 1 of 1 boots, .* guest fork rate [0-9]* forks/s per CPU (reference [0-9]*)" \
	x86_64-reference-pass.log x86_64-fixed-pass.log x86_64-fixed-pass.log
check "report --check: a failing fixed kernel outweighs a regressed one that passes: exit 1" check_says \
	"^error: x86_64 cores fixed: the selftest failed on 1 of 1 boots" \
	x86_64-reference-pass.log x86_64-fixed-pass.log x86_64-regressed-fail.log
# A harness suffix adds a driver or counters, not a fix: regressed+dvfs
# must fail as regressed does, against reference+dvfs.
harness_suffix() {
	local d=$TEST_TMP/check-dvfs
	KERNEL_SUFFIX=+dvfs results_dir "$d" x86_64-reference-pass.log x86_64-regressed-fail.log x86_64-fixed-pass.log
	"$SCRIPTS_DIR/report.sh" --check "$d" && [ -z "$("$SCRIPTS_DIR/report.sh" --check "$d")" ] &&
		KERNEL_SUFFIX=+dvfs check_says --status 3 \
			"^cannot show it here: x86_64 cores: the regressed kernel passed .* (reference [0-9]*)" \
			x86_64-reference-pass.log x86_64-fixed-pass.log x86_64-fixed-pass.log
}
check "report --check: a kernel with a harness suffix (+dvfs) is judged as its base variant" harness_suffix
check "report --check: a splat is no verdict, named with its log" check_says \
	"^error: x86_64 cores fixed boot 1: no verdict (splat); console: logs/x86_64-cores-fixed-1.log$" \
	x86_64-reference-pass.log x86_64-regressed-fail.log x86_64-splat.log
figures_only() {
	local d=$TEST_TMP/check-figures
	results_dir "$d" x86_64-figures.log x86_64-figures.log x86_64-figures.log
	"$SCRIPTS_DIR/report.sh" --check "$d" && "$SCRIPTS_DIR/report.sh" "$d" | grep "figures only"
}
check "report --check: figures only (-s) are not judged" figures_only

table_from_fixtures() {
	local d=$TEST_TMP/results
	mkdir -p "$d"
	echo "arch,topology,kernel,boot,setup,round,loops_per_s,idle_pct,remote_pct" >"$d/runs.csv"
	echo "arch,topology,kernel,boot,placement,idle,throughput,test" >"$d/verdicts.csv"
	printf '%s\n' "x86_64,cores,reference,1,cgroup,1,100,0.1,0.2" \
		"x86_64,cores,reference,1,cgroup,2,300,0.3,0.4" \
		"x86_64,cores,reference,1,session,1,999,9,9" \
		"x86_64,cores,regressed,1,cgroup,1,150,12.0,40.0" >>"$d/runs.csv"
	printf '%s\n' "x86_64,cores,reference,1,ok,ok,ok,ok" \
		"x86_64,cores,regressed,1,fail,fail,ok,fail" >>"$d/verdicts.csv"
	"$SCRIPTS_DIR/report.sh" "$d" >"$TEST_TMP/table"
	grep -Eq '^x86_64 +cores +reference +200 \(100-300\) +0.20 +0.30  1/1 pass +1.00$' "$TEST_TMP/table" &&
		grep -Eq '^x86_64 +cores +regressed +150 \(150-150\) +12.00 +40.00  0/1 pass; 1 fail +0.75$' "$TEST_TMP/table"
}
check "the table: medians, ranges, pass counts, ratio to reference" table_from_fixtures

table_as_csv() {
	"$SCRIPTS_DIR/report.sh" --csv "$TEST_TMP/results" >"$TEST_TMP/results.csv"
	grep -qx 'x86_64,cores,reference,cgroup,1,1,200.0,100.0,300.0,0.20,0.30,1.00,1/1 pass' "$TEST_TMP/results.csv" &&
		grep -qx 'x86_64,cores,regressed,cgroup,1,0,150.0,150.0,150.0,12.00,40.00,0.75,0/1 pass; 1 fail' "$TEST_TMP/results.csv"
}
check "the table as CSV (results.csv)" table_as_csv

# fake_apt DIR: dpkg, apt-get and apt-cache as a machine sees them that
# lacks one package (cpio) and the armhf arch, has libssl-dev installed
# beside the config files of its i386 build, and whose apt-get update fails
# FAKE_UPDATE_FAILURES times (a mirror in its sync), and whose apt-cache
# knows a busybox-static of each arch when FAKE_CANDIDATE is yes.
fake_apt() {
	local dir=$1
	mkdir -p "$dir"
	cat >"$dir/dpkg-query" <<'FAKE'
#!/bin/bash
[ "$3" = cpio ] && [ ! -e "${0%/*}/installed" ] && exit 1
[ "$3" = libssl-dev ] && echo "deinstall ok config-files"
echo "install ok installed"
FAKE
	cat >"$dir/dpkg" <<'FAKE'
#!/bin/bash
case $1 in
--print-architecture) echo amd64 ;;
--print-foreign-architectures) printf 'arm64\ni386\n' ;;
--add-architecture) echo "$2" >>"${0%/*}/added" ;;
esac
FAKE
	cat >"$dir/apt-get" <<'FAKE'
#!/bin/bash
case $1 in
update)
	n=$(cat "${0%/*}/updates" 2>/dev/null || echo 0)
	echo $((n + 1)) >"${0%/*}/updates"
	[ "$n" -ge "$FAKE_UPDATE_FAILURES" ] && exit 0
	echo "E: Failed to fetch http://deb.debian.org/debian/dists/bookworm/main/binary-armhf/Packages.xz  File has unexpected size (1 != 2). Mirror sync in progress?"
	exit 100
	;;
install) echo "$@" >"${0%/*}/install-args" && touch "${0%/*}/installed" ;;
esac
FAKE
	cat >"$dir/apt-cache" <<'FAKE'
#!/bin/bash
[ "$FAKE_CANDIDATE" = yes ] && echo '  Candidate: 1:1.35.0-4+b3'
exit 0
FAKE
	printf '#!/bin/sh\necho 0\n' >"$dir/id"
	chmod +x "$dir"/*
}

install_deps_retries() {
	local d=$TEST_TMP/apt-retry
	fake_apt "$d"
	PATH=$d:$PATH INSTALL_DEPS_RETRY_DELAY=0 FAKE_UPDATE_FAILURES=2 FAKE_CANDIDATE=no "$SCRIPTS_DIR/install-deps.sh" 2>"$d/err" || { cat "$d/err"; return 1; }
	if ! grep -q 'attempt 2 of 4' "$d/err" || ! grep -qx 3 "$d/updates" || ! grep -qx armhf "$d/added" ||
		! grep -qx -- 'install -y -q --no-install-recommends cpio' "$d/install-args"; then
		cat "$d/err"
		return 1
	fi
}
check "install-deps.sh tries a failed apt-get update again (mirror sync)" install_deps_retries

install_deps_goes_on() {
	local d=$TEST_TMP/apt-stale
	fake_apt "$d"
	PATH=$d:$PATH INSTALL_DEPS_RETRY_DELAY=0 FAKE_UPDATE_FAILURES=9 FAKE_CANDIDATE=yes "$SCRIPTS_DIR/install-deps.sh" 2>"$d/err" || { cat "$d/err"; return 1; }
	if ! grep -q 'failed 4 times; going on' "$d/err" || ! grep -q 'cpio$' "$d/install-args"; then
		cat "$d/err"
		return 1
	fi
}
check "install-deps.sh goes on after four failed updates when apt knows every arch" install_deps_goes_on

fake_apt "$TEST_TMP/apt-none"
check "install-deps.sh names the arch apt has no index of" \
	fails_with 1 "no index of the arm64 packages" \
	env PATH="$TEST_TMP/apt-none:$PATH" INSTALL_DEPS_RETRY_DELAY=0 FAKE_UPDATE_FAILURES=9 FAKE_CANDIDATE=no \
	"$SCRIPTS_DIR/install-deps.sh"

check "bench.sh --mail-table of a directory without bench.csv is refused" \
	fails_with 2 "has no bench.csv" "$SCRIPTS_DIR/experiments/bench/bench.sh" --mail-table "$TEST_TMP"
mkdir -p "$TEST_TMP/run1" "$TEST_TMP/run2"
printf '%s\n' arch,kernel,boot,load,metric,value,unit x86_64,reference,1,pipe,round_trips,5,1/s |
	tee "$TEST_TMP/run1/bench.csv" >"$TEST_TMP/run2/bench.csv"
check "bench.sh --mail-table does not pool two runs of one arch" \
	fails_with 2 "both hold x86_64 runs" "$SCRIPTS_DIR/experiments/bench/bench.sh" --mail-table "$TEST_TMP/run1" "$TEST_TMP/run2"

check "a results directory without data is refused" \
	fails_with 2 "has no runs.csv" "$SCRIPTS_DIR/report.sh" "$TEST_TMP"

# make check's first step: a disk too full for the run is named before
# any test starts (here no filesystem has a million GiB free).
check "free-space.sh names the directory short of space, and takes a path not made yet" \
	fails_with 1 "$TEST_TMP/not/yet has .* GiB free; this run needs about 1048576 GiB there" \
	"$SCRIPTS_DIR/free-space.sh" 1048576 "$TEST_TMP/not/yet"
# 08 GiB: eight, not a bad octal number (make check needs 16 free anyway).
free_space_passes() {
	local out
	out=$("$SCRIPTS_DIR/free-space.sh" 08 "$TEST_TMP" 2>&1) || { echo "$out"; return 1; }
	echo "$out"
	[ -z "$out" ]
}
check "free-space.sh passes silently where there is room, and reads 08 as eight" free_space_passes

# early_exit_pipelines DIR: FILE:LINE of each pipeline in DIR's shell
# code (*.sh and any file whose #! names a shell, guest scripts too)
# that ends in a command that may stop reading before its input ends:
# grep -q, --quiet, --silent, -m N or --max-count, or head. The command
# before it then dies of SIGPIPE, and under pipefail a match reads as
# none; no exception, not even with "|| true": read a file or a variable
# instead (grep PATTERN FILE, <<<"$var", [[ $(cmd) == *text* ]]), or use
# grep -m N in place of grep | head -n N. A line ending in | or \
# continues the pipeline; comment lines are skipped.
early_exit_pipelines() {
	local files=() f first
	while IFS= read -r -d '' f; do
		case "$f" in
		*.sh) files+=("$f") ;;
		*)
			IFS= read -r first <"$f" || true
			[[ $first != '#!'*sh ]] || files+=("$f")
			;;
		esac
	done < <(find "$1" -type f -print0)
	awk '
		FNR == 1 { text = "" }
		/^[[:space:]]*#/ { next }
		{
			if (text == "") start = FNR
			text = text " " $0
			if ($0 ~ /(\||\\)[[:space:]]*$/) next
			if (text ~ /(^|[^|])\|[[:space:]]*(grep[^|;&)]*[[:space:]]-([A-Za-z]*[qm][A-Za-z0-9]*|-quiet|-silent|-max-count)([[:space:]=]|$)|head([[:space:]);]|$))/)
				print FILENAME ":" start ":" text
			text = ""
		}' "${files[@]}"
}
no_early_exit_pipelines() {
	local found copy=$TEST_TMP/pipelines
	found=$(early_exit_pipelines "$SCRIPTS_DIR") || return 1
	[ -z "$found" ] || { echo "$found"; return 1; }
	# The rule can fail: dvfs.sh's verdict as it was, a grep of its
	# table through a pipe, and a pipeline into head in a guest job.
	rm -rf "$copy"
	cp -r "$SCRIPTS_DIR" "$copy"
	printf '%s\n' 'v() {' '	if grep -v parallel t.txt |' '		grep -q -e missing; then return 1; fi' '}' \
		>>"$copy/experiments/dvfs/dvfs.sh"
	echo 'cat /proc/cmdline | head -n 1' >>"$copy/guest/init"
	found=$(early_exit_pipelines "$copy") || return 1
	echo "$found"
	grep -q '/experiments/dvfs/dvfs\.sh:[0-9]*:[[:space:]]*if grep -v parallel t\.txt |[[:space:]]*grep -q' <<<"$found" &&
		grep -q '/guest/init:[0-9]*:[[:space:]]*cat /proc/cmdline | head' <<<"$found" &&
		[ "$(wc -l <<<"$found")" -eq 2 ] && rm -rf "$copy"
}
check "no pipeline in scripts/ ends in grep -q, grep -m or head (SIGPIPE under pipefail)" no_early_exit_pipelines

# refused_before_build NAME PATTERN ARG...: the experiment NAME, run in
# the copy of tests/fakes.sh (builds and boots that take no time) with
# ARG, exits 2 with one line, PATTERN, and built nothing: a value the
# guests would refuse costs no kernel build.
refused_before_build() (
	local name=$1 pattern=$2
	shift 2
	TEST_TMP=$TEST_TMP/refused-$name
	mkdir -p "$TEST_TMP"
	# shellcheck source=tests/fakes.sh
	. "$PROJECT_DIR/tests/fakes.sh"
	export FAKE_QEMU=rc=0
	fails_with 2 "$pattern" "$PROJ/scripts/experiments/$name/$name.sh" --boots 1 "$@" \
		--out "$TEST_TMP/results" || return 1
	[ "$(wc -l <"$TEST_TMP/fail.out")" -eq 1 ] || { cat "$TEST_TMP/fail.out"; return 1; }
	[ ! -e "$BUILD_DIR" ] || { echo "built: $(ls "$BUILD_DIR")"; return 1; }
)
check "bench.sh --loads: a load guest/workloads.c lacks is refused before any build" refused_before_build bench \
	"^error: --loads: unknown load 'nosuch': expected any of: spawn pipe .* group-residue (see --help)$" \
	--loads "spawn nosuch"
check "dvfs.sh --loads: a load guest/workloads.c lacks is refused before any build" refused_before_build dvfs \
	"^error: --loads: unknown load 'foo': expected any of: spawn pipe .* group-residue (see --help)$" \
	--loads foo
check "cost.sh --functions: a function the cost job does not profile is refused before any build" \
	refused_before_build cost \
	"^error: --functions: unknown function 'nosuch_function': expected any of: sched_move_task .* (see --help)$" \
	--functions "sched_move_task nosuch_function"

[ "$TEST_FAILED" -eq 0 ]
