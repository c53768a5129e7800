#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # the functions run through check and interrupt
# The harness on its ways out, in seconds and without kernels or QEMU
# (the fakes of tests/fakes.sh). Ctrl-C (SIGINT to the process
# group, as a terminal sends it), SIGTERM and SIGHUP (to the script
# alone, as kill or a CI timeout send them) during a boot loop, during a
# kernel build and while the base tree is cloned or extracted must stop
# the script and everything below it at once, leave no temporary tree
# and leave the machine lock free; the next run must work. And the errors at their
# source: a failed configure step inside the machine lock, a guest job
# that failed, and make clean, which must keep results/.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan 23

# shellcheck source=tests/fakes.sh
. "$(dirname "$0")/fakes.sh"

# A kernel-build.sh that is real, beside the copy, on a fake tree.
cp "$SCRIPTS_DIR/kernel-build.sh" "$PROJ/scripts/real-kernel-build.sh"
mkdir -p "$TEST_TMP/worktree"
cat >"$PROJ/scripts/kernel-tree.sh.fake" <<FAKE_TREE
#!/bin/bash
echo "$TEST_TMP/worktree"
FAKE_TREE

# A base tree to clone: the smallest a kernel tree needs to look like.
SRC=$TEST_TMP/src
mkdir -p "$SRC/kernel/sched"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n' >"$SRC/Makefile"
: >"$SRC/kernel/sched/core.c"
/usr/bin/git -C "$SRC" init -q
/usr/bin/git -C "$SRC" add -A
/usr/bin/git -C "$SRC" -c user.name=t -c user.email=t@localhost commit -q -m base

# running PID: PID runs (a zombie whose parent has not reaped it yet
# does not).
running() {
	[ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* (.*) Z ' "/proc/$1/stat" 2>/dev/null
}

# interrupt SIG WAITFOR CMD...: start CMD (a function that ends in exec
# of the script) as a terminal starts a command
# (its own process group, SIGINT not ignored), wait until WAITFOR
# (FAKE_DIR/NAME.pids) has a line, send SIG (INT to the group, TERM and
# HUP to CMD alone), then CMD must end within 15 s by that signal, with
# nothing it started still running and the machine lock free.
interrupt() {
	local sig=$1 waitfor=$FAKE/$2.pids pid rc=0 i left
	shift 2
	rm -f "$FAKE"/*.pids
	set -m
	"$@" >"$TEST_TMP/interrupted.out" 2>&1 &
	pid=$!
	set +m
	for i in $(seq 200); do
		[ -s "$waitfor" ] && break
		sleep 0.1
	done
	[ -s "$waitfor" ] || { echo "$* never reached $(basename "$waitfor" .pids)"; cat "$TEST_TMP/interrupted.out"; kill -KILL -- -"$pid"; return 1; }
	sleep 0.5
	if [ "$sig" = INT ]; then kill -INT -- -"$pid"; else kill -"$sig" "$pid"; fi
	for i in $(seq 150); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "still running 15 s after SIG$sig"
		ps -e -o pid,ppid,args
		kill -KILL -- -"$pid"
		return 1
	fi
	wait "$pid" || rc=$?
	[ "$rc" -eq $((128 + $(kill -l "$sig"))) ] ||
		{ echo "exit $rc after SIG$sig"; cat "$TEST_TMP/interrupted.out"; return 1; }
	sleep 0.3
	left=$(cat "$FAKE"/*.pids 2>/dev/null | while read -r i; do ! running "$i" || echo "$i"; done)
	[ -z "$left" ] || { echo "left running: $left"; ps -o pid,ppid,args -p "${left//$'\n'/,}"; return 1; }
	[ "$(wc -l <"$waitfor")" -eq 1 ] ||
		{ echo "started $(wc -l <"$waitfor") times after SIG$sig"; return 1; }
	flock -n "$FORK_REGRESSION_LOCK" true || { echo "machine lock held"; return 1; }
}

boot_loop() {
	rm -rf "$TEST_TMP/run"
	exec "$PROJ/scripts/experiments/phantom-attach/phantom-attach.sh" --boots 3 --variants "reference fixed" --out "$TEST_TMP/run"
}
for sig in INT TERM HUP; do
	check "SIG$sig during a boot stops the boot loop, QEMU and all, lock free" \
		interrupt "$sig" qemu boot_loop
done

real_build() {
	cp "$PROJ/scripts/kernel-tree.sh.fake" "$PROJ/scripts/kernel-tree.sh"
	chmod +x "$PROJ/scripts/kernel-tree.sh"
	exec "$PROJ/scripts/real-kernel-build.sh" x86_64 reference
}
for sig in INT TERM HUP; do
	check "SIG$sig during a kernel build stops it and make, lock free" \
		interrupt "$sig" make real_build
done

# The compile of a kernel under make check runs in scripts/deps/deps-trace.sh's
# untraced server (scripts/lib/trace.sh), outside the script's process
# tree and group: a signal must stop it there too, its status must come
# back, and its output must reach build.log. The server here records
# nothing (no strace within make check's strace).
SERVER=$TEST_TMP/untraced
mkdir -p "$SERVER"
mkfifo "$SERVER/requests"
# shellcheck disable=SC2016 # for the inner shell
bash -c '. "$1" && serve_untraced "$2" ""' server "$PROJ/scripts/deps/deps-trace.sh" "$SERVER" 2>/dev/null &
until [ -s "$SERVER/server" ]; do sleep 0.1; done
# A configured build directory, so that the build goes straight to the
# compile: the key kernel-build.sh's configure step leaves.
configured() {
	local out=$TEST_TMP/worktree/out-x86_64
	mkdir -p "$out"
	: >"$out/.config"
	# shellcheck disable=SC2016 # for the inner shell
	bash -c '. "$1" && fragments_key x86_64 "$2"' key \
		"$PROJ/scripts/real-kernel-build.sh" "$TEST_TMP/worktree" >"$out/.fragments-sha"
}
untraced_build() {
	configured
	FORK_REGRESSION_UNTRACED=$SERVER FAKE_MAKE=compile-hangs real_build
}
# interrupt_untraced SIG: interrupt as above, and the make it stopped was
# the server's (its request is left where the client was stopped), not
# one of the configure step.
interrupt_untraced() {
	rm -rf "$SERVER"/request.*
	interrupt "$1" make untraced_build || return 1
	compgen -G "$SERVER/request.*/argv" >/dev/null || { echo "the compile did not go through the server"; return 1; }
	rm -rf "$SERVER"/request.*
}
for sig in INT TERM; do
	check "SIG$sig during the untraced compile (make check) stops make in the server, lock free" \
		interrupt_untraced "$sig"
done
# The compile is make vmlinux first (the boot image follows it without
# ccache), so a compile that fails stops there.
untraced_fails() {
	cp "$PROJ/scripts/kernel-tree.sh.fake" "$PROJ/scripts/kernel-tree.sh"
	chmod +x "$PROJ/scripts/kernel-tree.sh"
	configured
	FORK_REGRESSION_UNTRACED=$SERVER FAKE_MAKE=compile-fails \
		fails_with 1 "^error: x86_64 reference build failed" "$PROJ/scripts/real-kernel-build.sh" x86_64 reference &&
		grep -q '^fake make: \*\*\* \[-C .* vmlinux\] Error 2$' "$TEST_TMP/worktree/out-x86_64/build.log"
}
check "an untraced compile that fails: its status and output come back" untraced_fails

# A guest's QEMU under make check runs in the server with nothing of it
# traced (run_untraced --alone): under strace its vCPUs lose the host's
# cores. Only its program is recorded.
untraced_alone() {
	local dir=$TEST_TMP/alone trace=$TEST_TMP/alone.trace
	mkdir -p "$dir"
	mkfifo "$dir/requests"
	: >"$trace"
	# shellcheck disable=SC2016 # for the inner shell
	bash -c '. "$1" && serve_untraced "$2" "$3"' server "$PROJ/scripts/deps/deps-trace.sh" "$dir" "$trace" 2>/dev/null &
	until [ -s "$dir/server" ]; do sleep 0.1; done
	# shellcheck disable=SC2016 # for the inner shell
	FORK_REGRESSION_UNTRACED=$dir bash -c '. "$1" && run_untraced --alone grep -h TracerPid /proc/self/status' \
		client "$PROJ/scripts/lib.sh" >"$TEST_TMP/alone.out"
	kill "$(cat "$dir/server")"
	# Traced by whatever traces this test (make check's strace, or
	# nothing), not by a strace of the server's own.
	if ! grep -qx "TracerPid:	$(awk '/^TracerPid:/ { print $2 }' /proc/$$/status)" "$TEST_TMP/alone.out" ||
		! grep -qx "x $(type -P grep)" "$trace"; then
		cat "$TEST_TMP/alone.out" "$trace"
		return 1
	fi
}
check "run_untraced --alone: the command runs untraced, its program recorded" untraced_alone

clone_tree() {
	cp "$SCRIPTS_DIR/kernel-tree.sh" "$PROJ/scripts/kernel-tree.sh"
	KERNEL_SRC=$SRC exec "$PROJ/scripts/kernel-tree.sh" reference
}
check "SIGTERM while the base tree is cloned stops git" interrupt TERM git clone_tree
no_temporary_tree() {
	local left
	left=$(find "$BUILD_DIR/src" -maxdepth 1 -name '*.tmp.*')
	[ -z "$left" ] || { echo "left behind: $left"; return 1; }
}
check "and leaves no temporary tree behind" no_temporary_tree

# The same under a script that runs kernel-tree.sh as kernel-build.sh
# does, on Ctrl-C: both scripts' on_signal stop every process below them,
# the removal of the temporary tree included, while rm takes as long as
# a kernel tree's; and while Debian's tree is extracted, from a tarball
# of the same form, tiny, whose tar then takes long as the real one's.
cat >"$PROJ/scripts/tree-user.sh" <<'TREE_USER'
#!/bin/bash
set -euo pipefail
. "$(dirname "$0")/lib.sh"
main() { "$SCRIPTS_DIR/kernel-tree.sh" "$@" >/dev/null; }
run_main "$@"
TREE_USER
cat >"$FAKE/bin/rm" <<'FAKE_RM'
#!/bin/bash
for a in "$@"; do
	case "$a" in *.tmp.*) [ ! -e "$a" ] || sleep 1 ;; esac
done
exec /bin/rm "$@"
FAKE_RM
cat >"$FAKE/bin/tar" <<'FAKE_TAR'
#!/bin/bash
# FAKE_TAR=hang: an extraction into a directory (-C) extracts, then hangs.
case "${FAKE_TAR:-}: $* " in
hang:*" -C "*)
	echo $$ >>"$FAKE_DIR/tar.pids"
	/bin/tar "$@"
	exec sleep 600
	;;
esac
exec /bin/tar "$@"
FAKE_TAR
chmod +x "$PROJ/scripts/tree-user.sh" "$FAKE/bin/rm" "$FAKE/bin/tar"
TARBALL=$TEST_TMP/linux-source.tar.xz
mkdir -p "$TEST_TMP/tarball/linux-source-6.12/kernel/sched"
cp "$SRC/Makefile" "$TEST_TMP/tarball/linux-source-6.12/"
: >"$TEST_TMP/tarball/linux-source-6.12/kernel/sched/core.c"
/bin/tar -C "$TEST_TMP/tarball" -cJf "$TARBALL" linux-source-6.12

nested_clone() {
	cp "$SCRIPTS_DIR/kernel-tree.sh" "$PROJ/scripts/kernel-tree.sh"
	KERNEL_SRC=$SRC exec "$PROJ/scripts/tree-user.sh" reference
}
check "Ctrl-C while a script's base tree is cloned stops git" interrupt INT git nested_clone
check "and leaves no temporary tree behind" no_temporary_tree
nested_unpack() {
	cp "$SCRIPTS_DIR/kernel-tree.sh" "$PROJ/scripts/kernel-tree.sh"
	DEBIAN_TARBALL=$TARBALL FAKE_TAR=hang exec "$PROJ/scripts/tree-user.sh" reference
}
check "Ctrl-C while a script's base tree is extracted stops tar" interrupt INT tar nested_unpack
check "and leaves no temporary tree behind" no_temporary_tree

next_run() {
	rm -rf "$TEST_TMP/run"
	FAKE_QEMU=rc=0 "$PROJ/scripts/experiments/phantom-attach/phantom-attach.sh" --boots 1 --variants fixed --out "$TEST_TMP/run" &&
		grep -q '^| fixed | fake | 1 | 1 | 0 | 0 |$' "$TEST_TMP/run/table.txt"
}
check "the next run after the signals works" next_run

configure_fails() {
	cp "$PROJ/scripts/kernel-tree.sh.fake" "$PROJ/scripts/kernel-tree.sh"
	chmod +x "$PROJ/scripts/kernel-tree.sh"
	rm -rf "$TEST_TMP/worktree/out-x86_64" "$FAKE/make.pids"
	FAKE_MAKE=fail fails_with 1 "^error: configuring x86_64 in .* failed" \
		"$PROJ/scripts/real-kernel-build.sh" x86_64 reference || return 1
	# set -e held inside the lock: nothing ran after the failed step.
	[ "$(wc -l <"$FAKE/make.pids")" -eq 1 ] || { echo "make ran $(wc -l <"$FAKE/make.pids") times"; return 1; }
}
check "a failed configure step inside the machine lock stops there, with its error" configure_fails

guest_job() {
	FAKE_QEMU=rc=1 "$PROJ/scripts/guest-boot.sh" "$@" x86_64 "$BUILD_DIR/fake-kernels/x86_64-fixed/arch/x86/boot/bzImage" \
		"$BUILD_DIR/guest/x86_64/initramfs.cpio.gz" "$TEST_TMP/job.log"
}
check "a guest job that failed is an error with --job-must-pass" \
	fails_with 1 "^error: guest job cost exited 1; console: " guest_job --job cost --job-must-pass
check "and a finished boot without it (a selftest's fail is a verdict)" guest_job --job cost

tree_waits_for_lock() {
	local rc=0 holder
	cp "$SCRIPTS_DIR/kernel-tree.sh" "$PROJ/scripts/kernel-tree.sh"
	flock "$FORK_REGRESSION_LOCK" sleep 4 &
	holder=$!
	sleep 0.5
	# Real git: the fake's clone sleeps.
	PATH=${PATH#"$FAKE/bin:"} KERNEL_SRC=$SRC timeout 2 "$PROJ/scripts/kernel-tree.sh" reference \
		>"$TEST_TMP/tree.out" 2>&1 || rc=$?
	wait "$holder"
	if [ "$rc" -ne 124 ] || ! grep -q "waiting for the machine lock" "$TEST_TMP/tree.out"; then
		echo "exit $rc while the lock was held:"
		cat "$TEST_TMP/tree.out"
		return 1
	fi
	PATH=${PATH#"$FAKE/bin:"} KERNEL_SRC=$SRC "$PROJ/scripts/kernel-tree.sh" reference
}
check "kernel-tree.sh waits for the machine lock, then makes the tree" tree_waits_for_lock

bench_timeout() {
	rm -rf "$TEST_TMP/run" "$FAKE/qemu.parents"
	FAKE_QEMU=rc=0 "$PROJ/scripts/experiments/bench/bench.sh" --boots 1 --variants reference --seconds 100 \
		--loads "spawn exec" --out "$TEST_TMP/run" >/dev/null 2>&1 || true
	# 300 s for the boot, 4 x 100 s for each of two loads.
	grep -q '^timeout --kill-after=10 1100 ' "$FAKE/qemu.parents" ||
		{ echo "guest timeout:"; cat "$FAKE/qemu.parents"; return 1; }
}
check "bench.sh gives a boot the time its --seconds and --loads ask for" bench_timeout

make_clean() {
	mkdir -p "$PROJ/build/x" "$PROJ/results/run"
	/usr/bin/make -s -C "$PROJ" clean
	[ ! -e "$PROJ/build" ] && [ -d "$PROJ/results/run" ] || return 1
	/usr/bin/make -s -C "$PROJ" distclean | grep -q 'removing results/'
	[ ! -e "$PROJ/results" ]
}
check "make clean keeps results/, make distclean says it removes them" make_clean

kill "$(cat "$SERVER/server")"
exit "$TEST_FAILED"
