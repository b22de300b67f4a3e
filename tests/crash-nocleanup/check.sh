# Power cuts on unionlite without the work dir cleanup (the
# last boot of host.sh): check what the last cut left.
CRASH_FS=unionlite
CRASH_PARAMS="skip_work_cleanup=1 step_sync=1 step_pause_ms=10"
. /tests/lib/crash.sh
crash_last
