#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Regenerate one series of patches/ with the submitter's own git
# identity: its patches are applied where scripts/kernel-tree.sh puts
# them for the fixed kernel, the selftest files are refreshed from
# selftests/sched/, every commit is re-authored and signed off by
# `git config user.name/user.email`, checked with checkpatch.pl --strict,
# and git format-patch writes the series with its cover letter.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/..
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] [--base-commit ID] [--out OUT] [DIR]

Rewrite the series in DIR (default: the one the fixed kernel of the
current source takes, patches/6.12.y for Debian's tree; KERNEL_SRC=<a
v7.1.5 tree> for the mainline ones) on the tree as it is: each patch
applied with git am, re-authored and signed off with your git identity,
checkpatch.pl --strict, the cover letter's shortlog, diffstat and
recipients made anew, base-commit from --base-commit or the cover
letter (Documentation/harness.md, "Posting"). With --out, written to OUT
and DIR left as it is. Stops, leaving DIR alone, when a patch does not
apply or checkpatch.pl reports anything but UNKNOWN_COMMIT_ID.
USAGE
}

# The selftest files that are wholly ours; the Makefile, config and
# .gitignore hunks are written against each tree's own files.
OWN_SELFTEST_FILES="fork_placement_test.c settings"

main() {
	local dir="" out="" base_commit="" name email fixed parent series_base n wt tmp p f cover prefix ignore
	local author keep reset
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--base-commit)
			base_commit=${2:-}
			shift 2 || usage_error "--base-commit needs a commit id"
			[[ "$base_commit" =~ ^[0-9a-f]{40}$ ]] || usage_error "--base-commit takes a full 40-digit commit id"
			;;
		--out)
			out=${2:-}
			shift 2 || usage_error "--out needs a directory"
			[ -n "$out" ] || usage_error "--out needs a directory"
			;;
		-*) usage_error "unknown option $1" ;;
		*)
			[ -z "$dir" ] || usage_error "one series directory expected"
			[ -d "$1" ] || usage_error "no such directory: $1"
			dir=$(cd "$1" && pwd)
			shift
			;;
		esac
	done
	if ! name=$(git -C "$PROJECT_DIR" config user.name) ||
		! email=$(git -C "$PROJECT_DIR" config user.email); then
		die "set your git identity (git config user.name / user.email): it signs the series"
	fi

	# kernel-tree.sh knows which series the current source takes, and
	# its fixed tree shows that the series applies where make verify
	# measures it. The series itself is made on the tree as it is (its
	# base tag): the tree it is for.
	fixed=$(SERIES=$dir "$SCRIPTS_DIR/kernel-tree.sh" fixed)
	[ -n "$dir" ] || dir=$PROJECT_DIR/$(cat "$fixed.series")
	mapfile -t patches < <(series_patches "$dir")
	n=${#patches[@]}
	parent=$(git -C "$fixed" rev-parse 'refs/tags/base^{commit}')
	cover=$dir/0000-cover-letter.patch
	[ -f "$cover" ] || die "$cover is missing: it holds the cover letter's subject and text"

	SERIES_TMP=$(mktemp -d)
	tmp=$SERIES_TMP
	trap 'rm -rf "$SERIES_TMP"' EXIT
	# kernel-tree.sh's series worktree, the base checked out afresh
	# (a new worktree would write the whole tree each time): one
	# make-series.sh at a time applies patches there.
	mkdir -p "$BUILD_DIR"
	exec {series_lock}>>"$BUILD_DIR/series.lock"
	flock "$series_lock"
	wt=$("$SCRIPTS_DIR/kernel-tree.sh" series)
	[ "$(git -C "$wt" rev-parse HEAD)" = "$parent" ] ||
		die "the series worktree $wt is not at the base $parent"
	# The series named in DIR/prerequisites go first, as they are; the
	# cover letter lists them as prerequisite-patch-id.
	series_prerequisites "$dir"
	for f in "${PREREQUISITES[@]}"; do
		for p in $(series_patches "$f"); do
			log "applying prerequisite ${p#"$PROJECT_DIR"/}"
			git -C "$wt" am -q "$p" || die "prerequisite ${p#"$PROJECT_DIR"/} does not apply"
		done
	done
	series_base=$(git -C "$wt" rev-parse HEAD)

	series_original_authors "$dir"
	export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email
	export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email
	for p in "${patches[@]}"; do
		log "applying $(basename "$p")"
		git -C "$wt" am -q "$p" || die "$(basename "$p") does not apply onto $(git -C "$wt" log -1 --format='%h ("%s")' "$parent")"
		if grep -qx 'tools/testing/selftests/sched/fork_placement_test.c' \
			< <(git -C "$wt" show --name-only --diff-filter=A --format= HEAD); then
			for f in $OWN_SELFTEST_FILES; do
				cp "$PROJECT_DIR/selftests/sched/$f" "$wt/tools/testing/selftests/sched/$f"
			done
			git -C "$wt" add tools/testing/selftests/sched
		fi
		# Re-author and sign with the submitter's identity only; the
		# sign-off goes where maintainer-tip.rst orders it: after
		# Fixes/Reported-by/Closes/Suggested-by, before Link and the rest.
		# A reworked patch of an original author keeps its author and
		# their sign-off, and the submitter's follows (after the note on
		# the rework, submitting-patches.rst).
		author=$(git -C "$wt" log -1 --format='%an <%ae>')
		keep="" reset=--reset-author
		! is_original_author "$author" || keep="Signed-off-by: $author" reset=""
		git -C "$wt" log -1 --format=%B |
			awk -v keep="$keep" '!/^Signed-off-by:/ || $0 == keep' |
			sign_off "Signed-off-by: $name <$email>" >"$tmp/msg"
		git -C "$wt" commit -q --amend ${reset:+"$reset"} --cleanup=verbatim -F "$tmp/msg"
	done

	# Trees without upstream history cannot look commit ids up:
	# UNKNOWN_COMMIT_ID is left out. spdxcheck.py wants
	# Debian's python3 (python3-ply, python3-git).
	ignore=UNKNOWN_COMMIT_ID
	# The MAINTAINERS patch of a series, or of a series it goes on (the
	# fork placement test on kselftest-fixes), covers the files another
	# patch adds; checkpatch.pl cannot see that from the one patch.
	[ -z "$(git -C "$wt" log --format=%h "$parent..HEAD" -- MAINTAINERS)" ] ||
		ignore=$ignore,FILE_PATH_CHANGES
	(cd "$wt" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q --ignore "$ignore" \
		-g "$series_base..HEAD") ||
		die "checkpatch.pl --strict complains; fix the patches first"

	prefix=$(cover_subject "$cover" | sed -n 's/^\[\(.*\) 0\/[0-9]*\] .*/\1/p')
	[ -n "$prefix" ] || die "no [PREFIX 0/N] subject in $cover"
	[ -n "$base_commit" ] || base_commit=$(sed -n 's/^base-commit: //p' "$cover")
	mkdir "$tmp/out"
	git -C "$wt" format-patch -q --cover-letter --subject-prefix="$prefix" \
		${base_commit:+--base="$parent"} --no-signature -o "$tmp/out" "$series_base..HEAD" >/dev/null
	fill_cover_letter "$wt" "$series_base" "$cover" "$tmp/out/0000-cover-letter.patch"
	[ -z "$base_commit" ] ||
		sed -i "s/^base-commit: .*/base-commit: $base_commit/" "$tmp/out/0000-cover-letter.patch"
	[ -n "$out" ] || out=$dir
	mkdir -p "$out"
	rm -f "$out"/*.patch
	cp "$tmp/out"/*.patch "$out/"
	log "wrote $((n + 1)) files to ${out#"$PROJECT_DIR"/}/"
}

# cover_subject FILE: the cover letter's Subject: header, unfolded.
cover_subject() {
	awk '/^Subject: / { s = substr($0, 10); more = 1; next }
		more && /^[ \t]/ { sub(/^[ \t]+/, " "); s = s $0; next }
		{ more = 0 }
		END { print s }' "$1"
}

# cover_text FILE: what the cover letter says between its headers and the
# shortlog.
cover_text() {
	awk 'body && /^[^ ].* \([0-9]+\):$/ { exit }
		body { print; next }
		/^$/ { body = 1 }' "$1" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# sign_off LINE: put LINE into the message on stdin, before the first
# Tested-by/Reviewed-by/Acked-by/Cc/Link trailer, or at its end.
sign_off() {
	awk -v sob="$1" '
		{ line[++n] = $0 }
		END {
			while (n > 0 && line[n] == "") n--
			at = n + 1
			for (i = n; i > 0 && line[i] ~ /^[A-Za-z-]+: /; i--)
				if (line[i] ~ /^(Tested-by|Reviewed-by|Acked-by|Cc|Link): /) at = i
			for (i = 1; i <= n; i++) {
				if (i == at) print sob
				print line[i]
			}
			if (at == n + 1) {
				# A message without trailers gets a blank line first.
				if (line[n] !~ /^[A-Za-z-]+: /) print ""
				print sob
			}
		}'
}

# fill_cover_letter WORKTREE BASE OLD NEW: subject and text of the cover
# letter OLD into NEW, recipients from get_maintainer.pl and the
# series' Reported-by: lines.
fill_cover_letter() {
	local wt=$1 base=$2 old=$3 new=$4 subject body recipients reporters
	subject=$(cover_subject "$old" | sed 's/^\[[^]]*\] //')
	body=$(cover_text "$old")
	recipients=$(cd "$wt" && git format-patch --stdout "$base..HEAD" |
		scripts/get_maintainer.pl --no-rolestats --no-git --no-git-fallback 2>/dev/null |
		awk 'NR == 1 { printf "To: %s\n", $0; next } { printf "Cc: %s\n", $0 }')
	# The reporters, whoever the patches Cc, and whoever the cover
	# letter was addressed to before hear of the series too.
	reporters=$(git -C "$wt" log --format=%B "$base..HEAD" |
		sed -n 's/^\(Reported-by\|Cc\): /Cc: /p' | sort -u)
	[ -z "$reporters" ] || recipients=$recipients$'\n'$reporters
	recipients=$recipients$'\n'$(awk '/^$/ { exit } /^(To|Cc): / { print }' "$old")
	# A stable backport goes to stable@ (stable-kernel-rules.rst), whoever
	# get_maintainer.pl names in Cc; not one for a line that is end of
	# life (DIR/end-of-life says so).
	if [[ "$(basename "$(dirname "$old")")" =~ ^[0-9]+\.[0-9]+\.y$ ]] &&
		[ ! -f "$(dirname "$old")/end-of-life" ]; then
		recipients=$'\n'$recipients
		recipients="To: stable@vger.kernel.org"${recipients//$'\n'To: /$'\n'Cc: }
	fi
	# DIR/omit-recipients: addresses that the tree's MAINTAINERS still
	# names but that are not to be mailed (one a line, "# why" after it).
	if [ -f "$(dirname "$old")/omit-recipients" ]; then
		local addr
		while read -r addr _; do
			if [ -z "$addr" ] || [ "${addr#\#}" != "$addr" ]; then continue; fi
			recipients=$(echo "$recipients" | grep -vF "<$addr>" | grep -vxF "Cc: $addr" || true)
		done <"$(dirname "$old")/omit-recipients"
	fi
	# One line per address; the first (get_maintainer.pl's) wins. A
	# trailer's comment (Cc: stable@vger.kernel.org # v6.19+) is for the
	# patch it is on, not for the cover letter.
	recipients=$(echo "$recipients" | awk 'NF { sub(/ *#.*/, ""); if (!seen[substr($0, 5)]++) print }')
	SUBJECT=$subject BODY=$body RECIPIENTS=$recipients perl -0pi -e '
		s/\*\*\* SUBJECT HERE \*\*\*/$ENV{SUBJECT}/;
		s/\*\*\* BLURB HERE \*\*\*/$ENV{BODY}/;
		s/^(Subject: .*\n)/$ENV{RECIPIENTS}\n$1/m if $ENV{RECIPIENTS};
	' "$new"
}

run_main "$@"
