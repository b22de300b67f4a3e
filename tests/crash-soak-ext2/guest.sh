# The power-cut soak on unionlite over an ext2 upper (boot
# "cycle" of host.sh): as crash-unionlite-ext2's.
CRASH_FS=unionlite
CRASH_PARAMS="step_sync=1 step_pause_ms=10 trace=1"
CRASH_PAUSE=20
CRASH_UPPER_FS=ext2
CRASH_UPPER_OPTS=sync
. /tests/lib/crash.sh
crash_cycle
