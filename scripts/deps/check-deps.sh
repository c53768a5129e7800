#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Check that everything a traced run used comes from a Debian package that
# a fresh Debian 12 machine gets from scripts/install-deps.sh.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR/..
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# What is judged: each program (except the project's own, under
# PROJECT_DIR, BUILD_DIR or /tmp) and each regular file in /usr, /bin,
# /sbin, /lib* or /opt. The set: the packages install-deps.sh installs
# (install-deps.sh --list); what they Depend or Pre-Depend on, recursively
# (not Recommends: the script installs with --no-install-recommends; of
# alternatives, the first one, as apt picks it); the Essential and
# Priority: required packages, which every Debian system has. A file no
# package owns passes when a package of that set owns its directory
# (generated caches: the nearest directory a package owns decides); a
# program no package owns (say, /usr/local/bin/X) passes when /usr/bin/X or
# /usr/sbin/X belongs to the set, since a fresh machine runs that one. Not
# judged: files that programs read when present and do without otherwise
# (configuration in /etc and /usr/lib/ssl, locale data, python's .pth files
# and the _distutils_hack that setuptools' .pth loads), shared objects (a
# program's own come with its package's Depends; the rest are plugins
# loaded when present: NSS modules, ld's bfd-plugins), and directories.
usage() {
	cat <<USAGE
usage: $(basename "$0") [--help] [--verbose] [--without PKG]... TRACE

Check that every program and system file in TRACE (what
scripts/deps/deps-trace.sh recorded) belongs to a package a fresh Debian
12 machine has after install-deps.sh: its packages, what they Depend or
Pre-Depend on (no Recommends), and the Essential and required ones.
Prints each one that does not, with its owner, and exits 1.
  --verbose       also print the packages the run used
  --without PKG   leave PKG out of install-deps.sh's list (what would break)
USAGE
}

# The set: one package name a line. Arguments: packages to leave out of
# install-deps.sh's list.
fresh_machine_packages() {
	{
		"$SCRIPTS_DIR/install-deps.sh" --list | grep -vxF -f <(printf '%s\n' "$@") |
			sed 's/^/seed\t/'
		dpkg-query -W -f='${db:Status-Status}\t${Package}\t${Essential}\t${Priority}\t${Provides}\t${Pre-Depends}, ${Depends}\n'
	} | awk -F'\t' '
		# "a (>= 1) | b:any, c" -> name lists without versions or arch.
		function names(field, out,   n, i) {
			gsub(/\([^)]*\)/, "", field)
			gsub(/:[a-z0-9]+/, "", field)
			gsub(/ /, "", field)
			n = split(field, out, ",")
			return n
		}
		$1 == "seed" { queue[++tail] = $2; next }
		$1 != "installed" { next }
		{
			installed[$2] = 1
			deps[$2] = $6
			if ($3 == "yes" || $4 == "required")
				queue[++tail] = $2
			np = names($5, prov)
			for (i = 1; i <= np; i++)
				if (prov[i] != "")
					providers[prov[i]] = providers[prov[i]] " " $2
		}
		END {
			for (head = 1; head <= tail; head++) {
				p = queue[head]
				if (p in have)
					continue
				if (!(p in installed)) {
					# a virtual package: its installed providers
					np = split(providers[p], prov, " ")
					for (i = 1; i <= np; i++)
						queue[++tail] = prov[i]
					continue
				}
				have[p] = 1
				print p
				nd = names(deps[p], dep)
				for (i = 1; i <= nd; i++) {
					if (dep[i] == "")
						continue
					split(dep[i], alt, "|")
					queue[++tail] = alt[1]
				}
			}
		}'
}

# Owners of every packaged path: "PATH<tab>PACKAGE", /bin, /sbin and /lib*
# spelt under /usr (Debian 12 merges them; dpkg keeps the old names).
owners() {
	local list
	for list in /var/lib/dpkg/info/*.list; do
		printf '%s\n' "$list"
	done | awk '
		{
			file = $0
			pkg = file
			sub(/.*\//, "", pkg); sub(/\.list$/, "", pkg); sub(/:.*/, "", pkg)
			while ((getline path <file) > 0) {
				sub(/^\/(bin|sbin|lib|lib32|lib64|libx32)\//, "/usr&", path)
				sub(/^\/usr\/\//, "/usr/", path)
				print path "\t" pkg
			}
			close(file)
		}'
}

main() {
	local verbose=false without=()
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--verbose) verbose=true; shift ;;
		--without) without+=("${2:-}"); shift 2 || usage_error "--without needs a package" ;;
		-*) usage_error "unknown option $1" ;;
		*) break ;;
		esac
	done
	[ $# -eq 1 ] || { usage >&2; exit 2; }
	local trace=$1 tmp
	[ -r "$trace" ] || usage_error "cannot read $trace"
	[ -s "$trace" ] || die "$trace is empty: nothing was traced"
	need_cmds dpkg-query realpath
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064 # expand now: tmp is local
	trap "rm -rf '$tmp'" EXIT

	fresh_machine_packages "${without[@]}" | sort -u >"$tmp/fresh"
	owners >"$tmp/owners"
	# Each used path: kind, path, the path with its links resolved (both
	# spelt the /usr way). Only system paths; programs anywhere.
	awk -v own="^($PROJECT_DIR|$BUILD_DIR|/tmp)/" '
		$1 == "x" && substr($0, 3) ~ own { next }
		$1 == "o" && $2 ~ /^\/(usr\/)?(share\/locale|lib\/locale|lib\/ssl)\// { next }
		# python runs every .pth in site-packages at start, and setuptools
		# installs one that loads its _distutils_hack: both are there only
		# when some package put them there.
		$1 == "o" && ($2 ~ /\.pth$/ || $2 ~ /\/dist-packages\/_distutils_hack\//) { next }
		# Shared objects: those a program needs come with its package
		# Depends; the others are plugins loaded when present (the NSS
		# modules nsswitch.conf names, the bfd-plugins of ld, and their libs).
		$1 == "o" && $2 ~ /\.so(\.[0-9.]+)?$/ { next }
		$1 == "x" || $2 ~ /^\/(usr|bin|sbin|lib|lib32|lib64|libx32|opt)\// {
			print $1 "\t" substr($0, 3)
		}' "$trace" | sort -u >"$tmp/used"
	# Resolved links, or "" for what is gone or not a regular file.
	cut -f2 "$tmp/used" | while IFS= read -r path; do
		if [ -f "$path" ]; then realpath -e -- "$path" 2>/dev/null || echo ""; else echo ""; fi
	done >"$tmp/real"
	paste "$tmp/used" "$tmp/real" | awk -F'\t' '$3 != ""' |
		awk -F'\t' 'BEGIN { OFS = "\t" }
			{ for (i = 2; i <= 3; i++) sub(/^\/(bin|sbin|lib|lib32|lib64|libx32)\//, "/usr&", $i)
			  print }' >"$tmp/paths"

	awk -F'\t' -v verbose="$verbose" '
		FILENAME ~ /fresh$/ { fresh[$1] = 1; next }
		FILENAME ~ /owners$/ { owner[$1] = owner[$1] " " $2; next }
		# owned_by_fresh(path): the fresh package owning it, "" if none
		# owns it, "-OWNER" if only packages outside the set do.
		function owned_by_fresh(path,   n, o, i) {
			if (!(path in owner))
				return ""
			n = split(owner[path], o, " ")
			for (i = 1; i <= n; i++)
				if (o[i] in fresh)
					return o[i]
			return "-" o[1]
		}
		function dir_of(path) { sub(/\/[^\/]*$/, "", path); return path }
		function base_of(path) { sub(/.*\//, "", path); return path }
		{
			kind = $1; path = $2; real = $3
			paths++
			got = owned_by_fresh(path)
			if (got == "" || got ~ /^-/) {
				g2 = owned_by_fresh(real)
				if (g2 != "") got = g2
			}
			if (got == "" && kind == "x") {
				g2 = owned_by_fresh("/usr/bin/" base_of(path))
				if (g2 == "" || g2 ~ /^-/) g2 = owned_by_fresh("/usr/sbin/" base_of(path))
				if (g2 != "" && g2 !~ /^-/) got = g2
			}
			# A generated file: its nearest packaged directory decides.
			for (d = dir_of(real); got == "" && kind == "o" && d != ""; d = dir_of(d))
				got = owned_by_fresh(d)
			if (got != "" && got !~ /^-/) {
				used[got]++
				next
			}
			what = kind == "x" ? "program" : "file"
			if (got != "") {
				got = substr(got, 2)
				printf "missing: %s %s is in package %s, which install-deps.sh does not install\n",
					what, path, got
				need[got] = 1
			} else {
				printf "missing: %s %s belongs to no package a fresh machine gets\n", what, path
			}
			bad++
		}
		END {
			n = 0
			for (p in used) n++
			if (verbose == "true")
				for (p in used) printf "used: %s (%d paths)\n", p, used[p]
			for (p in need) add = add " " p
			if (bad)
				printf "%d paths not provided; packages to add to install-deps.sh:%s\n", bad, add
			else
				printf "all %d system paths used come from %d packages a fresh machine gets\n", paths, n
			exit bad > 0
		}' "$tmp/fresh" "$tmp/owners" "$tmp/paths"
}

run_main "$@"
