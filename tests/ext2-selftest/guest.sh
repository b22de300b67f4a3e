# The kselftest that kernel-series/ adds (filesystems/ext2/rename_test),
# built static and run on the ext2 disk: exchange and whiteout cases with
# times, then EMLINK on a parent whose link count host-pre.sh raised to
# EXT2_LINK_MAX with debugfs (host-post.sh puts it back before e2fsck).
. /tests/lib/common.sh
ul_mount_disks || exit 1
mkdir $UL_EXT2/t
ext2-rename-selftest $UL_EXT2/t
rc=$?
ext2-rename-selftest -e $UL_EXT2/e || rc=1
ul_umount_disks || exit 1
exit $rc
