# Issue 6 soak: crash-overlayfs with UL_CRASH_CUTS cuts (default 1000,
# about 13 s per cut under TCG: 3.5 h). Run by "make soak" or by name
# only (KIND=soak). Prints every cut's line and the summary (cuts,
# violations, e2fsck errors, leftovers cleaned); no golden file, the
# exit status judges it.
CRASH_VERBOSE=1
. ../lib/crash.sh
crash_host overlayfs "${UL_CRASH_CUTS:-1000}"
