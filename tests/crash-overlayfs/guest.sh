# Issue 6, power cuts (boot "work" of host.sh): the kernel's overlayfs
# loops whiteout transitions (ul-crash run) until the host cuts the power.
. /tests/lib/crash.sh
crash_workload
