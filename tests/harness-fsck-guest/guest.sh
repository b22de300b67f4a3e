# Harness self-test: ul_fsck_disk, the e2fsck the recipe tests run in
# the guest after every scenario, catches a damaged image. The ext4 root
# directory is given a wrong link count with debugfs; the check must say
# so and fail. e2fsck -fy then repairs it, for the host's own check.
. /tests/lib/common.sh
ul_mount_disks || exit 1
echo data >$UL_EXT4/file
ul_fsck_disk $UL_EXT4 "a clean write" || exit 1
echo "clean images: passed"
ul_umount_disks || exit 1
debugfs -w -R "set_inode_field <2> links_count 9" /dev/vda >/dev/null 2>&1
ul_mount_disks || exit 1
if ul_fsck_disk $UL_EXT4 "the damage" >/tmp/report; then
	echo "damaged image: NOT CAUGHT"
	exit 1
fi
grep "NOT CLEAN" /tmp/report
grep -c "ref count is 9" /tmp/report | sed 's/^/lines naming the damage: /'
ul_umount_disks || exit 1
e2fsck -fy /dev/vda >/dev/null 2>&1
e2fsck -fn /dev/vda >/dev/null 2>&1 && echo "repaired"
