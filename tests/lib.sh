# shellcheck shell=bash disable=SC2034 # the variables are for the tests that source it
# SPDX-License-Identifier: GPL-2.0
# TAP helpers for the tests (sourced). Each test file sets a plan with
# plan N and reports with ok/not_ok/check.
set -euo pipefail
PROJECT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCRIPTS_DIR=$PROJECT_DIR/scripts
TEST_NR=0
TEST_FAILED=0

plan() { echo "1..$1"; }

# check DESCRIPTION COMMAND...: ok when COMMAND succeeds.
check() {
	local desc=$1 start=$SECONDS
	shift
	TEST_NR=$((TEST_NR + 1))
	if "$@" >"$TEST_TMP/out" 2>&1; then
		echo "ok $TEST_NR - $desc"
	else
		echo "not ok $TEST_NR - $desc"
		sed 's/^/# /' "$TEST_TMP/out" | tail -n 30
		TEST_FAILED=$((TEST_FAILED + 1))
	fi
	# What each check costs, for keeping make check inside CI's time.
	echo "# took $((SECONDS - start)) s"
}

skip_test() {
	TEST_NR=$((TEST_NR + 1))
	echo "ok $TEST_NR - $1 # SKIP $2"
}

# fails_with STATUS PATTERN COMMAND...: COMMAND exits STATUS and says PATTERN.
fails_with() {
	local want=$1 pattern=$2 rc=0
	shift 2
	"$@" >"$TEST_TMP/fail.out" 2>&1 || rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "exit $rc, expected $want"
		cat "$TEST_TMP/fail.out"
		return 1
	fi
	grep -q -- "$pattern" "$TEST_TMP/fail.out" || {
		echo "output lacks '$pattern':"
		cat "$TEST_TMP/fail.out"
		return 1
	}
}

TEST_TMP=$(mktemp -d)
# TEST_KEEP=DIR keeps a test's files (the guests' console logs) there.
trap 'if [ -n "${TEST_KEEP:-}" ]; then mkdir -p "$TEST_KEEP" && cp -r "$TEST_TMP/." "$TEST_KEEP/"; fi
	rm -rf "$TEST_TMP"' EXIT

# sparse_worktree REPO DIR COMMIT PATCH...: a worktree of REPO at COMMIT
# in DIR with only the files the patches touch checked out, where git am
# of them works as in a full one, in a second instead of a kernel tree's
# half minute. Remove it with git -C REPO worktree remove --force DIR.
sparse_worktree() {
	local repo=$1 dir=$2 commit=$3 paths
	shift 3
	mapfile -t paths < <(sed -n 's|^diff --git a/\([^ ]*\) b/.*|/\1|p' "$@" | sort -u)
	git -C "$repo" worktree add -q --no-checkout --detach "$dir" "$commit" &&
		git -C "$dir" sparse-checkout set --no-cone "${paths[@]}" &&
		git -C "$dir" checkout -q
}
