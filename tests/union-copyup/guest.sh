# Copy-up of each object kind on ext4 and ext2 uppers, each triggered by a
# different change (open for write, O_TRUNC, truncate, chmod, chown,
# utimes, setxattr, removexattr, link), with owner, mode, times, user.*,
# security.* and trusted.* xattrs (but trusted.overlay.*), symlink target
# and device number kept; parents
# first; the trace of one copy-up; a concurrent copy-up; private xattrs
# refused; 0/0 mknod refused; the work dir empty afterwards.
. /tests/union-lib/union.sh
ul_start trace=1 || exit 1

ul_meta() { # ul_meta DIR NAME...: owner, mode, mtime and user xattrs
	local d=$1 n
	shift
	for n in "$@"; do
		echo "$n: $(stat -c '%A %u:%g mtime=%Y' "$d/$n") $(getfattr --absolute-names -h -d -m - "$d/$n" 2>/dev/null | grep = | ul_mask_origin | sort | tr '\n' ' ')"
	done
}

for base in $UL_EXT4 $UL_EXT2; do
	ul_fresh $base
	L=$base/lower U=$base/upper
	mkdir -m 750 $L/d
	echo inner >$L/d/inner
	chown 1001:1001 $L/d
	setfattr -n user.dir -v D $L/d
	echo written >$L/w
	echo truncated >$L/o
	echo truncate-me >$L/t
	echo utime >$L/u
	echo xattrs >$L/x
	setfattr -n user.gone -v G $L/x
	setfattr -n user.kept -v K $L/x
	setfattr -n security.label -v S $L/x
	printf 'setuid' >$L/f
	chown 1000:1000 $L/f
	chmod 4751 $L/f
	setfattr -n user.one -v 1 $L/f
	setfattr -n trusted.secret -v s $L/f
	ln -s some/target $L/s
	chown -h 1000:1000 $L/s
	mkfifo -m 640 $L/p
	mknod -m 620 $L/c c 1 3
	chown 1002:1002 $L/c
	dd if=/dev/zero of=$L/big bs=1k count=1024 2>/dev/null
	for n in d d/inner w o t u x f s p c; do
		ul-union-sys utime $L/$n 1000000000 >/dev/null
	done
	ul_mount $base || exit 1
	dmesg -c >/dev/null
	echo "## changes through the union"
	ul-union-sys open $UL_MNT/w w
	ul_trace_lines
	ul-union-sys open $UL_MNT/o wt
	ul-union-sys truncate $UL_MNT/t 8
	ul-union-sys utime $UL_MNT/u 1234567890
	ul-union-sys chmod $UL_MNT/p 600
	ul-union-sys chown $UL_MNT/c 1003 1003
	ul-union-sys setxattr $UL_MNT/d/inner user.new v
	ul-union-sys removexattr $UL_MNT/x user.gone
	ul_trace_lines | grep -E "rename|link"
	ul-union-sys link $UL_MNT/s $UL_MNT/s2
	ul-union-sys append $UL_MNT/f +
	ul-union-sys as 1000 1000 append $UL_MNT/f -
	dmesg -c >/dev/null
	echo "## union"
	ul_tree $UL_MNT
	ul-union-sys mmap $UL_MNT/f
	echo "## upper"
	ul_tree $U
	echo "## metadata, lower then upper"
	ul_meta $L d d/inner s p c u x
	ul_meta $U d d/inner s p c u x
	echo "f: lower $(stat -c '%A %u:%g' $L/f), upper $(stat -c '%A %u:%g' $U/f)"
	getfattr -d -m - $U/f --absolute-names 2>/dev/null | grep = | ul_mask_origin | sort
	echo "## concurrent copy-up"
	ul-union-sys race $UL_MNT/big 8
	echo "big: upper size $(stat -c %s $U/big)"
	cmp $L/big $U/big && echo "big: same data"
	echo "## private xattrs, 0/0 devices"
	mkdir $U/opq && setfattr -n trusted.overlay.opaque -v y $U/opq
	ul-union-sys getxattr $UL_MNT/opq trusted.overlay.opaque
	ul-union-sys setxattr $UL_MNT/opq trusted.overlay.opaque n
	ul-union-sys setxattr $UL_MNT/d trusted.overlay.redirect x
	ul-union-sys removexattr $UL_MNT/opq trusted.overlay.opaque
	ul-union-sys listxattr $UL_MNT/opq
	ul-union-sys setxattr $UL_MNT/opq trusted.other t
	ul-union-sys listxattr $UL_MNT/opq
	ul-union-sys as 1000 1000 listxattr $UL_MNT/opq
	getfattr --absolute-names -d -m - $U/opq | grep = | ul_mask_origin | sort
	ul-union-sys mknod $UL_MNT/wh c 0 0 644
	ul-union-sys mknod $UL_MNT/null c 1 3 644
	ul_umount || exit 1
	ul_work $base
done
ul_umount_disks || exit 1
rmmod unionlite
