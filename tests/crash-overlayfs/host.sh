# Power cuts on the kernel's overlayfs (the reference): 4 cuts
# (UL_CRASH_CUTS), each at a random moment 0.2-3.0 s into the loop of
# whiteout transitions, then the journal replay, e2fsck -fn and the check
# of the union: no violation, no e2fsck error, work/work as overlayfs
# keeps it after each mount (one whiteout at most).
CRASH_KEEPS_WHITEOUT=1
. ../lib/crash.sh
crash_host atomic "${UL_CRASH_CUTS:-4}"
