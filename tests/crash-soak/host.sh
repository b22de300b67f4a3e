# Issue 6 soak: crash-unionlite with UL_CRASH_CUTS cuts (default 1000;
# make crash-soak N=...). Run by "make soak", "make crash-soak" or by name
# only (KIND=soak). Prints every cut's line and the summary (cuts,
# violations, e2fsck errors, leftovers cleaned); no golden file, the exit
# status judges it.
CRASH_VERBOSE=1
CRASH_NEED_LEFTOVERS=1
. ../lib/crash.sh
crash_host atomic "${UL_CRASH_CUTS:-1000}"
