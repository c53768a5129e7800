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
	local desc=$1
	shift
	TEST_NR=$((TEST_NR + 1))
	if "$@" >"$TEST_TMP/out" 2>&1; then
		echo "ok $TEST_NR - $desc"
	else
		echo "not ok $TEST_NR - $desc"
		sed 's/^/# /' "$TEST_TMP/out" | tail -n 30
		TEST_FAILED=$((TEST_FAILED + 1))
	fi
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
trap 'rm -rf "$TEST_TMP"' EXIT
