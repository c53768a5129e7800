#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Regenerate patches/ with the submitter's own git identity: the fix
# patches already in patches/ are applied onto the regressed tree, the
# selftest commit is made from selftests/sched/, every commit is
# re-authored and signed off by `git config user.name/user.email`, and
# git format-patch writes the series with its cover letter.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SERIES_DIR=$SCRIPTS_DIR/series

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] [--fix PATCH...]

Rewrite patches/ from:
  - the fix patches (those not touching tools/testing/selftests/) now in
    patches/, or the PATCH files given with --fix;
  - selftests/sched/, copied to tools/testing/selftests/sched/ with the
    message in scripts/series/selftest.msg;
  - scripts/series/cover-letter.txt (first line: subject).
Author and Signed-off-by come from your git identity (git config
user.name and user.email); it must be set.
USAGE
}

main() {
	local fixes=() name email wt base p f tmp
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--fix)
			shift
			[ $# -gt 0 ] || usage_error "--fix needs patch files"
			for p in "$@"; do [ -f "$p" ] || usage_error "no such patch: $p"; done
			fixes=("$@")
			break
			;;
		*) usage_error "unknown argument $1" ;;
		esac
	done
	if ! name=$(git -C "$PROJECT_DIR" config user.name) ||
		! email=$(git -C "$PROJECT_DIR" config user.email); then
		die "set your git identity (git config user.name / user.email): it signs the series"
	fi
	if [ ${#fixes[@]} -eq 0 ]; then
		for p in "$PROJECT_DIR"/patches/[0-9][0-9][0-9][0-9]-*.patch; do
			[ -f "$p" ] || continue
			case "$(basename "$p")" in 0000-*) continue ;; esac
			grep -q '^diff --git a/tools/testing/selftests/' "$p" || fixes+=("$p")
		done
	fi
	SERIES_TMP=$(mktemp -d)
	tmp=$SERIES_TMP
	trap 'rm -rf "$SERIES_TMP"' EXIT
	cp "${fixes[@]}" "$tmp/" 2>/dev/null || true

	base=$(git -C "$("$SCRIPTS_DIR/kernel-tree.sh" regressed)" rev-parse HEAD)
	wt=$BUILD_DIR/series-worktree
	git -C "$("$SCRIPTS_DIR/kernel-tree.sh" regressed)" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
	git -C "$("$SCRIPTS_DIR/kernel-tree.sh" regressed)" worktree prune
	git -C "$("$SCRIPTS_DIR/kernel-tree.sh" regressed)" worktree add -q --detach "$wt" "$base"

	export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email
	export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email
	for p in "$tmp"/*.patch; do
		[ -f "$p" ] || continue
		log "applying $(basename "$p")"
		git -C "$wt" am -q "$p" || die "$(basename "$p") does not apply onto the regressed tree"
		# Re-author and sign with the submitter's identity only; the
		# sign-off goes where maintainer-tip.rst orders it: after
		# Fixes/Reported-by/Closes/Suggested-by, before Link and the rest.
		git -C "$wt" log -1 --format=%B | sed '/^Signed-off-by:/d' |
			sign_off "Signed-off-by: $name <$email>" >"$tmp/msg"
		git -C "$wt" commit -q --amend --reset-author --cleanup=verbatim -F "$tmp/msg"
	done
	for f in "$PROJECT_DIR"/selftests/sched/* "$PROJECT_DIR"/selftests/sched/.gitignore; do
		cp "$f" "$wt/tools/testing/selftests/sched/"
	done
	git -C "$wt" apply "$PROJECT_DIR/MAINTAINERS-snippet" ||
		die "MAINTAINERS-snippet does not apply"
	git -C "$wt" add -f tools/testing/selftests/sched MAINTAINERS
	git -C "$wt" commit -q -s -F "$SERIES_DIR/selftest.msg"

	# Debian's tree has no upstream history, so commit ids cannot be
	# looked up there: UNKNOWN_COMMIT_ID is the one check left out.
	# spdxcheck.py wants Debian's python3 (python3-ply, python3-git).
	(cd "$wt" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q --ignore UNKNOWN_COMMIT_ID \
		-g "$base..HEAD") ||
		die "checkpatch.pl --strict complains; fix the patches first"
	rm -f "$PROJECT_DIR"/patches/*.patch
	mkdir -p "$PROJECT_DIR/patches"
	git -C "$wt" format-patch -q --cover-letter --base="$base" --no-signature \
		-o "$PROJECT_DIR/patches" "$base..HEAD" >/dev/null
	fill_cover_letter "$wt" "$base" "$PROJECT_DIR"/patches/0000-cover-letter.patch
	git -C "$("$SCRIPTS_DIR/kernel-tree.sh" regressed)" worktree remove --force "$wt"
	set -- "$PROJECT_DIR"/patches/*.patch
	log "wrote $# files to patches/"
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
			if (at == n + 1) print sob
		}'
}

# fill_cover_letter WORKTREE BASE FILE: subject and body from
# scripts/series/cover-letter.txt, recipients from get_maintainer.pl.
fill_cover_letter() {
	local wt=$1 base=$2 cover=$3 subject body recipients reporters
	subject=$(head -n 1 "$SERIES_DIR/cover-letter.txt")
	body=$(tail -n +3 "$SERIES_DIR/cover-letter.txt")
	recipients=$(cd "$wt" && git format-patch --stdout "$base..HEAD" |
		scripts/get_maintainer.pl --no-rolestats --no-git --no-git-fallback 2>/dev/null |
		awk 'NR == 1 { printf "To: %s\n", $0; next } { printf "Cc: %s\n", $0 }')
	# The reporters hear of the fix too.
	reporters=$(grep -h '^Reported-by: ' "$PROJECT_DIR"/patches/0*.patch |
		sort -u | sed 's/^Reported-by: /Cc: /')
	[ -z "$reporters" ] || recipients=$recipients$'\n'$reporters
	SUBJECT=$subject BODY=$body RECIPIENTS=$recipients perl -0pi -e '
		s/\*\*\* SUBJECT HERE \*\*\*/$ENV{SUBJECT}/;
		s/\*\*\* BLURB HERE \*\*\*/$ENV{BODY}/;
		s/^(Subject: .*\n)/$ENV{RECIPIENTS}\n$1/m if $ENV{RECIPIENTS};
	' "$cover"
}

main "$@"
