# The guest is fit for the tests: the unionlite module loads and
# registers its filesystem type and unloads again; ext4 and ext2 mount
# with their own drivers and keep trusted.* xattrs; the helpers run.
. /tests/lib/common.sh
insmod /lib/modules/unionlite.ko || exit 1
grep -w unionlite /proc/filesystems
rmmod unionlite || exit 1
grep -cw unionlite /proc/filesystems
ul_mount_disks || exit 1
awk '$2 ~ /^\/mnt\// { print $2, $3 }' /proc/mounts
for m in $UL_EXT4 $UL_EXT2; do
	mkdir $m/d
	setfattr -n trusted.overlay.opaque -v y $m/d || exit 1
	getfattr --absolute-names -n trusted.overlay.opaque --only-values $m/d; echo
done
ul_umount_disks || exit 1
ul-rename 2>&1
echo "helper usage exit: $?"
