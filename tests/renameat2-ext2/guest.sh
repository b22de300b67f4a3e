# renameat2 on ext2 (/dev/vdb), the same checks as renameat2-ext4: EXCHANGE, NOREPLACE, WHITEOUT and the
# invalid flag combinations, with the resulting names, types, contents,
# ".." of moved directories and link counts.
. /tests/lib/common.sh
. /tests/lib/renameat2.sh
ul_mount_disks || exit 1
renameat2_checks /mnt/ext2
ul_umount_disks
