# Issue 6, power cuts on unionlite (boot "check" of host.sh): work/
# leftovers, then the union against the last synced operation.
CRASH_FS=unionlite
. /tests/lib/crash.sh
crash_check
