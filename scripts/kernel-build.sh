#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Configure and build one guest kernel: tinyconfig plus the fragments in
# scripts/config/ and scripts/arch/ and the selftest's config, merged by
# the kernel's own merge_config.sh. Prints the path of the kernel image.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] [--extra-config FILE] [--target T] ARCH VARIANT

Build VARIANT's kernel ($VARIANTS, kernel-tree.sh --help) for ARCH
($ARCHES) in out-ARCH/ of its worktree (make's output in build.log
there; ccache, incremental) and print the image's path.
  --extra-config FILE  one more fragment, in a build directory of its own
                       (out-ARCH-FILE; again for more)
  --target T           make T instead of the image; prints the build directory
W=1 in the environment builds with extra warnings (out-ARCH-W1).
USAGE
}

# --extra-config's fragments, in the order given.
EXTRA_CONFIGS=()

# The fragments, in merge order: a variant suffix's own (a +dvfs tree has
# the emulated cpufreq driver: dvfs.config turns it and schedutil on;
# VARIANT_SUFFIX_CONFIG) after the selftest's. The worktree's name is
# its variant's.
fragments() {
	local arch=$1 wt=$2 v s
	echo "$SCRIPTS_DIR/config/common.config"
	echo "$ARCH_DIR/$arch.config"
	echo "$PROJECT_DIR/selftests/sched/config"
	v=$(basename "$wt")
	while s=$(variant_suffix "$v"); do
		[ -z "${VARIANT_SUFFIX_CONFIG[$s]:-}" ] || echo "$SCRIPTS_DIR/${VARIANT_SUFFIX_CONFIG[$s]}"
		v=${v%+"$s"}
	done
	[ ${#EXTRA_CONFIGS[@]} -eq 0 ] || printf '%s\n' "${EXTRA_CONFIGS[@]}"
}

# check_config CONFIG FRAGMENT...: every option the fragments ask for
# (the last fragment that names an option wins, as in merge_config.sh)
# must be in the final .config as asked; print the ones that are not.
check_config() {
	local config=$1
	shift
	awk '
		FNR == NR { have[$0] = 1; next }
		/^CONFIG_[A-Za-z0-9_]+=/ { opt = substr($0, 1, index($0, "=") - 1) }
		/^# CONFIG_[A-Za-z0-9_]+ is not set/ { opt = $2 }
		/^CONFIG_[A-Za-z0-9_]+=/ || /^# CONFIG_[A-Za-z0-9_]+ is not set/ {
			if (!(opt in want)) order[++n] = opt
			want[opt] = $0
		}
		END {
			for (i = 1; i <= n; i++) {
				line = want[order[i]]
				if (line ~ /^CONFIG_/) {
					if (!(line in have)) print line
					continue
				}
				for (h in have)
					if (index(h, order[i] "=") == 1) { print line; break }
			}
		}
	' "$config" "$@"
}

# option_name LINE: CONFIG_FOO of "CONFIG_FOO=y" or "# CONFIG_FOO is not set".
option_name() {
	local line=${1#\# }
	line=${line%%=*}
	echo "${line%% *}"
}

# tree_has_option WORKTREE LINE: some Kconfig file of the tree defines it.
tree_has_option() {
	local name
	name=$(option_name "$2")
	git -C "$1" grep -qE "^[[:space:]]*(menu)?config[[:space:]]+${name#CONFIG_}[[:space:]]*\$" -- '*Kconfig*'
}

# fragments_key ARCH WORKTREE: what OUT/.fragments-sha holds once the
# fragments are merged: a change to any of them configures again.
fragments_key() {
	local frags
	mapfile -t frags < <(fragments "$1" "$2")
	cat "${frags[@]}" | sha256sum | cut -c1-16
}

configure() {
	local arch=$1 wt=$2 out=$3 frags key
	mapfile -t frags < <(fragments "$arch" "$wt")
	key=$(fragments_key "$arch" "$wt")
	if [ -f "$out/.config" ] && [ "$(cat "$out/.fragments-sha" 2>/dev/null)" = "$key" ]; then
		return
	fi
	log "configuring $arch in $out"
	rm -f "$out/.fragments-sha"
	if ! { make -C "$wt" O="$out" "${MAKE_ARGS[@]}" tinyconfig &&
		(cd "$wt" && KCONFIG_CONFIG="$out/.config" ARCH="$KARCH" CROSS_COMPILE="$CROSS" \
			scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "${frags[@]}") &&
		make -C "$wt" O="$out" "${MAKE_ARGS[@]}" olddefconfig; } >>"$out/build.log" 2>&1; then
		tail -n 20 "$out/build.log" >&2
		die "configuring $arch in $out failed; full log: $out/build.log"
	fi
	local missing opt
	missing=$(check_config "$out/.config" "${frags[@]}" | while read -r opt; do
		if tree_has_option "$wt" "$opt"; then
			echo "$opt"
		else
			# One fragment serves every tree: an option this tree
			# does not have (SCHED_DEBUG is gone from v6.15) is moot.
			log "$(option_name "$opt") does not exist in this tree: left out" >&2
		fi
	done)
	[ -z "$missing" ] ||
		die "$(printf 'options not set as asked in %s/.config (a dependency is missing from the fragments):\n%s' "$out" "$missing")"
	echo "$key" >"$out/.fragments-sha"
}

# A date before any build: what seed_build_dir gives the files a seeded
# tree shares with its donor, so that the donor's objects are newer.
SEED_SOURCE_DATE=@946684800

# seed_donor ARCH WORKTREE OUT: the sibling worktree (a variant of the
# same source repository) whose build directory of the same name and
# fragments is closest to WORKTREE's commit, and how many files differ
# ("COUNT DONOR", the path last: it may hold spaces); nothing when there
# is none. Only a finished build of
# a tree as git has it will do: an edit git does not know of, or a
# file newer than the image (a tree prepared anew, not yet rebuilt),
# would be in no list of what differs.
seed_donor() {
	local arch=$1 wt=$2 out=$3 name key image d donor best="" best_n="" n common
	name=$(basename "$out")
	key=$(fragments_key "$arch" "$wt")
	image=$(arch_field "$arch" ARCH_IMAGE)
	common=$(git -C "$wt" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) || return 0
	[ -z "$(git -C "$wt" status --porcelain)" ] || return 0
	for d in "$(dirname "$wt")"/*/"$name"; do
		donor=$(dirname "$d")
		if [ "$donor" = "$wt" ] || [ -e "$d/.seeding" ] ||
			[ "$(cat "$d/.fragments-sha" 2>/dev/null)" != "$key" ] ||
			[ ! "$d/$image" -nt "$d/.config" ] ||
			[ "$(git -C "$donor" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" != "$common" ] ||
			[ -n "$(git -C "$donor" status --porcelain)" ] ||
			[ -n "$(find "$donor" -path "$donor/out-*" -prune -o -type f -newer "$d/$image" -print -quit)" ]; then
			continue
		fi
		n=$(git -C "$wt" diff --name-only "$(git -C "$donor" rev-parse HEAD)" HEAD | wc -l)
		if [ -z "$best" ] || [ "$n" -lt "$best_n" ]; then
			best=$donor
			best_n=$n
		fi
	done
	[ -z "$best" ] || echo "$best_n $best"
}

# seed_build_dir ARCH WORKTREE OUT: start the empty build directory OUT
# as a copy of seed_donor's, so that make compiles only what the two
# commits change (a fixed kernel after the regressed one: 5 objects
# instead of 1,046, 42 s instead of 2 min 34 s, the same image;
# Documentation/data/build-seed-2026-12-07/).
# make judges by date: the files both trees share are dated before any
# build, those that differ now, after every object of the copy. The
# build of objtool records absolute paths, which become this tree's.
# A change to a Kconfig file configures again (configure()). OUT/.seeding
# marks a copy under way: one that was stopped is thrown away.
seed_build_dir() {
	local arch=$1 wt=$2 out=$3 donor n d_out
	if [ -e "$out/.seeding" ]; then
		log "throwing away the unfinished start of $out"
		find "$out" -mindepth 1 -maxdepth 1 ! -name build.log -exec rm -rf {} +
	fi
	[ ! -f "$out/.config" ] || return 0
	read -r n donor < <(seed_donor "$arch" "$wt" "$out") || return 0
	d_out=$donor/$(basename "$out")
	log "starting $out from $d_out ($n files differ)"
	: >"$out/.seeding"
	git -C "$wt" ls-files -z >"$out/.seed-files"
	git -C "$wt" diff -z --name-only "$(git -C "$donor" rev-parse HEAD)" HEAD >"$out/.seed-changed"
	if ! (cd "$wt" && run_untraced xargs -r -0 -a "$out/.seed-files" touch -c -h -d "$SEED_SOURCE_DATE" -- &&
		run_untraced xargs -r -0 -a "$out/.seed-changed" touch -c -h --); then
		die "cannot date the files of $wt"
	fi
	run_untraced git -C "$wt" update-index -q --refresh || true
	run_untraced cp -a "$d_out/." "$out/"
	: >"$out/build.log"
	run_untraced grep -rlIZ -F --exclude=build.log "$donor/" "$out" >"$out/.seed-paths" || true
	run_untraced xargs -r -0 -a "$out/.seed-paths" \
		sed -i "s|$(sed_escape "$donor/")|$(sed_escape "$wt/")|g"
	if grep -qz '\(^\|/\)Kconfig[^/]*$' "$out/.seed-changed"; then
		rm -f "$out/.fragments-sha"
	fi
	rm -f "$out/.seed-files" "$out/.seed-changed" "$out/.seed-paths" "$out/.seeding"
}

# sed_escape TEXT: TEXT as a literal in a s|||g of sed.
sed_escape() {
	printf '%s' "$1" | sed 's/[][\\.*^$|&]/\\&/g'
}

# configure_and_make ARCH VARIANT WORKTREE OUT TARGET SUFFIX: the whole
# build, run under the machine lock.
configure_and_make() {
	local arch=$1 variant=$2 wt=$3 out=$4 target=$5 suffix=$6
	seed_build_dir "$arch" "$wt" "$out"
	configure "$arch" "$wt" "$out"
	log "building $arch $variant $target${suffix:+ ($suffix)} (make -j$(nproc); log: $out/build.log)"
	if ! {
		# The host programs and the prepare stage (kconfig, objtool,
		# dtc, asm-offsets: what opens the system's headers, libraries
		# and the compiler's own headers) first, on their own: under
		# scripts/deps/deps-trace.sh (make check) they run traced in full,
		# while the compile of the kernel, which opens the tree's own
		# headers, hundreds a file, runs untraced but for the programs
		# it executes (scripts/lib/trace.sh). The same two steps
		# without the tracer, so that make check builds as make verify.
		make -C "$wt" O="$out" "${MAKE_ARGS[@]}" -j"$(nproc)" prepare scripts
		if [ "$target" = "$(basename "$(arch_field "$arch" ARCH_IMAGE)")" ]; then
			# The boot image's piggy.S takes the compressed kernel
			# in with .incbin, which ccache's depend mode does not
			# see: it handed back the last variant's piggy.o, and
			# two variants' 32-bit boot images were one file
			# (Documentation/data/ccache-incbin-arm/). So the
			# wrapper is assembled anew, without ccache, each time.
			run_untraced make -C "$wt" O="$out" "${MAKE_ARGS[@]}" -j"$(nproc)" vmlinux &&
				rm -f "$out"/arch/*/boot/compressed/piggy.o &&
				CCACHE_DISABLE=1 run_untraced make -C "$wt" O="$out" "${MAKE_ARGS[@]}" \
					-j"$(nproc)" "$target"
		else
			run_untraced make -C "$wt" O="$out" "${MAKE_ARGS[@]}" -j"$(nproc)" "$target"
		fi
	} >>"$out/build.log" 2>&1; then
		tail -n 20 "$out/build.log" >&2
		die "$arch $variant build failed; full log: $out/build.log"
	fi
}

main() {
	local target=
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--extra-config)
			if [ $# -lt 2 ] || [ ! -f "$2" ]; then
				usage_error "--extra-config needs a readable file"
			fi
			EXTRA_CONFIGS+=("$(cd "$(dirname "$2")" && pwd)/$(basename "$2")")
			shift 2
			;;
		--target)
			[ $# -ge 2 ] || usage_error "--target needs a make target"
			target=$2
			shift 2
			;;
		-*) usage_error "unknown option $1" ;;
		*) break ;;
		esac
	done
	[ $# -eq 2 ] || { usage >&2; exit 2; }
	local arch=$1 variant=$2 wt out image suffix="" f
	check_arch "$arch"
	check_variant "$variant"
	CROSS=$(arch_field "$arch" ARCH_CROSS_COMPILE)
	need_cmds make "${CROSS}gcc" flex bison bc ccache
	wt=$("$SCRIPTS_DIR/kernel-tree.sh" "$variant")
	for f in "${EXTRA_CONFIGS[@]}"; do suffix+=-$(basename "$f" .config); done
	[ -z "${W:-}" ] || suffix=$suffix-W$W
	# A direct subdirectory of the source tree makes Kbuild use relative
	# paths (srctree := ..), so ccache hits across variants' worktrees.
	out=$wt/out-$arch$suffix
	mkdir -p "$out"
	KARCH=$(arch_field "$arch" ARCH_KERNEL)
	# ccache's depend mode takes a miss's include files from the
	# compiler's own -MMD output, which Kbuild asks for, instead of
	# running the preprocessor once more: a cold 64-bit build took
	# about a fifth less time, hits across the variants' worktrees as
	# before. What -MMD leaves out, system headers, a kernel build does
	# not include (-nostdinc); a new compiler changes the compiler's
	# mtime, which ccache checks.
	# Nor does -MMD list what .incbin takes in: the boot image's
	# compressed kernel (made without ccache, below), and in vmlinux
	# the vDSO, the built-in initramfs and certificates, the same for
	# every variant of one config.
	[ -n "${CCACHE_NODEPEND:-}" ] || export CCACHE_DEPEND=1
	# The build's date, user, host and number fixed: a rebuild, or a
	# build started from another variant's directory (seed_build_dir),
	# makes the image a fresh build makes, byte for byte.
	MAKE_ARGS=(ARCH="$KARCH" CROSS_COMPILE="$CROSS" CC="ccache ${CROSS}gcc"
		KBUILD_BUILD_TIMESTAMP=2025-02-05 KBUILD_BUILD_USER=fork-regression
		KBUILD_BUILD_HOST=qemu KBUILD_BUILD_VERSION=1 ${W:+W=$W})
	: >"$out/build.log"
	image=$(arch_field "$arch" ARCH_IMAGE)
	with_machine_lock configure_and_make "$arch" "$variant" "$wt" "$out" \
		"${target:-$(basename "$image")}" "$suffix"
	if [ -n "$target" ]; then
		log "built $target in $out"
		echo "$out"
	else
		log "built $out/$image"
		echo "$out/$image"
	fi
}

# Sourcing (for tests) defines the functions without running main.
[ "${BASH_SOURCE[0]}" != "$0" ] || run_main "$@"
