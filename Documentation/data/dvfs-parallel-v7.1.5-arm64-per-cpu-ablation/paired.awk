# paired ratio of each kernel to the reference in the same boot round
BEGIN { FS="," }
NR > 1 && ($6 == m) && ($5 == l) { v[$2, $3, $4] = $7; ks[$3] = 1; ps[$2] = 1 }
END {
	for (p in ps) for (k in ks) {
		if (k == "reference") continue
		n = 0
		for (b = 1; b <= 5; b++) if (((p, k, b) in v) && ((p, "reference", b) in v)) r[++n] = v[p, k, b] / v[p, "reference", b]
		for (i = 2; i <= n; i++) for (j = i; j > 1 && r[j-1] > r[j]; j--) { t = r[j]; r[j] = r[j-1]; r[j-1] = t }
		if (n) printf "%s %s %s %s: median %.3f [%.3f-%.3f] n=%d\n", p, l, m, k, n % 2 ? r[(n+1)/2] : (r[n/2] + r[n/2+1]) / 2, r[1], r[n], n
	}
}
