# The broken variant of the recipes: unionlite with its test
# parameter naive (each transition in two visible steps: rmdir then
# whiteout, unlink whiteout then mkdir...) and step_sync. The same kind
# of cuts and checker as crash-unionlite must report a violation within
# 30 cuts (UL_CRASH_CUTS); the test stops at the first one.
. ../lib/crash.sh
crash_host naive "${UL_CRASH_CUTS:-30}"
