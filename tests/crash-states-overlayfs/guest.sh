# Kernel overlayfs on the same transitions, uppers and runs as
# crash-states and crash-states-ext2 (a write-out at each step boundary
# comes from ul_test_writeout, which counts any union's calls on its
# upper layer), for the table of make crash-states.
. /tests/lib/crash-states.sh
cs_main overlay ext4
cs_main overlay ext2
# judged by the table of make crash-states, not by the status
cs_fini
