#!/bin/bash
# crash-states-table.sh LOG...: the table of make crash-states from the
# consoles of tests/crash-states* (their "run ..." lines, see
# tests/lib/crash-states.sh): one row per union, transition and upper,
# the runs of that transition summed. Columns: runs (1 + one per step
# boundary on unionlite), the log's entries (writes, flushes and FUA
# writes), the crash states (one per entry and the one at the mark) and
# those the storage promises (at flush and FUA), how many of them were
# checked, how many had the view before, after, equal but for st_ino,
# e2fsck -p giving up, and violations.
set -euo pipefail
for log in "$@"; do
	case $log in
	*crash-states-overlayfs*) u=overlayfs ;;
	*) u=unionlite ;;
	esac
	tr -d '\r' < "$log" | sed -n "s/^run /$u /p"
done | awk '
	{
		key = $1 " " $2 " " $3
		if (!(key in runs)) order[n++] = key
		runs[key]++
		if ($0 ~ /could not be recorded/) { bad[key]++; next }
		line = $0
		gsub(/[(),]/, " ", line)
		split(line, w, " ")
		for (i = 1; i in w; i++) {
			if (w[i] == "entries") ent[key] += w[i + 1]
			if (w[i] == "writes") wr[key] += w[i + 1]
			if (w[i] == "flushes") fl[key] += w[i + 1]
			if (w[i] == "fua") fu[key] += w[i + 1]
			if (w[i] == "states") st[key] += w[i + 1]
			if (w[i] == "flush/fua") pr[key] += w[i + 1]
			if (w[i] == "checked") ck[key] += w[i + 1]
			if (w[i] == "before") be[key] += w[i + 1]
			if (w[i] == "after") af[key] += w[i + 1]
			if (w[i] == "st_ino-only") ino[key] += w[i + 1]
			if (w[i] == "fsck-y") fy[key] += w[i + 1]
			if (w[i] == "violations") vi[key] += w[i + 1]
		}
	}
	END {
		printf "%-9s %-28s %-5s %4s %7s %6s %5s %4s %6s %8s %7s %6s %5s %6s %6s %10s\n",
		       "union", "transition", "upper", "runs", "entries", "writes",
		       "flush", "fua", "states", "promised", "checked", "before",
		       "after", "st_ino", "fsck-y", "violations"
		for (i = 0; i < n; i++) {
			k = order[i]
			split(k, f, " ")
			printf "%-9s %-28s %-5s %4d %7d %6d %5d %4d %6d %8d %7d %6d %5d %6d %6d %10s\n",
			       f[1], f[2], f[3], runs[k], ent[k], wr[k], fl[k], fu[k],
			       st[k], pr[k], ck[k], be[k], af[k], ino[k], fy[k],
			       (k in bad) ? vi[k] "+" bad[k] "?" : vi[k]
			tv += vi[k]; ts += st[k]; tc += ck[k]
		}
		printf "total: %d states, %d checked, %d violations\n", ts, tc, tv
	}'
