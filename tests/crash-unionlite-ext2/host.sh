# Power cuts on unionlite over an ext2 upper: crash-unionlite's
# cuts, aims (UL_CRASH_AIM) and stop rule, with upper and work on the ext2 disk (the
# series gives ext2 RENAME_EXCHANGE and RENAME_WHITEOUT). ext2 has no
# journal, and step_sync commits nothing on it (ext2's sync_fs writes
# only its superblock): the disk is mounted with sync instead, so each
# step's directory blocks are written before the step returns. After
# each cut e2fsck -p (preen) repairs the image, or e2fsck -fy when preen
# gives up; then e2fsck -fn must be clean and the union is checked as on
# ext4. Measured, not judged: the states seen, the violations and the
# repairs are counted per transition in
# build/logs/TREE-base/crash-unionlite-ext2.cuts; the test fails on what is
# no measurement (an image e2fsck cannot repair, a check that cannot
# run, a kernel warning, work/ not empty after a mount, too few cuts).
CRASH_UPPER_FS=ext2
. ../lib/crash.sh
crash_every_transition measure
