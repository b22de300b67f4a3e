# renameat2 on ext4 (/dev/vda): EXCHANGE, NOREPLACE, WHITEOUT and the
# invalid flag combinations, with the resulting names, types, contents,
# ".." of moved directories and link counts.
. /tests/lib/common.sh
. /tests/lib/renameat2.sh
ul_mount_disks || exit 1
renameat2_checks /mnt/ext4
ul_umount_disks
