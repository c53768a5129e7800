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
