# Power cuts on unionlite's broken naive mode (boot "cycle" of
# host.sh): check what the previous cut left, then loop whiteout
# transitions (ul-crash run) until the host cuts the power.
CRASH_FS=unionlite
CRASH_PARAMS="naive=1 step_sync=1 step_pause_ms=10"
. /tests/lib/crash.sh
crash_cycle
