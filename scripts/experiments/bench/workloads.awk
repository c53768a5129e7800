# SPDX-License-Identifier: GPL-2.0
# The loads the guest program knows, read from its table of loads in
# guest/workloads.c (the one list of them, which bench.sh and dvfs.sh
# read through this file), so that a load name is checked on the host
# before any kernel is built.
#   awk -v list=WHICH -f workloads.awk workloads.c
#       prints the names, space-separated: all, default (those run when
#       none is named), wakeup (the wakeup-heavy loads, run only when
#       named) or probes (run only when named)
#   awk -v check="L..." -f workloads.awk workloads.c
#       prints what is wrong with the names L (nothing when each is a
#       load), for a usage error
# An entry of the table reads
#   { "name", "metric", "unit", fn, per_second, sample, probe, named_only },
/^} loads\[\] = \{$/ { inside = 1; next }
inside && /^};$/ { inside = 0; next }
inside && /^\t\{ "[a-z-]+",/ {
	split($0, quoted, "\"")
	name = quoted[2]
	n = split($0, words, /[ \t,{}]+/)
	# The last two booleans: probe, named_only.
	probe = words[n - 2] == "true"
	named_only = words[n - 1] == "true"
	kind[name] = probe ? "probes" : named_only ? "wakeup" : "default"
	names[++count] = name
}
END {
	if (!count) {
		print "no table of loads in " FILENAME >"/dev/stderr"
		exit 1
	}
	for (i = 1; i <= count; i++) {
		known[names[i]] = 1
		all = all (i > 1 ? " " : "") names[i]
		if (kind[names[i]] == list)
			listed = listed (listed == "" ? "" : " ") names[i]
	}
	if (list != "") {
		print list == "all" ? all : listed
		exit
	}
	nw = split(check, wanted, " ")
	for (i = 1; i <= nw; i++)
		if (!(wanted[i] in known))
			unknown = unknown (nunknown++ ? ", " : "") "'" wanted[i] "'"
	if (nunknown)
		print "unknown load" (nunknown > 1 ? "s " : " ") unknown ": expected any of: " all
}
