# Lookup and readdir rules on ext4 and ext2 uppers: whiteouts hide lower
# names, opaque directories hide lower directories, upper directories over
# lower directories merge, upper non-directories hide lower names. Then
# the read path (files, symlinks, mmap), getattr (st_dev), statfs,
# /proc/mounts, and module unload after umount.
. /tests/union-lib/union.sh
ul_start || exit 1

for base in $UL_EXT4 $UL_EXT2; do
	ul_fresh $base
	L=$base/lower U=$base/upper
	mkdir -m 751 $L/merged
	mkdir $L/merged/sub $L/opaque $L/dir-then-file $L/gone-dir
	echo lower-only >$L/merged/lonly
	echo lower-both >$L/merged/both
	echo deep >$L/merged/sub/deep
	echo lower-gone >$L/merged/gone
	echo hidden >$L/opaque/lfile
	echo hidden >$L/dir-then-file/x
	echo hidden >$L/gone-dir/x
	echo lower >$L/file-then-dir
	echo lower >$L/replaced
	echo lower >$L/whited
	ln -s merged/both $L/link
	mkfifo -m 640 $L/fifo
	mknod -m 600 $L/null c 1 3

	mkdir -m 755 $U/merged
	echo upper-only >$U/merged/uonly
	echo upper-both >$U/merged/both
	mknod $U/merged/gone c 0 0
	mkdir $U/opaque
	setfattr -n trusted.overlay.opaque -v y $U/opaque
	echo upper >$U/opaque/ufile
	echo upper >$U/dir-then-file
	mkdir $U/file-then-dir
	echo upper >$U/file-then-dir/y
	echo upper >$U/replaced
	mknod $U/whited c 0 0
	mknod $U/gone-dir c 0 0

	echo "lower link: $(stat -c %A $L/link)"
	ul_mount $base || exit 1
	echo "## union"
	ul_tree $UL_MNT
	echo "## upper"
	ul_tree $U
	echo "## ls -a merged"
	ls -a $UL_MNT/merged | tr '\n' ' '; echo
	echo "## lookups"
	for p in whited gone-dir merged/gone opaque/lfile dir-then-file/x; do
		ul_show $UL_MNT/$p | sed "s|$UL_MNT/||"
	done
	echo "## read path"
	ul-union-sys cat $UL_MNT/link
	ul-union-sys mmap $UL_MNT/merged/lonly
	ul-union-sys mmap $UL_MNT/merged/uonly
	echo "## getattr"
	dev=$(stat -c %d $UL_MNT)
	[ "$dev" != "$(stat -c %d $base)" ] && echo "union st_dev is its own"
	find $UL_MNT | while read -r p; do
		[ "$(stat -c %d "$p")" = "$dev" ] || echo "st_dev differs: $p"
	done
	[ "$(stat -c %i $UL_MNT/merged/lonly)" = "$(stat -c %i $L/merged/lonly)" ] && echo "lower-only: st_ino of lower"
	[ "$(stat -c %i $UL_MNT/merged/both)" = "$(stat -c %i $U/merged/both)" ] && echo "both: st_ino of upper"
	echo "## statfs"
	[ "$(stat -f -c '%b %S %c' $UL_MNT)" = "$(stat -f -c '%b %S %c' $U)" ] && echo "statfs: the upper's"
	echo "## /proc/mounts"
	grep " $UL_MNT " /proc/mounts | sed "s|$base|BASE|g"
	ul_umount || exit 1
	ul_work $base
done
ul_umount_disks || exit 1
rmmod unionlite && echo "module unloaded"
grep -q unionlite /proc/filesystems && echo "still registered"
true
