# Issue 6, power cuts on unionlite (boot "work" of host.sh): the union
# loops whiteout transitions (ul-crash run) until the host cuts the power.
CRASH_FS=unionlite
. /tests/lib/crash.sh
crash_workload
