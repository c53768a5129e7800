# The loop's util_avg readings of each "@@@ probe" series of a log: count,
# lowest, median and highest (a series is mode= in quiet/, rep= in loaded/;
# readings made after the loop ended carry no util_avg and are skipped).
# Usage: awk -f summary.awk quiet/*.log loaded/*.log
$1 == "@@@" && $2 == "probe" {
	key = FILENAME " " $3
	if (!(key in count)) { order[++nkeys] = key; count[key] = 0 }
	for (i = 3; i <= NF; i++)
		if ($i ~ /^se\.avg\.util_avg=/) { split($i, kv, "="); v[key, ++count[key]] = kv[2] }
}
END {
	for (k = 1; k <= nkeys; k++) {
		key = order[k]; n = count[key]
		if (!n) continue
		for (i = 1; i <= n; i++) a[i] = v[key, i]
		for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
		m = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		printf "%-28s n=%2d lowest=%4d median=%6.1f highest=%4d\n", key, n, a[1], m, a[n]
	}
}
