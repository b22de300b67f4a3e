# Issue 6, power cuts against a broken union: ul-crash run --naive does
# each whiteout transition directly on the ext4 upper in two steps with a
# syncfs between them, so a cut between the steps leaves the intermediate
# state on disk. Same driver as crash-overlayfs, a budget of 30 cuts
# (UL_CRASH_CUTS); passes only when a cut is judged a violation (it stops
# at the first: about 1 cut in 3 lands between the steps) and nothing
# else went wrong. Per-cut lines and counts:
# build/logs/base/crash-naive.cuts.
. ../lib/crash.sh
crash_host naive "${UL_CRASH_CUTS:-30}"
