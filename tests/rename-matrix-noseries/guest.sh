# The matrix catches a missing feature: the same comparison as
# rename-matrix, on the kernel built without kernel-series/ (the pristine
# variant), must fail, since 6.1's ext2 rejects EXCHANGE and WHITEOUT.
. /tests/lib/common.sh
. /tests/lib/matrix.sh
ul_mount_disks || exit 1
matrix_compare > /tmp/matrix.txt
rc=$?
sed -n '/^cases:/,$p' /tmp/matrix.txt
ul_umount_disks || exit 1
exit $rc
