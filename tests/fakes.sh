# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# A copy of the project whose kernel builds and initramfs are fakes, and
# a fake QEMU, make and git clone first in PATH: the harness's own logic
# end to end without a kernel or a guest (sourced by tests after lib.sh).
#
# The fakes record their pid in FAKE_DIR/NAME.pids, QEMU also its
# parent's command line (timeout's) in FAKE_DIR/qemu.parents. FAKE_QEMU:
#   hang        sleep as a guest that runs long
#   rc=N        a finished TAP job ("ok 1 fake") that ended with status N
#   replay      write the console log recorded under the same name in the
#               first directory of FAKE_REPLAY ("DIR...") that has it, or
#               has it in DIR/SHAPE/logs/ for a log in .../SHAPE/logs/
#               (dvfs.sh's policy shapes): a recorded run, replayed boot
#               by boot; the Nth boot into one log takes NAME.tryN
#               instead where a directory has it (a boot tried again)
# FAKE_BUILD=fail makes the fake kernel-build.sh fail. make's FAKE_MAKE: hang (sleep as a build does) or fail; compile-hangs
# and compile-fails do so only in the compile, after make prepare scripts.
PROJ=$TEST_TMP/project
FAKE=$TEST_TMP/fake
mkdir -p "$PROJ" "$FAKE/bin"
cp -r "$SCRIPTS_DIR" "$PROJECT_DIR/Makefile" "$PROJECT_DIR/selftests" "$PROJ/"
export FORK_REGRESSION_LOCK=$TEST_TMP/machine.lock BUILD_DIR=$TEST_TMP/build FAKE_DIR=$FAKE
unset FORK_REGRESSION_LOCKED FORK_REGRESSION_T0 FORK_REGRESSION_RUNS

cat >"$FAKE/bin/qemu" <<'FAKE_QEMU'
#!/bin/bash
# guest-boot.sh's probe under make check (-S, quit through QMP on stdin)
# starts no guest: it quits as QEMU does, and is not counted.
case " $* " in *" -S "*) cat >/dev/null; exit 0 ;; esac
echo $$ >>"$FAKE_DIR/qemu.pids"
ps -o args= -p "$PPID" >>"$FAKE_DIR/qemu.parents"
log=
for a in "$@"; do case "$a" in file:*) log=${a#file:} ;; esac; done
case "${FAKE_QEMU:-hang}" in
hang) exec sleep 600 ;;
rc=*)
	printf '%s\r\n' "@@@ guest-begin" "TAP version 13" "1..1" "ok 1 fake" \
		"@@@ guest-end ${FAKE_QEMU}" >"$log"
	;;
replay)
	shape=$(basename "$(dirname "$(dirname "$log")")")
	echo "$log" >>"$FAKE_DIR/qemu.logs"
	try=$(grep -cxF -- "$log" "$FAKE_DIR/qemu.logs")
	for d in $FAKE_REPLAY; do
		for f in "$d/$(basename "$log").try$try" "$d/$(basename "$log")" "$d/$shape/logs/$(basename "$log")"; do
			if [ -f "$f" ]; then
				cp "$f" "$log"
				exit 0
			fi
		done
	done
	echo "fake qemu: no recorded $(basename "$log") in $FAKE_REPLAY" >&2
	exit 1
	;;
esac
FAKE_QEMU
for q in x86_64 aarch64 i386 arm; do ln -s qemu "$FAKE/bin/qemu-system-$q"; done
cat >"$FAKE/bin/make" <<'FAKE_MAKE'
#!/bin/bash
# compile-*: the steps before the compile (make prepare scripts) pass.
case "${FAKE_MAKE:-hang}" in
compile-*) case " $* " in *" prepare scripts "*) exit 0 ;; esac ;;
esac
echo $$ >>"$FAKE_DIR/make.pids"
case "${FAKE_MAKE:-hang}" in
hang | compile-hangs) exec sleep 600 ;;
fail | compile-fails) echo "fake make: *** [$*] Error 2" >&2; exit 2 ;;
esac
FAKE_MAKE
cat >"$FAKE/bin/git" <<'FAKE_GIT'
#!/bin/bash
# git clone sleeps as a long clone does, after making its target.
if [ "${1:-}" = clone ]; then
	echo $$ >>"$FAKE_DIR/git.pids"
	mkdir -p "${*: -1}"
	exec sleep 600
fi
exec /usr/bin/git "$@"
FAKE_GIT
# The build steps the boot loops need, as fakes in the copy: a build
# directory per arch and variant (the options before them ignored) with
# an empty image and .config where Kbuild puts them.
cat >"$PROJ/scripts/kernel-build.sh" <<'FAKE_BUILD'
#!/bin/bash
set -euo pipefail
arch=${*: -2:1} variant=${*: -1}
# FAKE_BUILD=fail: a build that fails, printing no image.
[ "${FAKE_BUILD:-}" != fail ] || { echo "error: fake build of $arch $variant failed" >&2; exit 1; }
out=$BUILD_DIR/fake-kernels/$arch-$variant
case "$arch" in
x86_64 | i386) image=arch/x86/boot/bzImage ;;
arm64) image=arch/arm64/boot/Image ;;
arm) image=arch/arm/boot/zImage ;;
esac
mkdir -p "$out/$(dirname "$image")"
touch "$out/$image" "$out/.config"
echo "$out/$image"
FAKE_BUILD
cat >"$PROJ/scripts/guest-initramfs.sh" <<'FAKE_INITRAMFS'
#!/bin/bash
set -euo pipefail
mkdir -p "$BUILD_DIR/guest/$1"
touch "$BUILD_DIR/guest/$1/initramfs.cpio.gz"
echo "$BUILD_DIR/guest/$1/initramfs.cpio.gz"
FAKE_INITRAMFS
chmod +x "$FAKE"/bin/* "$PROJ/scripts/kernel-build.sh" "$PROJ/scripts/guest-initramfs.sh"
PATH=$FAKE/bin:$PATH
