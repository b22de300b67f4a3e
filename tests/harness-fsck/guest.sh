# Harness self-test: the guest leaves a clean ext4 image; the host then
# corrupts it (test.conf HOST_POST), and e2fsck must catch that.
. /tests/lib/common.sh
ul_mount_disks || exit 1
echo data > $UL_EXT4/file
ul_umount_disks || exit 1
echo "images left clean"
