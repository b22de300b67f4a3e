# Differential test against the kernel's overlayfs: the same seeded
# random operations (tests/helpers/ul-diff.c: creates, writes, truncates,
# mkdir, rmdir, unlink, rename with each flag, link, symlink, mkfifo,
# chmod, chown, utimes, user xattrs, reads; as root and as uid 1000 and
# 1001) on overlayfs and on unionlite over one lower tree, both uppers
# on the ext4 disk; each result and every 50 operations both trees must
# match. One line per seed.
. /tests/lib/common.sh
DIFF_OPS=1000
DIFF_SEEDS="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"
[ "$UL_VARIANT" = debug ] && DIFF_OPS=500 DIFF_SEEDS="1 2 3 4"
ul_mount_disks || exit 1
insmod /lib/modules/unionlite.ko || exit 1
rc=0
for seed in $DIFF_SEEDS; do
	L=$UL_EXT4/l$seed
	mkdir -p $L $UL_EXT4/ua$seed $UL_EXT4/wa$seed $UL_EXT4/ub$seed $UL_EXT4/wb$seed /mnt/a /mnt/b
	ul-diff lower $L $seed || rc=1
	mount -t overlay -o lowerdir=$L,upperdir=$UL_EXT4/ua$seed,workdir=$UL_EXT4/wa$seed none /mnt/a || rc=1
	mount -t unionlite -o lowerdir=$L,upperdir=$UL_EXT4/ub$seed,workdir=$UL_EXT4/wb$seed none /mnt/b || rc=1
	ul-diff run /mnt/a /mnt/b $seed $DIFF_OPS 2>/tmp/replay.$seed || rc=1
	grep '^# first' /tmp/replay.$seed
	umount /mnt/a /mnt/b || rc=1
done
rmmod unionlite || rc=1
ul_umount_disks || rc=1
exit $rc
