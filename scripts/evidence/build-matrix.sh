#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the regressed and fixed kernels with W=1 in several configs and
# compare the warnings of kernel/sched/, the only directory the series
# changes in the kernel.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/..
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

CONFIGS="main no-autogroup no-fair-group-sched no-cgroup-sched no-smp cfs-bandwidth"

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] [--arch "A..."] [--configs "C..."] [--out DIR]

For each arch (default: "$DEFAULT_ARCHES"; any of "$ARCHES")
and config (default: "$CONFIGS"; no-smp only on
$(arches_text ARCH_CONFIGS no-smp), where scripts/arch/ARCH.sh's
ARCH_CONFIGS names it), build regressed and fixed
with W=1: the whole kernel image for "main" (the guest config), the
kernel/sched/ objects for the others (scripts/config/<config>.config on
top of the guest config). kernel/sched/ is always compiled afresh so its
warnings are all in the log. Fails on any build error, or when the fixed
kernel has a kernel/sched/ warning the regressed one has not.
USAGE
}

# sched_warnings LOG: the kernel/sched/ warnings of a build log, without
# line numbers, so that moved code does not count as new.
sched_warnings() {
	grep -E '^\.\./kernel/sched/[^:]+:[0-9]+:[0-9]+: (warning|error):' "$1" |
		sed -E 's/:[0-9]+:[0-9]+:/:/' | sort -u || true
}

main() {
	local arches=$DEFAULT_ARCHES configs=$CONFIGS out="" arch cfg v target extra out_dir
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--arch) arches=${2:-}; shift 2 || usage_error "--arch needs a value" ;;
		--configs) configs=${2:-}; shift 2 || usage_error "--configs needs a value" ;;
		--out) out=${2:-}; shift 2 || usage_error "--out needs a value" ;;
		*) usage_error "unknown argument $1" ;;
		esac
	done
	for arch in $arches; do check_arch "$arch"; done
	for cfg in $configs; do
		[ "$cfg" = main ] || [ -f "$SCRIPTS_DIR/config/$cfg.config" ] ||
			usage_error "unknown config '$cfg': no scripts/config/$cfg.config"
	done
	[ -n "$out" ] || out=$PROJECT_DIR/results/build-matrix-$(date +%Y%m%d-%H%M%S)
	mkdir -p "$out"
	printf '%-7s %-20s %-13s %9s %9s %s\n' arch config built \
		"regressed" "fixed" "new in fixed" >"$out/table.txt"
	for arch in $arches; do
		for cfg in $configs; do
			# An optional fragment one arch's record names is for
			# the arches that name it only.
			[ -z "$(arches_where ARCH_CONFIGS "$cfg")" ] || arch_has "$arch" ARCH_CONFIGS "$cfg" ||
				continue
			extra=()
			target=$(basename "$(arch_field "$arch" ARCH_IMAGE)")
			if [ "$cfg" != main ]; then
				extra=(--extra-config "$SCRIPTS_DIR/config/$cfg.config")
				target=kernel/sched/
			fi
			for v in regressed fixed; do
				W=1 "$SCRIPTS_DIR/kernel-build.sh" "${extra[@]}" --target "$target" "$arch" "$v" >/dev/null
				out_dir=$(W=1 "$SCRIPTS_DIR/kernel-build.sh" "${extra[@]}" --target prepare "$arch" "$v")
				rm -f "$out_dir"/kernel/sched/*.o
				W=1 "$SCRIPTS_DIR/kernel-build.sh" "${extra[@]}" --target kernel/sched/ "$arch" "$v" >/dev/null
				sched_warnings "$out_dir/build.log" >"$out/$arch-$cfg-$v.warnings"
			done
			comm -13 "$out/$arch-$cfg-regressed.warnings" "$out/$arch-$cfg-fixed.warnings" \
				>"$out/$arch-$cfg-new.warnings"
			printf '%-7s %-20s %-13s %9d %9d %d\n' "$arch" "$cfg" "$target" \
				"$(wc -l <"$out/$arch-$cfg-regressed.warnings")" \
				"$(wc -l <"$out/$arch-$cfg-fixed.warnings")" \
				"$(wc -l <"$out/$arch-$cfg-new.warnings")" >>"$out/table.txt"
		done
	done
	cat "$out/table.txt"
	if grep -q . "$out"/*-new.warnings; then
		cat "$out"/*-new.warnings >&2
		die "the fixed kernel has new kernel/sched/ warnings (see $out)"
	fi
}

run_main "$@"
