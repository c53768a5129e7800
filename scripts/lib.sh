# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source it
# SPDX-License-Identifier: GPL-2.0
# Shared by every script in scripts/: paths and constants; the functions,
# by concern, are in scripts/lib/. Sourced, never run.

# set -e holds inside $(...) too: bash turns it off there by default, so
# a function run for its output (repo=$(source_repo)) would go on past
# its first failed command and hand a half-made result to its caller.
shopt -s inherit_errexit

# Without dirname: every script sources this, and a program run costs.
PROJECT_DIR=${BASH_SOURCE[0]%/*}
[ "$PROJECT_DIR" != "${BASH_SOURCE[0]}" ] || PROJECT_DIR=.
PROJECT_DIR=$(cd "$PROJECT_DIR/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$PROJECT_DIR/build}
SCRIPTS_DIR=$PROJECT_DIR/scripts
# One clock for a whole run, so nested scripts print the same elapsed time.
[ -n "${FORK_REGRESSION_T0:-}" ] || printf -v FORK_REGRESSION_T0 '%(%s)T' -1
export FORK_REGRESSION_T0
VARIANTS="reference regressed fixed"
# The default source of the kernel trees (kernel-tree.sh); DEBIAN_TARBALL=F
# is a tarball of the same form instead (the tests' tiny one).
DEBIAN_TARBALL=${DEBIAN_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
# Not a default variant: the base plus the standalone fixes of bugs in
# released kernels that the rest of the mainline work goes on top of.
BUGFIX_SERIES=$PROJECT_DIR/patches/mainline-fixes
# The selftests' own series, for the kselftest tree: its guests run the
# scheduler's tests the way the default kselftest run will.
KSELFTEST_SERIES=$PROJECT_DIR/patches/kselftest
# The default guests (topologies cores and smt) have this many vCPUs:
# never more than the host's cores. Every guest has this much memory.
GUEST_VCPUS=2
GUEST_MEMORY_MB=1024
# Held by every kernel build and every guest: on a 2-core host a guest
# measures nothing while anything else runs. Other tools can take it too
# (flock "$MACHINE_LOCK" CMD).
MACHINE_LOCK=${FORK_REGRESSION_LOCK:-/tmp/fork-regression.machine.lock}

# The functions, by concern (scripts/lib/).
# shellcheck source=lib/cli.sh
. "$SCRIPTS_DIR/lib/cli.sh"
# ARCHES, DEFAULT_ARCHES and each arch's record (scripts/arch/).
# shellcheck source=lib/arch.sh
. "$SCRIPTS_DIR/lib/arch.sh"
# shellcheck source=lib/lock.sh
. "$SCRIPTS_DIR/lib/lock.sh"
# shellcheck source=lib/series.sh
. "$SCRIPTS_DIR/lib/series.sh"
# shellcheck source=lib/guest.sh
. "$SCRIPTS_DIR/lib/guest.sh"
# shellcheck source=lib/experiment.sh
. "$SCRIPTS_DIR/lib/experiment.sh"
# shellcheck source=lib/tap.sh
. "$SCRIPTS_DIR/lib/tap.sh"
# shellcheck source=lib/trace.sh
. "$SCRIPTS_DIR/lib/trace.sh"
