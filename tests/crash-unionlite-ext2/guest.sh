# Power cuts on unionlite over an ext2 upper (boot "cycle" of
# host.sh): the lower on the ext4 disk (read-only), upper and work on the
# ext2 disk mounted with sync; check what the previous cut left, then
# loop the transitions of the kind the host aims at until the cut.
CRASH_FS=unionlite
CRASH_PARAMS="step_sync=1 step_pause_ms=10 trace=1"
CRASH_PAUSE=20
CRASH_UPPER_FS=ext2
CRASH_UPPER_OPTS=sync
. /tests/lib/crash.sh
crash_cycle
