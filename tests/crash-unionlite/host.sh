# Issue 6, power cuts on unionlite: 10 cuts in make test (UL_CRASH_CUTS),
# each at a random moment 0.2-3.0 s into the loop of whiteout transitions
# done with the cover letter's recipes, then journal replay, e2fsck -fn
# of the upper image and the check of the union: no violation, no e2fsck
# error, work/ empty after each mount (what a cut left there is counted
# in build/logs/base/crash-unionlite.cuts).
. ../lib/crash.sh
crash_host unionlite "${UL_CRASH_CUTS:-10}"
