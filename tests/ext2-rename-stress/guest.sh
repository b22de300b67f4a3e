# Stress: 10,000 random exchanges and whiteout-renames between files and
# directories of a small tree on ext2 (2,000 on the debug kernel, where
# KASAN and lockdep make each one ~20 times slower), then a walk that checks link
# counts, "..", whiteouts and contents (e2fsck -fn follows on the host).
# The same seed on ext4 must leave the very same tree.
. /tests/lib/common.sh
ul_mount_disks || exit 1
mkdir $UL_EXT2/s $UL_EXT4/s
ops=10000
[ "$UL_VARIANT" = debug ] && ops=2000
ul-rename-stress $UL_EXT2/s $ops 1 > /tmp/ext2.txt
rc=$?
ul-rename-stress $UL_EXT4/s $ops 1 > /tmp/ext4.txt
cat /tmp/ext2.txt
if cmp -s /tmp/ext2.txt /tmp/ext4.txt; then
	echo "ext4 ends in the same state"
else
	echo "ext4 differs:"
	diff /tmp/ext4.txt /tmp/ext2.txt
	rc=1
fi
ul_umount_disks || exit 1
exit $rc
