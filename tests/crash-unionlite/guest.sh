# Power cuts on unionlite over an ext4 upper (boot "cycle" of
# host.sh): check what the previous cut left, then loop the whiteout
# transitions of the kind the host aims at (ul.crash=CLASS; ul-crash run)
# until the host cuts the power.
CRASH_FS=unionlite
CRASH_PARAMS="step_sync=1 step_pause_ms=10 trace=1"
CRASH_PAUSE=20
. /tests/lib/crash.sh
crash_cycle
