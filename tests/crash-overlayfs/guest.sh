# Power cuts on the kernel's overlayfs (boot "cycle" of
# host.sh): check what the previous cut left, then loop whiteout
# transitions (ul-crash run) until the host cuts the power.
. /tests/lib/crash.sh
crash_cycle
