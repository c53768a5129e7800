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

The project's recorded runs are folders of $DATA_PATH/. The main branch
holds each one's README, tables and CSVs, and the console logs only of
the runs the tests replay ($DATA_PATH/README lists them); the branch
$LAB_BRANCH holds every run whole (logs/, *.log and what a boot leaves
beside its log: *.log.cmdline, *.log.qemu, ...) at the same paths. Its
commits are descendants of the main branch's, so a clone has them.

  keep RESULTS NAME  record a new run: the results directory RESULTS, whole,
                     becomes $DATA_PATH/NAME in a new commit of $LAB_BRANCH
                     (the working tree is not touched for it), and its files
                     other than console logs are copied to this working
                     tree's $DATA_PATH/NAME, to commit with the record
                     that cites them
  get NAME DIR       the run NAME whole, console logs too, into DIR (new or
                     empty), with the main branch's files of it where it
                     has them (a README corrected since): what a tool's
                     --table DIR judges again
  check              the main tree (git's index) holds console logs of the
                     runs the tests replay only, and every run of it is on
                     $LAB_BRANCH with the same tables and CSVs; exit 1
                     naming what is wrong

$LAB_BRANCH is the local branch, else origin's (a clone's). Exits 2 on
bad input, 1 when a check fails or git does.
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
	if git -C "$PROJECT_DIR" rev-parse -q --verify "refs/heads/$LAB_BRANCH" >/dev/null; then
		git -C "$PROJECT_DIR" update-ref "refs/heads/$LAB_BRANCH" "$commit" "$ref"
	else
		git -C "$PROJECT_DIR" update-ref "refs/heads/$LAB_BRANCH" "$commit" ""
	fi
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

# check: what the main tree holds of the recorded runs.
check() {
	local ref replayed bad=0
	replayed=" $(replayed_runs | tr '\n' ' ') "
	# One awk over the list, not a read loop, which bash makes a read
	# call per byte for: 0.4 s alone, 6.8 s under make check's tracer
	# while it stopped forked subshells at every call (deps-trace.sh).
	git -C "$PROJECT_DIR" ls-files -- "$DATA_PATH" |
		awk -v replayed="$replayed" -v branch="$LAB_BRANCH" "$CONSOLE_LOG_AWK"'
		{
			rel = $0
			sub(/^Documentation\/data\//, "", rel)
			if (rel !~ /\//) next
			run = rel
			sub(/\/.*/, "", run)
			if (index(replayed, " " run " ") || !console_log(substr(rel, length(run) + 2))) next
			if (++n <= 10) print "console log of a run no test replays, in the main tree: " $0
		}
		END {
			if (n) print n " such files: they belong on " branch " (scripts/evidence/lab-data.sh keep)"
			exit n > 0
		}' || bad=1
	ref=$(lab_ref)
	if [ -z "$ref" ]; then
		echo "no branch $LAB_BRANCH here: the runs' logs were not looked for"
		return 1
	fi
	# The main tree's tables and CSVs are lab-data's; a README may be
	# corrected on the main branch after its run, and a replayed run is
	# the main tree's own (its tests are).
	{
		git -C "$PROJECT_DIR" ls-tree -r "$ref" -- "$DATA_PATH" | sed 's/^/lab /'
		git -C "$PROJECT_DIR" ls-files -s -- "$DATA_PATH" | sed 's/^/main /'
	} | awk -F'\t' -v replayed="$replayed" '{ split($1, f, " ") }
		f[1] == "lab" { lab[$2] = f[4]; next }
		$2 ~ /^Documentation\/data\/[^\/]+\// {
			run = $2
			sub(/^Documentation\/data\//, "", run)
			sub(/\/.*/, "", run)
			if (index(replayed, " " run " ")) next
			if (!($2 in lab)) { print "not on lab-data: " $2; bad = 1 }
			else if (lab[$2] != f[3] && $2 !~ /\/README$/) { print "differs from lab-data: " $2; bad = 1 }
		}
		END { exit bad }' || bad=1
	[ "$bad" -eq 0 ] || return 1
	echo "the main tree's runs: $(git -C "$PROJECT_DIR" ls-files -- "$DATA_PATH" | wc -l) files, console logs of replayed runs only; lab-data $(git -C "$PROJECT_DIR" rev-parse --short "$ref") has every run whole"
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

run_main "$@"
