#!/bin/bash
# SPDX-License-Identifier: MIT
# The table of "make bench-stream": from the guest's lines (bench-stream.sh),
# per producer rate, CPUs writing and mode, the medians of events written a
# second, of events delivered (in all, and a second over the writers'
# time), of the share lost, merged against --per-cpu (events delivered:
# the same work in both), and how many runs accounted for every
# event (delivered plus the counts of the loss lines = written).
#   stream-table.sh RESULTS_FILE > CSV
set -euo pipefail
[ $# = 1 ] && [ -f "$1" ] || {
	echo "usage: stream-table.sh RESULTS_FILE" >&2
	exit 2
}
echo '"CPU 0 writes (events/s)","CPUs writing","mode","runs","written/s","delivered","delivered/s","lost %","delivered vs --per-cpu","runs with delivered + missed = written"'
awk '
function median(list,   n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
	delete v
	for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["cs"] <= 0 || v["produced"] <= 0) next
	if (!(v["rate"] in seen)) { seen[v["rate"]] = 1; rates[++nrates] = v["rate"] }
	k = v["rate"] " " v["busy"] " " v["mode"]
	runs[k]++
	w[k] = w[k] " " v["produced"] * 100 / v["cs"]
	d[k] = d[k] " " v["delivered"] * 100 / v["cs"]
	n[k] = n[k] " " v["delivered"]
	l[k] = l[k] " " (v["produced"] - v["delivered"]) * 100 / v["produced"]
	exact[k] += v["delivered"] + v["missed"] == v["produced"]
}
END {
	for (r = 1; r <= nrates; r++) for (b = 1; b <= 2; b++) for (m = 0; m < 2; m++) {
		k = rates[r] " " b " " (m ? "per-cpu" : "merged")
		if (!(k in runs)) continue
		dn = median(n[k])
		pk = rates[r] " " b " per-cpu"
		rel = (pk in runs) ? sprintf("%.0f %%", 100 * dn / median(n[pk])) : ""
		printf "\"%s\",\"%s\",\"%s\",%d,%.0f,%.0f,%.0f,%.1f,\"%s\",%d\n", rates[r] == 0 ? "as fast as it can" : rates[r], b == 1 ? "1 (CPU 1 idle)" : "2", m ? "--per-cpu" : "merged", runs[k], median(w[k]), dn, median(d[k]), median(l[k]), rel, exact[k]
	}
}' "$1"
