/@@@ bench load=shell/ { split($5, a, "="); sps = a[2] }
/@@@ util load=shell what=cpu/ { split($5, a, "="); util = a[2] }
/@@@ time cpu=/ { split($3, c, "="); split($4, k, "="); split($5, b, "="); busy[c[2]] += b[2]; e += b[2] * (k[2] / 2000000) ^ 3; w += b[2] * k[2] }
/@@@ trace/ { for (i = 3; i <= NF; i++) { split($i, a, "="); t[a[1]] = a[2] } }
END {
	tb = busy[0] + busy[1]
	printf "%-30s sps %5.1f util %4d busy0 %4d busy1 %4d MHz %4.0f E/s %.3f forks %3d remote%% %4.1f migr/fork %.2f freqchg/fork %.2f\n", FILENAME, sps, util, busy[0]/1000, busy[1]/1000, w/tb/1000, e/3e6, t["forks"], 100*t["remote"]/t["forks"], t["migrations"]/t["forks"], t["freq_events"]/2/t["forks"]
}
