# The power-cut soak on unionlite over an ext4 upper (boot
# "cycle" of host.sh): as crash-unionlite's.
CRASH_FS=unionlite
CRASH_PARAMS="step_sync=1 step_pause_ms=10 trace=1"
CRASH_PAUSE=20
. /tests/lib/crash.sh
crash_cycle
