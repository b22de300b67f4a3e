# The power-cut soak on unionlite over an ext4 upper (the last
# boot of host.sh): check what the last cut left.
CRASH_FS=unionlite
CRASH_PARAMS="step_sync=1 step_pause_ms=10 trace=1"
. /tests/lib/crash.sh
crash_last
