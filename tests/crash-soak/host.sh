# Soak: crash-unionlite with UL_CRASH_CUTS cuts (default 1000;
# make crash-soak N=...), spread over the transitions as evenly as the
# cuts allow (each boot aims at the one with the fewest so far). Run by
# "make soak", "make crash-soak" or by name only (KIND=soak). Prints
# every cut's line, the summary and the table per transition (cuts, the
# state seen, cuts between two steps, violations); no golden file, the
# exit status judges it.
CRASH_VERBOSE=1
CRASH_TARGETS=${UL_CRASH_TARGETS:-all}
CRASH_DELAY_MS="150 900"
[ -n "${UL_CRASH_TARGETS:-}" ] || CRASH_NEED_LEFTOVERS=1
. ../lib/crash.sh
crash_host atomic "${UL_CRASH_CUTS:-1000}"
