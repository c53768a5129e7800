# SPDX-License-Identifier: GPL-2.0
# Functions for the scripts' awk programs (awk -f stats.awk -f ...).

# sort(a, n): sort a[1..n] in place, ascending (n is small).
function sort(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
}

# median(a, n): the median of a[1..n]; leaves a sorted.
function median(a, n) {
	sort(a, n)
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

# The tables of bench.sh and dvfs.sh: values per row key and kernel, in
# val[key, v, 1..count[key, v]]; the row keys in keys[1..nkeys], in the
# order first seen (seen[key] set).
function add(key, v, x) {
	if (!(key in seen)) { seen[key] = 1; keys[++nkeys] = key }
	val[key, v, ++count[key, v]] = x
}

# range_spread(key, c): the larger of the reference's and c's ranges
# (hi - lo, as the tables' summary() sets them), the run-to-run spread
# a median must exceed to count.
function range_spread(key, c,   s) {
	s = hi[key, "reference"] - lo[key, "reference"]
	if (hi[key, c] - lo[key, c] > s) s = hi[key, c] - lo[key, c]
	return s
}
