# Power cuts on unionlite's broken naive mode (the last boot of
# host.sh): check what the last cut left.
CRASH_FS=unionlite
CRASH_PARAMS="naive=1 step_sync=1 step_pause_ms=10"
. /tests/lib/crash.sh
crash_last
