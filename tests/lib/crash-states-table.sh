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
	BEGIN {
		n = split("entries writes flushes fua states flush/fua checked before after st_ino-only fsck-y violations", names, " ")
		for (i = 1; i <= n; i++) col[names[i]] = 1
		n = 0
	}
	{
		key = $1 " " $2 " " $3
		if (!(key in runs)) order[n++] = key
		runs[key]++
		if ($0 ~ /could not be recorded/) { bad[key]++; next }
		line = $0
		gsub(/[(),]/, " ", line)
		split(line, w, " ")
		# "NAME N" pairs: each counted column follows its name
		for (i = 1; i in w; i++)
			if (w[i] in col && w[i + 1] ~ /^[0-9]+$/)
				sum[key, w[i]] += w[i + 1]
	}
	END {
		printf "%-9s %-28s %-5s %4s %7s %6s %5s %4s %6s %8s %7s %6s %5s %6s %6s %10s\n",
		       "union", "transition", "upper", "runs", "entries", "writes",
		       "flush", "fua", "states", "promised", "checked", "before",
		       "after", "st_ino", "fsck-y", "violations"
		for (i = 0; i < n; i++) {
			k = order[i]
			split(k, f, " ")
			v = sum[k, "violations"] + 0
			printf "%-9s %-28s %-5s %4d %7d %6d %5d %4d %6d %8d %7d %6d %5d %6d %6d %10s\n",
			       f[1], f[2], f[3], runs[k], sum[k, "entries"],
			       sum[k, "writes"], sum[k, "flushes"], sum[k, "fua"],
			       sum[k, "states"], sum[k, "flush/fua"], sum[k, "checked"],
			       sum[k, "before"], sum[k, "after"], sum[k, "st_ino-only"],
			       sum[k, "fsck-y"], (k in bad) ? v "+" bad[k] "?" : v
			tv += v; ts += sum[k, "states"]; tc += sum[k, "checked"]
		}
		printf "total: %d states, %d checked, %d violations\n", ts, tc, tv
	}'
