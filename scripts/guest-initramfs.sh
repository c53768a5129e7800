#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest's initramfs for one arch: static busybox, the selftest
# installed the kselftest way (built statically from the kselftest tree:
# the base with selftests/sched/ copied in), and the guests' code of
# scripts/guest/ and each experiment's guest/ folder (its C programs built
# statically) in /guest/. Prints its path.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] ARCH

Build build/guest/ARCH/initramfs.cpio.gz for ARCH ($ARCHES) and print
its path. busybox comes from Debian's busybox-static package (for another
arch than the host's, busybox-static of that arch's ARCH_DEBIAN
(scripts/arch/), downloaded with apt-get download).
USAGE
}

# Path of a static busybox for the arch: the host's own, or the package of
# the guest's arch unpacked (apt-get download needs that arch enabled in
# dpkg, which scripts/install-deps.sh does).
busybox_for() {
	local arch=$1 dir=$BUILD_DIR/guest/$1 deb darch
	darch=$(arch_field "$arch" ARCH_DEBIAN)
	if [ "$darch" = "$(dpkg --print-architecture)" ]; then
		[ -x /bin/busybox ] || die "/bin/busybox missing: apt-get install busybox-static"
		[[ $(file -L /bin/busybox) == *'statically linked'* ]] ||
			die "/bin/busybox is not static: apt-get install busybox-static"
		echo /bin/busybox
		return
	fi
	if [ ! -x "$dir/busybox-$darch/bin/busybox" ]; then
		log "fetching busybox-static:$darch"
		rm -rf "$dir/busybox-$darch" "$dir/deb"
		mkdir -p "$dir/deb"
		(cd "$dir/deb" && apt-get download -q "busybox-static:$darch" >/dev/null) ||
			die "apt-get download busybox-static:$darch failed (scripts/install-deps.sh enables $darch in dpkg)"
		deb=$(ls "$dir"/deb/busybox-static_*_"$darch".deb)
		dpkg-deb -x "$deb" "$dir/busybox-$darch"
	fi
	echo "$dir/busybox-$darch/bin/busybox"
}

# cpio_list ROOT: the gen_init_cpio list (usr/gen_init_cpio.c) of what is
# below ROOT, parents first, all owned by root, plus /dev/console, which
# the kernel opens for init before devtmpfs is mounted.
cpio_list() {
	(cd "$1" && find . -mindepth 1 -printf '%y %P %m %l\n' | LC_ALL=C sort -k2,2) |
		awk -v root="$1" '
			$1 == "d" { printf "dir /%s %s 0 0\n", $2, $3 }
			$1 == "f" { printf "file /%s %s/%s %s 0 0\n", $2, root, $2, $3 }
			$1 == "l" { printf "slink /%s %s %s 0 0\n", $2, $4, $3 }'
	echo "nod /dev/console 0600 0 0 c 5 1"
}

main() {
	case "${1:-}" in
	-h | --help) usage; exit 0 ;;
	"") usage >&2; exit 2 ;;
	esac
	[ $# -eq 1 ] || usage_error "one arch expected, got: $*"
	local arch=$1 dir wt cross karch root busybox out prog name
	check_arch "$arch"
	cross=$(arch_field "$arch" ARCH_CROSS_COMPILE)
	need_cmds make gcc "${cross}gcc" gzip file
	karch=$(arch_field "$arch" ARCH_KERNEL)
	dir=$BUILD_DIR/guest/$arch
	mkdir -p "$dir"
	busybox=$(busybox_for "$arch")
	wt=$("$SCRIPTS_DIR/kernel-tree.sh" kselftest)

	log "building the sched selftests for $arch (static)"
	root=$dir/root.tmp
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp" \
		"$root/usr/bin" "$root/sbin" "$root/usr/sbin" "$root/guest"
	if ! make -C "$wt/tools/testing/selftests" TARGETS=sched ARCH="$karch" \
		CROSS_COMPILE="$cross" O="$dir/kselftest-build" LDFLAGS=-static \
		INSTALL_PATH="$root/kselftest" install >"$dir/selftest-build.log" 2>&1; then
		tail -n 20 "$dir/selftest-build.log" >&2
		die "selftest build failed; log: $dir/selftest-build.log"
	fi
	[[ $(file "$root/kselftest/sched/fork_placement_test") == *'statically linked'* ]] ||
		die "fork_placement_test is not statically linked"
	# guest_util.h, which every program includes, is in scripts/guest/.
	while read -r prog; do
		name=$(basename "$prog" .c)
		if ! "${cross}gcc" -static -O2 -Wall -pthread -I"$SCRIPTS_DIR/guest" \
			-o "$root/guest/$name" "$prog" >>"$dir/selftest-build.log" 2>&1; then
			tail -n 20 "$dir/selftest-build.log" >&2
			die "$name build failed; log: $dir/selftest-build.log"
		fi
	done < <(guest_code c)
	cp "$busybox" "$root/bin/busybox"
	cp "$SCRIPTS_DIR/guest/init" "$root/init"
	guest_code sh | xargs -d '\n' cp -t "$root/guest/"
	# The kernel's own cpio writer: every entry owned by root and the
	# console node written into the archive, so that no step needs root
	# (mknod, chown).
	gcc -O2 -o "$dir/gen_init_cpio" "$wt/usr/gen_init_cpio.c"
	cpio_list "$root" >"$dir/cpio_list"
	out=$dir/initramfs.cpio.gz
	"$dir/gen_init_cpio" "$dir/cpio_list" | gzip -1 >"$out.tmp"
	mv "$out.tmp" "$out"
	rm -rf "$root"
	log "initramfs $out ($(du -h "$out" | cut -f1))"
	echo "$out"
}

run_main "$@"
