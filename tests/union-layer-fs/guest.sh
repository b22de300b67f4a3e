# Lower filesystems that do not tell their objects apart the usual way,
# counted with ul-identity (objects, shared st_ino, d_ino != st_ino, and
# st_ino changed across a remount; all must be 0):
#  - two ext2 lower layers (in 6.1 every ext2 has the null UUID): the
#    origin of a copy cannot say which one it came from;
#  - two ext4 lower layers on clones of one image (one UUID), the second
#    holding a file whose twin in the first was renamed since: following
#    its origin would find the twin and give both one st_ino;
#  - a lower ext2 without d_type under a merged directory: readdir must
#    still report the lower directory's number for it.
# Such layers get no origin followed (overlayfs's bad_uuid);
# the copies have the upper inode's number.
# Then the clones on each union, on fresh upper and work dirs: twin
# copied up, and whether it shows the st_ino and the st_dev of renamed,
# before and after a remount. overlayfs marks only the clone bad_uuid
# and decodes origins in the first layer, on the upper's filesystem:
# after the remount the copy's origin is found there as renamed, and the
# two show one (st_dev, st_ino). On unionlite they never share an st_ino
# (an intended difference: docs/overlayfs.md).
. /tests/union-lib/union.sh
ul_load || exit 1
mkdir -p /mnt/a /mnt/b /mnt/u $UL_MNT
mount -t ext4 /dev/vda /mnt/u || exit 1
rc=0

# counts LOWERS: scan the union, remount, scan again, compare
counts() {
	ul-identity scan $UL_MNT /mnt/u/up "$1" /tmp/scan1 || return 1
	umount $UL_MNT
	mount -t unionlite -o "lowerdir=$1,upperdir=/mnt/u/up,workdir=/mnt/u/wk" none $UL_MNT || return 1
	echo "after a remount:"
	ul-identity scan $UL_MNT /mnt/u/up "$1" /tmp/scan2 || return 1
	ul-identity compare /tmp/scan1 /tmp/scan2
	umount $UL_MNT
}

# fresh: empty upper and work dirs
fresh() {
	rm -rf /mnt/u/up /mnt/u/wk && mkdir -p /mnt/u/up /mnt/u/wk
}

echo "## two ext2 lower layers"
dd if=/dev/zero of=/tmp/e2.img bs=1M count=16 2>/dev/null
mke2fs -F /tmp/e2.img >/dev/null 2>&1 || exit 1
mount -t ext2 /dev/vdb /mnt/a || exit 1
mount -t ext2 -o loop /tmp/e2.img /mnt/b || exit 1
mkdir -p /mnt/a/l/d /mnt/b/l/d
for i in 1 2 3 4 5 6 7 8; do echo a$i >/mnt/a/l/d/a$i; echo b$i >/mnt/b/l/d/b$i; echo q$i >/mnt/b/l/q$i; done
fresh
mount -t unionlite -o lowerdir=/mnt/a/l:/mnt/b/l,upperdir=/mnt/u/up,workdir=/mnt/u/wk none $UL_MNT || exit 1
dmesg | sed -n 's/^\[[^]]*\] //; /^unionlite: lower layer/p' | sed 's/UUID [0-9a-f-]*;/UUID <uuid>;/'
chmod 600 $UL_MNT/q1 $UL_MNT/d/b1 $UL_MNT/d/a1 && echo x >>$UL_MNT/q2
counts /mnt/a/l:/mnt/b/l || rc=1
umount /mnt/b

echo "## two clones of one ext4 image"
mkdir -p /mnt/u/c/l && echo twin >/mnt/u/c/l/twin && echo other >/mnt/u/c/l/other
umount /mnt/u
dd if=/dev/vda of=/tmp/clone.img bs=1M 2>/dev/null
mount -t ext4 /dev/vda /mnt/u || exit 1
mount -t ext4 -o loop /tmp/clone.img /mnt/b || exit 1
mv /mnt/u/c/l/twin /mnt/u/c/l/renamed
fresh
dmesg -c >/dev/null
mount -t unionlite -o lowerdir=/mnt/u/c/l:/mnt/b/c/l,upperdir=/mnt/u/up,workdir=/mnt/u/wk none $UL_MNT || exit 1
dmesg | sed -n 's/^\[[^]]*\] //; /^unionlite: lower layer/p' | sed 's/UUID [0-9a-f-]*;/UUID <uuid>;/'
chmod 600 $UL_MNT/twin
counts /mnt/u/c/l:/mnt/b/c/l || rc=1

# same: whether twin and renamed show one st_ino, one st_dev
same() {
	local t r
	t=$(stat -c '%i %d' $UL_MNT/twin) r=$(stat -c '%i %d' $UL_MNT/renamed)
	[ "${t% *}" = "${r% *}" ] && echo -n "same st_ino: yes" || echo -n "same st_ino: no"
	[ "${t#* }" = "${r#* }" ] && echo ", same st_dev: yes" || echo ", same st_dev: no"
}
# twins FS: twin copied up on FS, compared with renamed, then remounted
twins() {
	local o=lowerdir=/mnt/u/c/l:/mnt/b/c/l,upperdir=/mnt/u/up,workdir=/mnt/u/wk
	local n=$1
	[ $1 = overlay ] && n=overlayfs
	fresh
	mount -t $1 -o $o none $UL_MNT || return 1
	chmod 600 $UL_MNT/twin
	echo "$n: twin copied up, and renamed: $(same)"
	umount $UL_MNT
	mount -t $1 -o $o none $UL_MNT || return 1
	echo "$n: after a remount: $(same)"
	umount $UL_MNT
}
twins unionlite || rc=1
twins overlay || rc=1
umount /mnt/b

echo "## a lower ext2 without d_type under merged directories"
mkdir -p /mnt/a/n/m1/in /mnt/a/n/m2 && echo f >/mnt/a/n/m1/f
fresh
mkdir -p /mnt/u/up/m1 /mnt/u/up/m2
mount -t unionlite -o lowerdir=/mnt/a/n,upperdir=/mnt/u/up,workdir=/mnt/u/wk none $UL_MNT || exit 1
counts /mnt/a/n || rc=1
umount /mnt/a
umount /mnt/u || rc=1
rmmod unionlite || rc=1
exit $rc
