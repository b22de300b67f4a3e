# Power cuts on the kernel's overlayfs (the last boot of
# host.sh): check what the last cut left.
. /tests/lib/crash.sh
crash_last
