# Issue 6, power cuts (boot "check" of host.sh): work/ leftovers, then the
# union against the last synced operation (ul-crash check).
. /tests/lib/crash.sh
crash_check
