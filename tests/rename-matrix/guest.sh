# The renameat2 matrix (after xfstests generic/023-025 and 078): source
# and target each absent, file, symlink, empty or non-empty dir, in the
# same or different parents, flags 0, NOREPLACE, EXCHANGE, WHITEOUT. ext2
# with kernel-series/ must give exactly ext4's record, case by case.
. /tests/lib/common.sh
. /tests/lib/matrix.sh
ul_mount_disks || exit 1
matrix_compare
rc=$?
ul_umount_disks || exit 1
exit $rc
