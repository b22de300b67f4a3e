# Issue 6, power cuts on the kernel's overlayfs (the reference, showing
# the checker raises no false alarm): 10 cuts (UL_CRASH_CUTS; the
# product's own crash test will run 30), each at a random moment 0.2-3.0 s into the loop of
# whiteout transitions, then journal replay, e2fsck -fn of the upper
# image, and the check of the union. No violation, no e2fsck error, and
# overlayfs's work/ must be empty after each mount. Per-cut lines and the
# numbers that vary: build/logs/base/crash-overlayfs.cuts.
. ../lib/crash.sh
crash_host overlayfs "${UL_CRASH_CUTS:-10}"
