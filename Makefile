# SPDX-License-Identifier: GPL-2.0
# Entry points; each installs the Debian packages it needs first.
#   make verify   build, boot and measure reference/regressed/fixed kernels
#   make check    check-fast and check-e2e in one run under the proof of
#                 the package list (tests/99): what .ci/run runs
#   make check-fast  the tests that build and boot no kernel (tests/1*.t:
#                 the scripts, signals, recorded logs replayed, guest
#                 tools), one per CPU, in about a minute: before each commit
#   make check-e2e   the end-to-end tests (tests/[2-9]*.t: the series,
#                 the selftest on this host, one arch's kernels built and
#                 booted), under the same proof
#   make check-arches  the other arches' kernels built and booted, end to
#                 end (tests/41) and 32-bit (tests/45), under a proof of
#                 their own; not in .ci/run (its 30 minutes)
#   make stress   debug kernels (lockdep, KASAN, ...) under
#                 scripts/experiments/stress/stress.sh: forks, exits,
#                 group/class/CPU changes, throttling, then no PELT leak
#                 (STRESS_ARGS="--minutes 10 --boots 2")
#   make bench    other workloads and schedutil's utilization on every
#                 kernel, scripts/experiments/bench/bench.sh
#                 (BENCH_ARGS="--boots 5")
#   make dvfs     schedutil on an emulated DVFS clock: the validation, then
#                 the loads per policy shape, scripts/experiments/dvfs/dvfs.sh
#                 (DVFS_ARGS="--boots 3 --policies remote")
#   make patches  regenerate the series of the current source (patches/6.12.y
#                 for Debian's tree) signed with your git identity
#   make send     the mail of a series from you, shown by git send-email
#                 --dry-run (SEND_ARGS="patches/mainline-fixes", the default,
#                 which needs KERNEL_SRC=<v7.1.5 tree>; add --send
#                 to send), scripts/posting/send-series.sh
#   make clean    remove build/ (trees, kernels, guests); results/ stays
#   make distclean  remove build/ and results/ (the measurements too)

VERIFY_ARGS ?=
STRESS_ARGS ?=
BENCH_ARGS ?=
DVFS_ARGS ?=
# The series to post first (patches/README, "The order of posting").
SEND_ARGS ?= patches/mainline-fixes
PROVE ?= prove

.PHONY: all deps verify check check-fast check-e2e check-arches stress bench dvfs patches send clean distclean help

all: help

help:
	@sed -n 's/^#   //p' Makefile

deps:
	@scripts/install-deps.sh

verify: deps
	scripts/verify.sh $(VERIFY_ARGS)

stress: deps
	scripts/experiments/stress/stress.sh $(STRESS_ARGS)

bench: deps
	scripts/experiments/bench/bench.sh $(BENCH_ARGS)

dvfs: deps
	scripts/experiments/dvfs/dvfs.sh $(DVFS_ARGS)

# make check runs with Debian's default PATH, as a fresh machine's root
# has, and under scripts/deps/deps-trace.sh: tests/99-deps.t then checks
# that every program and file the tests used comes from install-deps.sh.
DEBIAN_PATH := /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# A full disk half-way fails a dozen tests for one cause; make check took
# 12.2 GiB on a new machine (Documentation/data/make-check-fresh-2026-12-06/),
# 14.3 GiB of build/ with the 32-bit wrap kernels
# (Documentation/data/make-check-2026-12-06-32bit/).
CHECK_FREE_GIB := 20

# The longest first (tests/14, the replays), so that one CPU runs it while
# the other runs the rest: prove -j starts them in this order.
FAST_TESTS := tests/14-replay.t $(filter-out tests/14-replay.t,$(sort $(wildcard tests/1[0-9]-*.t)))
# make check builds and boots one arch's kernels (tests/40, the ones
# tests/50 boots too): each arch's cold build is 6 to 9 minutes of a new
# machine's 30 (Documentation/data/ci-cold-2026-12-07-trace-forks/).
# make check-arches runs tests/40 on the other 64-bit arch (tests/41) and
# the 32-bit tests.
ARCHES_TESTS := tests/41-e2e-second-arch.t tests/45-32bit.t
E2E_TESTS := $(filter-out $(ARCHES_TESTS),$(sort $(wildcard tests/[2-9][0-9]-*.t)))

# The fast tests' programs are traced, not their opens: they read the
# project's files and recorded logs through fakes, which the trace of
# every open made four to ten times as slow (tests/14: 5 min 36 s of a
# fresh machine's make check, Documentation/data/ci-fresh-2026-12-06-per-check/).
# One per CPU, as check-fast runs them (prove -v prints each file's
# lines together when it ends).
check: deps
	scripts/free-space.sh $(CHECK_FREE_GIB) build "$${TMPDIR:-/tmp}"
	PATH=$(DEBIAN_PATH) scripts/deps/deps-trace.sh --programs-only -o build/deps-trace.txt -- \
		$(PROVE) -v -j$$(nproc) --timer $(FAST_TESTS)
	PATH=$(DEBIAN_PATH) scripts/deps/deps-trace.sh --append -o build/deps-trace.txt -- \
		$(PROVE) -v --timer $(E2E_TESTS)

# The fast tests are independent (each its own directory, lock and fake
# QEMU): one per CPU.
check-fast: deps
	$(PROVE) -j$$(nproc) --timer $(FAST_TESTS)

# tests/99-deps.t, last, checks what the tests before it used.
check-e2e: deps
	scripts/free-space.sh $(CHECK_FREE_GIB) build "$${TMPDIR:-/tmp}"
	PATH=$(DEBIAN_PATH) scripts/deps/deps-trace.sh -o build/deps-trace.txt -- $(PROVE) -v --timer $(E2E_TESTS)

# Its own trace, checked by tests/99 as make check's is: the other
# arches' packages are used here.
check-arches: deps
	scripts/free-space.sh $(CHECK_FREE_GIB) build "$${TMPDIR:-/tmp}"
	PATH=$(DEBIAN_PATH) scripts/deps/deps-trace.sh -o build/deps-trace-arches.txt -- \
		$(PROVE) -v --timer $(ARCHES_TESTS) tests/99-deps.t

patches: deps
	scripts/posting/make-series.sh

send: deps
	scripts/posting/send-series.sh $(SEND_ARGS)

# results/ holds measurements, which a rebuild cannot bring back.
clean:
	rm -rf build

distclean: clean
	@echo "removing results/ (every measurement of the scripts)"
	rm -rf results
