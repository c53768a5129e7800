#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Where a recorded run's console logs live: the main branch keeps of each
# run in Documentation/data/ what its figures were made into (README,
# tables, CSVs) and the whole of the runs the tests replay; the branch
# lab-data keeps every run whole, at the same paths.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/..
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

LAB_BRANCH=lab-data
DATA_PATH=Documentation/data

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] keep RESULTS NAME | get NAME DIR | check

The recorded runs, $DATA_PATH/NAME: the main branch holds their READMEs,
tables and CSVs (and the console logs of the runs the tests replay),
the branch $LAB_BRANCH every run whole (Documentation/data/README).
  keep RESULTS NAME  a new run: RESULTS whole into a commit of $LAB_BRANCH,
                     its files but the console logs into $DATA_PATH/NAME here
  get NAME DIR       the run whole into DIR, for a tool's --table DIR
  check              console logs here of replayed runs only, every run on
                     $LAB_BRANCH with the same tables and CSVs
Exits 2 on bad input, 1 when a check fails or git does.
USAGE
}

# An awk function: is the path REL, relative to its run's folder, raw
# console output? The one definition, for keep and check.
CONSOLE_LOG_AWK='function console_log(rel) { return ("/" rel) ~ /\/logs\// || rel ~ /\.log(\.[^\/]*)?$/ }'

# lab_ref: the commit of $LAB_BRANCH, local or origin's; empty without one.
lab_ref() {
	git -C "$PROJECT_DIR" rev-parse -q --verify "refs/heads/$LAB_BRANCH^{commit}" ||
		git -C "$PROJECT_DIR" rev-parse -q --verify "refs/remotes/origin/$LAB_BRANCH^{commit}" ||
		true
}

need_lab_ref() {
	local ref
	ref=$(lab_ref)
	[ -n "$ref" ] || die "no branch $LAB_BRANCH here (nor origin's): git fetch origin $LAB_BRANCH:$LAB_BRANCH"
	echo "$ref"
}

# replayed_runs: the runs the tests replay, as $DATA_PATH/README lists them.
replayed_runs() {
	sed -n 's/^  \([A-Za-z0-9._+-]*\)  .*tests\/.*/\1/p' "$PROJECT_DIR/$DATA_PATH/README"
}

check_name() {
	[[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9._+-]*$ ]] || usage_error "run name '$1': letters, digits and ._+- only"
}

keep() {
	local results=$1 name=$2 ref index rel mode blob tree commit
	[ -d "$results" ] || usage_error "no directory $results"
	check_name "$name"
	ref=$(need_lab_ref)
	if [ -n "$(git -C "$PROJECT_DIR" ls-tree "$ref" "$DATA_PATH/$name")" ] ||
		[ -e "$PROJECT_DIR/$DATA_PATH/$name" ]; then
		usage_error "$DATA_PATH/$name exists already"
	fi
	[ -z "$(find "$results" ! -type f ! -type d -print -quit)" ] ||
		usage_error "$results holds something other than files and directories"
	[ -n "$(find "$results" -type f -print -quit)" ] || usage_error "$results holds no file"
	results=$(cd "$results" && pwd)
	index=$(mktemp)
	GIT_INDEX_FILE=$index git -C "$PROJECT_DIR" read-tree "$ref"
	log "$name: $(find "$results" -type f | wc -l) files into $LAB_BRANCH"
	while IFS= read -r -d '' rel; do
		mode=100644
		[ ! -x "$results/$rel" ] || mode=100755
		blob=$(git -C "$PROJECT_DIR" hash-object -w -- "$results/$rel")
		printf '%s %s\t%s\0' "$mode" "$blob" "$DATA_PATH/$name/$rel"
	done < <(cd "$results" && find . -type f -printf '%P\0' | sort -z) |
		GIT_INDEX_FILE=$index git -C "$PROJECT_DIR" update-index -z --add --index-info
	tree=$(GIT_INDEX_FILE=$index git -C "$PROJECT_DIR" write-tree)
	commit=$(git -C "$PROJECT_DIR" commit-tree "$tree" -p "$ref" \
		-m "$DATA_PATH: $name, whole" -m "Recorded by scripts/evidence/lab-data.sh keep.")
	# From origin's alone, the local branch must not exist yet ("").
	git -C "$PROJECT_DIR" update-ref "refs/heads/$LAB_BRANCH" "$commit" \
		"$(git -C "$PROJECT_DIR" rev-parse -q --verify "refs/heads/$LAB_BRANCH" || true)"
	mkdir -p "$PROJECT_DIR/$DATA_PATH/$name"
	(cd "$results" && find . -type f -printf '%P\n' | awk "$CONSOLE_LOG_AWK"' !console_log($0)' |
		xargs -r -d '\n' cp -p --parents -t "$PROJECT_DIR/$DATA_PATH/$name")
	rm -f "$index"
	log "$LAB_BRANCH is $(git -C "$PROJECT_DIR" rev-parse --short "$commit"); $DATA_PATH/$name has the rest, to commit"
}

get() {
	local name=$1 dir=$2 ref
	check_name "$name"
	[ ! -e "$dir" ] || [ -z "$(ls -A "$dir")" ] || usage_error "$dir is not empty"
	ref=$(need_lab_ref)
	[ -n "$(git -C "$PROJECT_DIR" ls-tree "$ref" "$DATA_PATH/$name/")" ] ||
		usage_error "no run $name on $LAB_BRANCH"
	mkdir -p "$dir"
	git -C "$PROJECT_DIR" archive --format=tar "$ref" "$DATA_PATH/$name/" |
		tar -x -C "$dir" --strip-components=3
	# A README corrected on the main branch since: its form, not lab-data's.
	if [ -n "$(git -C "$PROJECT_DIR" ls-tree HEAD "$DATA_PATH/$name/")" ]; then
		git -C "$PROJECT_DIR" archive --format=tar HEAD "$DATA_PATH/$name/" |
			tar -x -C "$dir" --strip-components=3
	fi
	log "$name: $(find "$dir" -type f | wc -l) files in $dir"
}

# check: what the main tree holds of the recorded runs. One awk over the
# two lists, not a shell loop: bash's read makes a call per byte, and
# each cost a stop under make check's tracer while it stopped forked
# subshells at every call (0.4 s alone, 6.8 s traced; deps-trace.sh).
check() {
	local ref replayed
	replayed=" $(replayed_runs | tr '\n' ' ') "
	ref=$(lab_ref)
	# A replayed run is the main tree's own (its tests are). Of the
	# others, console logs belong on lab-data only, and the main tree's
	# tables and CSVs are lab-data's; a README may be corrected on the
	# main branch after its run.
	{
		[ -z "$ref" ] || git -C "$PROJECT_DIR" ls-tree -r "$ref" -- "$DATA_PATH" | sed 's/^/lab /'
		git -C "$PROJECT_DIR" ls-files -s -- "$DATA_PATH" | sed 's/^/main /'
	} | awk -F'\t' -v replayed="$replayed" -v branch="$LAB_BRANCH" -v data="$DATA_PATH/" \
		-v lab_ref="$ref" "$CONSOLE_LOG_AWK"'
		{ split($1, f, " ") }
		f[1] == "lab" { lab[$2] = f[4]; next }
		{ files++ }
		index($2, data) != 1 { next }
		{
			rel = substr($2, length(data) + 1)
			if (rel !~ /\//) next
			run = rel
			sub(/\/.*/, "", run)
			if (index(replayed, " " run " ")) next
		}
		console_log(substr(rel, length(run) + 2)) {
			if (++logs <= 10) print "console log of a run no test replays, in the main tree: " $2
			next
		}
		lab_ref == "" { next }
		!($2 in lab) { print "not on " branch ": " $2; bad = 1; next }
		lab[$2] != f[3] && $2 !~ /\/README$/ { print "differs from " branch ": " $2; bad = 1 }
		END {
			if (logs) print logs " such files: they belong on " branch " (scripts/evidence/lab-data.sh keep)"
			if (lab_ref == "") print "no branch " branch " here: the runs\047 logs were not looked for"
			if (logs || bad || lab_ref == "") exit 1
			printf "the main tree\047s runs: %d files, console logs of replayed runs only; %s %s has every run whole\n",
				files, branch, substr(lab_ref, 1, 7)
		}'
}

main() {
	[ $# -gt 0 ] || usage_error "a command is needed: keep, get or check"
	case "$1" in
	-h | --help) usage; exit 0 ;;
	keep) [ $# -eq 3 ] || usage_error "keep takes RESULTS NAME"; keep "$2" "$3" ;;
	get) [ $# -eq 3 ] || usage_error "get takes NAME DIR"; get "$2" "$3" ;;
	check) [ $# -eq 1 ] || usage_error "check takes no argument"; check ;;
	*) usage_error "unknown command $1" ;;
	esac
}

# Sourcing (for tests) defines the functions without running main.
[ "${BASH_SOURCE[0]}" != "$0" ] || run_main "$@"
