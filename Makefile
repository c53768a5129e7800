# SPDX-License-Identifier: GPL-2.0
# Entry points; each installs the Debian packages it needs first.
#   make verify   build, boot and measure reference/regressed/fixed kernels
#   make check    the project's tests (TAP, run by prove)
#   make patches  regenerate patches/ signed with your git identity

VERIFY_ARGS ?=
PROVE ?= prove

.PHONY: all deps verify check patches clean help

all: help

help:
	@sed -n 's/^#   //p' Makefile

deps:
	@scripts/install-deps.sh

verify: deps
	scripts/verify.sh $(VERIFY_ARGS)

check: deps
	$(PROVE) -v tests/

patches: deps
	scripts/make-series.sh

clean:
	rm -rf build results
