# SPDX-License-Identifier: GPL-2.0
# Read strace output (deps-trace.sh) and append each new path to the file
# out, as "x PATH" (executed) or "o PATH" (opened), flushed at once.
match($0, /(execve|execveat|open|openat)\(/) == 0 { next }
{
	kind = substr($0, RSTART, 4) == "exec" ? "x" : "o"
	rest = substr($0, RSTART)
	if (!match(rest, /"\/[^"]*"/))
		next
	key = kind " " substr(rest, RSTART + 1, RLENGTH - 2)
	if (!(key in seen)) {
		seen[key] = 1
		print key >>out
		fflush(out)
	}
}
