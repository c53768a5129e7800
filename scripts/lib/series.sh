# shellcheck shell=bash disable=SC2034 # the variables are for the scripts that source lib.sh
# SPDX-License-Identifier: GPL-2.0
# The series of patches/: their patches and prerequisites.
# Sourced by scripts/lib.sh, never run.

# series_patches DIR: the patches of a series in patches/, in order, the
# cover letter left out.
series_patches() {
	find "$1" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort
}

# series_prerequisites DIR: set PREREQUISITES to the series that go
# before DIR's, in order: DIR/prerequisites names them, one directory of
# patches/ per line. Run in the caller's shell, so that a bad name stops it.
series_prerequisites() {
	local name
	PREREQUISITES=()
	[ -f "$1/prerequisites" ] || return 0
	while read -r name; do
		[ -n "$name" ] || continue
		[ -d "$PROJECT_DIR/patches/$name" ] ||
			die "${1#"$PROJECT_DIR"/}/prerequisites names $name, which is not a directory of patches/"
		PREREQUISITES+=("$PROJECT_DIR/patches/$name")
	done <"$1/prerequisites"
}

# series_original_authors DIR: set ORIGINAL_AUTHORS to the authors whose
# own signed patches patches of DIR rework: DIR/original-authors, one
# "Name <email>" a line ("# why" after it, or on lines of its own).
# They stay authors of those patches, with their Signed-off-by: (the
# submitter signs after them), and are the only identities beside the
# submitter's that the mail may carry.
series_original_authors() {
	local line
	ORIGINAL_AUTHORS=()
	[ -f "$1/original-authors" ] || return 0
	while IFS= read -r line; do
		line=${line%%#*}
		line=${line%"${line##*[! ]}"}
		[ -n "$line" ] || continue
		[[ "$line" =~ ^[^\<\>]+\ \<[^\<\>\ ]+@[^\<\>\ ]+\>$ ]] ||
			die "${1#"$PROJECT_DIR"/}/original-authors: \"$line\" is not \"Name <email>\""
		ORIGINAL_AUTHORS+=("$line")
	done <"$1/original-authors"
}

# is_original_author "NAME <EMAIL>": true when series_original_authors
# listed it.
is_original_author() {
	local a
	for a in "${ORIGINAL_AUTHORS[@]}"; do
		[ "$a" != "$1" ] || return 0
	done
	return 1
}
