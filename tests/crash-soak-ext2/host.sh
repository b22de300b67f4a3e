# Soak on an ext2 upper: crash-unionlite-ext2 with UL_CRASH_CUTS
# cuts (default 1000; make crash-soak N=...), spread over the transitions
# as in crash-soak. Measured, not judged, as crash-unionlite-ext2: prints
# every cut's line, the summary and the table per transition (cuts, the
# state seen, cuts between two steps, violations, repairs by e2fsck -p and
# by e2fsck -fy); it fails only on what is no measurement.
CRASH_VERBOSE=1
CRASH_UPPER_FS=ext2
CRASH_TARGETS=${UL_CRASH_TARGETS:-all}
CRASH_DELAY_MS="150 900"
[ -n "${UL_CRASH_TARGETS:-}" ] || CRASH_NEED_LEFTOVERS=1
. ../lib/crash.sh
crash_host measure "${UL_CRASH_CUTS:-1000}"
