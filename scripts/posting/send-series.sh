#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Turn a committed series of patches/ into mail from whoever runs this:
# scripts/posting/make-series.sh regenerates it, outside patches/, with the
# runner's git identity as author and Signed-off-by, recipients from the
# tree's own get_maintainer.pl; the mail is checked to carry that
# identity and no other (and no placeholder address); git send-email
# then shows what it would send, or sends it.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/..
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] [--out OUT] [--send] [--held-too] DIR

Make the mail of the series in DIR (e.g. patches/mainline-fixes) in OUT
(default build/outgoing/<name of DIR>), from you, and show it with git
send-email --dry-run; with --send, send it. Refused before any work: a
series that waits (DIR/hold or DIR/end-of-life says why) unless
--held-too; a series made on mainline without KERNEL_SRC (a V.P.y one
where V.P is not Debian's tree's); a git identity unset or a
placeholder. make-series.sh --out OUT DIR then makes the mail, signed
by you, and every From:, Signed-off-by: and address in it is checked
(Documentation/harness.md, "Posting"). DIR is left as it is. Exits 0
when the mail is made, checked and shown (or sent), else 1.
USAGE
}

# series_tree_error DIR: why this run cannot make DIR's mail on the tree
# it would use, before any work on it; nothing when it can.
series_tree_error() {
	local name=${1##*/} base debian
	[ -z "${KERNEL_SRC:-}" ] || return 0
	if [[ "$name" =~ ^([0-9]+\.[0-9]+)\.y$ ]]; then
		debian=$(basename "$DEBIAN_TARBALL" .tar.xz)
		[ "${debian#linux-source-}" != "${BASH_REMATCH[1]}" ] || return 0
		echo "patches/$name is made on a ${BASH_REMATCH[1]}.y tree: set KERNEL_SRC to one (Debian's tree is ${debian#linux-source-})"
		return
	fi
	base=$(sed -n 's/^base-commit: //p' "$1/0000-cover-letter.patch")
	echo "patches/$name is made on mainline${base:+ (base-commit ${base:0:12})}: set KERNEL_SRC to that kernel git tree (patches/README names its release)"
}

# is_placeholder ADDRESS: true for an address in a reserved domain.
is_placeholder() {
	local domain=${1##*@}
	domain=${domain%>}
	domain=${domain,,}
	[[ "$domain" =~ (^|\.)(example|invalid|test|localhost)$ ||
		"$domain" =~ (^|\.)example\.(com|net|org)$ || "$1" != *@* ]]
}

# mail_identity_errors OUT "NAME <EMAIL>": one line per From: or
# Signed-off-by: that is neither the runner's nor an original author's
# (series_original_authors), per patch an original author signed that
# the runner did not sign after them, and per placeholder address in a
# header or trailer of the mail in OUT; nothing when all is well.
mail_identity_errors() {
	local out=$1 me=$2 f line addr from sobs
	for f in "$out"/*.patch; do
		from=$(sed -n '/^$/q; s/^From: //p' "$f")
		[ "$from" = "$me" ] || is_original_author "$from" ||
			echo "$(basename "$f"): From: $from"
		sobs=$(grep '^Signed-off-by: ' "$f" | sed 's/^Signed-off-by: //' || true)
		while IFS= read -r line; do
			[ -n "$line" ] || continue
			[ "$line" = "$me" ] || is_original_author "$line" ||
				echo "$(basename "$f"): Signed-off-by: $line"
		done <<<"$sobs"
		# The last sign-off is the sender's: the chain ends with who
		# handled the patch last.
		[ -z "$sobs" ] || [ "$(tail -n 1 <<<"$sobs")" = "$me" ] ||
			echo "$(basename "$f"): the last Signed-off-by: is not $me"
		# Headers up to the first blank line, and the trailers of the
		# message (before the ---): any address there.
		while IFS= read -r addr; do
			! is_placeholder "$addr" || echo "$(basename "$f"): placeholder address $addr"
		done < <({ sed '/^$/q' "$f"; sed -n '/^$/,/^---$/p' "$f" | grep -E '^[A-Za-z-]+: .*@'; } |
			grep -oE '[^<> ,"]+@[^<> ,"]+' | sort -u)
	done
}

main() {
	local dir="" out="" send=false held_too=false name email me errors hold
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--send) send=true; shift ;;
		--held-too) held_too=true; shift ;;
		--out)
			out=${2:-}
			shift 2 || usage_error "--out needs a directory"
			[ -n "$out" ] || usage_error "--out needs a directory"
			;;
		-*) usage_error "unknown option $1" ;;
		*)
			[ -z "$dir" ] || usage_error "one series directory expected"
			[ -f "$1/0000-cover-letter.patch" ] || usage_error "$1 is not a series directory (no 0000-cover-letter.patch)"
			dir=$(cd "$1" && pwd)
			shift
			;;
		esac
	done
	[ -n "$dir" ] || usage_error "which series? e.g. patches/mainline-fixes"
	for hold in "$dir/hold" "$dir/end-of-life"; do
		$held_too || [ ! -f "$hold" ] ||
			die "${dir#"$PROJECT_DIR"/} waits: $(tr '\n' ' ' <"$hold")(${hold#"$PROJECT_DIR"/}; --held-too makes its mail all the same)"
	done
	errors=$(series_tree_error "$dir")
	[ -z "$errors" ] || die "$errors"
	[ -n "$out" ] || out=$PROJECT_DIR/build/outgoing/$(basename "$dir")
	[ "$(cd "$(dirname "$out")" 2>/dev/null && pwd)/$(basename "$out")" != "$dir" ] ||
		usage_error "--out must not be the series directory itself"
	if ! name=$(git -C "$PROJECT_DIR" config user.name) ||
		! email=$(git -C "$PROJECT_DIR" config user.email); then
		die "set your git identity (git config user.name / user.email): the mail is from you and signed by you"
	fi
	! is_placeholder "$email" ||
		die "your git identity <$email> is a placeholder (a domain reserved for examples and tests): set your own"
	command -v git-send-email >/dev/null || [ -x "$(git --exec-path)/git-send-email" ] ||
		die "git send-email is missing (Debian: git-email; scripts/install-deps.sh installs it)"
	me="$name <$email>"

	log "making the mail of ${dir#"$PROJECT_DIR"/}/ in $out"
	"$SCRIPTS_DIR/posting/make-series.sh" --out "$out" "$dir"
	series_original_authors "$dir"
	errors=$(mail_identity_errors "$out" "$me")
	[ -z "$errors" ] || die "the mail in $out is not yours alone:"$'\n'"$errors"
	log "every From: and Signed-off-by: is $me${ORIGINAL_AUTHORS[*]:+ or an original author (${ORIGINAL_AUTHORS[*]})}; no placeholder address"

	local args=(--from "$me" --to-cover --cc-cover --confirm=never)
	if $send; then
		git -C "$PROJECT_DIR" send-email "${args[@]}" "$out"/*.patch
	else
		git -C "$PROJECT_DIR" send-email --dry-run "${args[@]}" "$out"/*.patch
		log "dry run: nothing was sent; --send sends it"
	fi
}

run_main "$@"
