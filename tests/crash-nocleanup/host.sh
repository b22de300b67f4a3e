# The broken variant of the mount: unionlite with its test
# parameter skip_work_cleanup (what a cut left in work/ stays there) and
# step_sync. The same cuts as crash-unionlite must find work/ not empty
# after a mount within 30 cuts (UL_CRASH_CUTS); the test stops at the
# first one.
. ../lib/crash.sh
crash_host nocleanup "${UL_CRASH_CUTS:-30}"
