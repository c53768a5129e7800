# SPDX-License-Identifier: GPL-2.0
# The guests' console, read by every tool's awk program: loaded before it
# (awk -f scripts/console.awk -f PROGRAM), as stats.awk is.
#
# What a guest's console holds (scripts/guest/init and its jobs), after
# the kernel's own lines; every line ends in "\r\n" on the serial
# console, so each reader deletes the "\r" first:
#   @@@ guest-begin            the job starts
#   @@@ guest-end rc=N         the job ended with status N
#   @@@ TAG k=v k=v ...        a record of a job: TAG names it (bench,
#                              util, profile, cost, diag, dvfs, ...), its
#                              fields are k=v words, values without spaces
#   TAP version 13, 1..N, ok N NAME, not ok N NAME, "# SKIP reason"
#                              kselftest's output: the runner's own lines
#                              at the left, the test's own prefixed with
#                              "# " (twice for a nested test)
#   # k=v ...                  the selftest's and pelt_stress's figures
#                              (e.g. "# run setup=cgroup ...", "# done: ")
# What makes a boot fail is read from the same log by guest-boot.sh
# (console_splat in scripts/lib/guest.sh; a panic; no guest-end).

# kv(name): the value of the word name=VALUE on the current line, all of
# it after the first "="; "" when the line has no such word. A value
# comes from split(), so that one that looks like a number compares as a
# number ("1019" >= 972.8), as a field does; substr() would give a string.
function kv(name,   i) {
	for (i = 1; i <= NF; i++)
		if (index($i, name "=") == 1)
			return kv_val($i)
	return ""
}

# kv_key(word), kv_val(word): the two sides of one k=v word.
function kv_key(word) {
	return index(word, "=") ? substr(word, 1, index(word, "=") - 1) : word
}

function kv_val(word,   part) {
	if (split(word, part, "=") == 2)
		return part[2]
	return index(word, "=") ? substr(word, index(word, "=") + 1) : ""
}
