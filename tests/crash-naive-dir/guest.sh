# Power cuts on unionlite's naive mode aimed at recipe 6 (crash-naive-dir's
# host.sh): the moved directory's redirect is set after the rename.
CRASH_FS=unionlite
CRASH_PARAMS="naive=1 step_sync=1 trace=1"
CRASH_PAUSE=20
. /tests/lib/crash.sh
crash_cycle
