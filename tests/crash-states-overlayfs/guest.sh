# Kernel overlayfs on the same transitions and uppers as crash-states and
# crash-states-ext2, for the table of make crash-states. overlayfs has no
# sync_steps: one run per transition, written out by its syncfs.
. /tests/lib/crash-states.sh
cs_main overlay ext4
cs_main overlay ext2
# judged by the table of make crash-states, not by the status
cs_fini
