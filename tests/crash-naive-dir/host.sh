# The broken variant of recipe 6: unionlite with its test parameter
# naive (the rename first, then the redirect, then the whiteout, each a
# visible step) and step_sync, the cuts aimed at the steps of the
# rename-dir and rename-moved-dir transitions as crash-unionlite aims
# them. The checker must report a violation within 30 cuts
# (UL_CRASH_CUTS); the test stops at the first one.
. ../lib/crash.sh
CRASH_TARGETS="rename-dir rename-moved-dir"
CRASH_AIM=steps
crash_host naive "${UL_CRASH_CUTS:-30}"
