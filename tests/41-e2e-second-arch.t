#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/40-e2e.t on x86_64, the report's other arch, for make
# check-arches: make check runs it on arm64 alone, since each arch's cold
# kernel build is 6 to 9 minutes of CI's 30
# (Documentation/data/ci-cold-2026-12-07-trace-forks/).
E2E_ARCH=x86_64 exec "$(dirname "$0")/40-e2e.t"
