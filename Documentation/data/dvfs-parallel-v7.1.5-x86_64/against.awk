# against.awk -v base=B -v cand=C bench.csv: dvfs.sh's rule with B as the
# reference: C loses a row where its median is worse than B's by more
# than the larger range of the two (own metrics: lower throughput, higher
# lateness; energy: more per second without more of the load's own
# metric beyond the larger range).
function med(k, c,   n, i, j, t, a) {
	n = cnt[k, c]; for (i = 1; i <= n; i++) a[i] = v[k, c, i]
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	lo[k, c] = a[1]; hi[k, c] = a[n]
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
BEGIN {
	FS = ","
	# The rows dvfs.sh judges: each load's own metric, periodic-churn's
	# fork rate and lateness, and energy; the others are diagnostics.
	split("scripts forks execs churn_forks threads round_trips messages", a, " ")
	for (i in a) judged[a[i]] = 1
}
NR > 1 && ($3 == base || $3 == cand) {
	k = $2 SUBSEP $5 SUBSEP $6; keys[k] = 1
	v[k, $3, ++cnt[k, $3]] = $7
	if ($6 in judged) own[$2 SUBSEP $5] = $6
}
END {
	for (k in keys) {
		if (!cnt[k, base] || !cnt[k, cand]) continue
		mb = med(k, base); mc = med(k, cand)
		rb = hi[k, base] - lo[k, base]; rc = hi[k, cand] - lo[k, cand]; r = rb > rc ? rb : rc
		split(k, p, SUBSEP); m = p[3]; verdict = ""
		if (!(m in judged) && m != "energy" && m != "lateness_p99") verdict = "(diagnostic)"
		else if (m == "energy") {
			ko = p[1] SUBSEP p[2] SUBSEP own[p[1] SUBSEP p[2]]
			mob = med(ko, base); moc = med(ko, cand)
			rob = hi[ko, base] - lo[ko, base]; roc = hi[ko, cand] - lo[ko, cand]; ro = rob > roc ? rob : roc
			verdict = (mc - mb > r && !(moc - mob > ro)) ? "LOSES" : "ok"
		} else {
			s = (m ~ /lateness/) ? -1 : 1
			verdict = ((mc - mb) * s < -r) ? "LOSES" : "ok"
		}
		printf "%-8s %-15s %-15s %s %g [%g-%g]  %s %g [%g-%g]  %s\n", p[1], p[2], m, base, mb, lo[k, base], hi[k, base], cand, mc, lo[k, cand], hi[k, cand], verdict
	}
}
