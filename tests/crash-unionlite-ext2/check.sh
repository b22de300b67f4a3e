# Power cuts on unionlite over an ext2 upper (the last boot of
# host.sh): check what the last cut left.
CRASH_FS=unionlite
CRASH_PARAMS="step_sync=1 step_pause_ms=10 trace=1"
CRASH_UPPER_FS=ext2
CRASH_UPPER_OPTS=sync
. /tests/lib/crash.sh
crash_last
