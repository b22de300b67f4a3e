# The layers of a mounted union, as a whole: one union per upper and
# work dir (a second mount naming either is refused with EBUSY and says
# why; overlayfs 6.1 only warns and mounts), syncfs() of the union
# writes the upper filesystem back, statfs() gives the upper's figures.
# On ext4 and ext2 uppers.
. /tests/union-lib/union.sh
ul_start || exit 1
rc=0
U2=/mnt/union2
mkdir -p $U2
# only syncfs() may write the dirty pages back during the test
echo 0 >/proc/sys/vm/dirty_writeback_centisecs
echo 100000 >/proc/sys/vm/dirty_expire_centisecs
# the kernel's own line about the last failed mount
why() {
	dmesg -c | sed -n 's/^\[[^]]*\] //; s/^\(unionlite\|overlayfs\): /\1: /p' | head -2
}
dirty_kb() {
	awk '$1 == "Dirty:" { print $2 }' /proc/meminfo
}
for base in $UL_EXT4 $UL_EXT2; do
	ul_fresh $base
	L=$base/lower U=$base/upper W=$base/work
	mkdir -p $base/upper2 $base/work2
	ul_mount $base || { rc=1; continue; }
	dmesg -c >/dev/null
	echo "## a second union, same upperdir"
	mount -t unionlite -o lowerdir=$L,upperdir=$U,workdir=$base/work2 none $U2 2>&1 |
		sed 's/.*failed: //'
	why
	echo "## a second union, same workdir"
	mount -t unionlite -o lowerdir=$L,upperdir=$base/upper2,workdir=$W none $U2 2>&1 |
		sed 's/.*failed: //'
	why
	echo "## overlayfs, same upperdir: it only warns, and mounts"
	mount -t overlay -o lowerdir=$L,upperdir=$U,workdir=$base/work2 overlay $U2 2>&1 |
		sed 's/.*failed: //'
	why
	umount $U2 2>/dev/null && echo "(mounted)"
	echo "## statfs"
	[ "$(stat -f -c '%b %a %c' $UL_MNT)" = "$(stat -f -c '%b %a %c' $U)" ] &&
		echo "blocks, free blocks, inodes: the upper's" || echo "statfs: NOT the upper's"
	echo "## syncfs"
	sync
	dd if=/dev/zero of=$UL_MNT/big bs=1M count=8 2>/dev/null
	[ "$(dirty_kb)" -ge 4096 ] && echo "dirty after the write: 4 MiB or more" ||
		echo "dirty after the write: $(dirty_kb) kB"
	echo "syncfs of the union: $(ul-union-sys syncfs $UL_MNT)"
	[ "$(dirty_kb)" -le 1024 ] && echo "dirty after syncfs: 1 MiB or less" ||
		echo "dirty after syncfs: $(dirty_kb) kB (NOT written back)"
	rm $UL_MNT/big
	ul_umount || rc=1
	echo "## after the umount, the same second union"
	mount -t unionlite -o lowerdir=$L,upperdir=$U,workdir=$base/work2 none $U2 &&
		echo mounted && umount $U2
	ul_work $base
done
ul_finish $rc
