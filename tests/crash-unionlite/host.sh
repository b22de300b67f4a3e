# Issue 6, power cuts on unionlite: 15 cuts (UL_CRASH_CUTS), each at a
# random moment 0.2-3.0 s into the loop of whiteout transitions done with
# the cover letter's recipes. The module runs with step_sync, so each
# step of a recipe is committed on its own and cuts fall between steps.
# After each cut: the journal replay, e2fsck -fn clean, the union in the
# state before or after the operation in flight, work/ empty after the
# mount; and at least one cut left something in work/ (the counts are in
# build/logs/base/crash-unionlite.cuts).
CRASH_NEED_LEFTOVERS=1
. ../lib/crash.sh
crash_host atomic "${UL_CRASH_CUTS:-15}"
