# Every bad mount: its errno, its one kernel message, nothing left behind
# (the workdir stays empty); then a good mount that finds a stale work dir
# left by a crash (with an orphan directory holding a whiteout) and empties
# it; stacking depth; module unload.
# /dev/vdb is made by test.conf's HOST_PRE as ext2 without d_type.
. /tests/union-lib/union.sh
ul_load || exit 1
mkdir -p $UL_EXT4 $UL_EXT2 /mnt/bind /mnt/ro /mnt/ram /mnt/s1 /mnt/s2 /mnt/s3
mount -t ext4 /dev/vda $UL_EXT4 || exit 1
mount -t ext2 /dev/vdb $UL_EXT2 || exit 1
B=$UL_EXT4
ul_layers $B
echo x >$B/file
mkdir -p $B/upper/sub $B/work2/up

# try OPTIONS: mount with OPTIONS, print the errno and the kernel message
try() {
	ul_try_mount $B "$1"
}
good="lowerdir=$B/lower,upperdir=$B/upper,workdir=$B/work"
try "upperdir=$B/upper,workdir=$B/work"
try "lowerdir=$B/lower,workdir=$B/work"
try "lowerdir=$B/lower,upperdir=$B/upper"
try "$good,colour=blue"
try "$good,lowerdir=$B/lower"
try "lowerdir=$B/lower:$B/upper/sub,upperdir=$B/upper,workdir=$B/work"
try "lowerdir=,upperdir=$B/upper,workdir=$B/work"
try "upperdir=$B/upper,workdir=$B/work,lowerdir=$B/lower\\"
try "=x,$good"
try "lowerdir=$B/nothere,upperdir=$B/upper,workdir=$B/work"
try "lowerdir=$B/lower,upperdir=$B/file,workdir=$B/work"
try "lowerdir=$B/lower,upperdir=$B/upper,workdir=$B/nothere"
mkdir -p $UL_EXT2/w
try "lowerdir=$B/lower,upperdir=$B/upper,workdir=$UL_EXT2/w"
mount --bind $B /mnt/bind
try "lowerdir=$B/lower,upperdir=$B/upper,workdir=/mnt/bind/work"
umount /mnt/bind
try "lowerdir=$B/lower,upperdir=$B/upper,workdir=$B/upper"
try "lowerdir=$B/lower,upperdir=$B/upper,workdir=$B/upper/sub"
try "lowerdir=$B/lower,upperdir=$B/work2/up,workdir=$B/work2"
try "lowerdir=$B/upper/sub,upperdir=$B/upper,workdir=$B/work"
try "lowerdir=$B,upperdir=$B/upper,workdir=$B/work"
try "lowerdir=$B/work2/up,upperdir=$B/upper,workdir=$B/work2"
# busybox mount retries an EROFS mount read-only: the message comes twice
mount --bind $B /mnt/ro && mount -o remount,bind,ro /mnt/ro
try "lowerdir=$B/lower,upperdir=/mnt/ro/upper,workdir=/mnt/ro/work"
umount /mnt/ro
# An upper without trusted.* xattrs (ramfs), then one without d_type
# (ext2 without filetype): unionlite refuses both; overlayfs, on the same
# directories after it, mounts with warnings (an intended difference:
# docs/overlayfs.md).
# overlay_try DIR: overlayfs on the upper and work dirs of DIR
overlay_try() {
	dmesg -c >/dev/null
	if mount -t overlay -o "lowerdir=$B/lower,upperdir=$1/upper,workdir=$1/work" \
		overlay $UL_MNT 2>/tmp/err; then
		echo "overlayfs: mounted"
		umount $UL_MNT
	else
		echo "overlayfs: $(sed 's/.*failed: //' /tmp/err)"
	fi
	dmesg -c | sed -n 's/^\[[^]]*\] //; /^overlayfs/p'
}
mount -t ramfs none /mnt/ram && mkdir /mnt/ram/upper /mnt/ram/work
try "lowerdir=$B/lower,upperdir=/mnt/ram/upper,workdir=/mnt/ram/work"
echo "ramfs workdir: [$(ls -A /mnt/ram/work | tr '\n' ' ')]"
overlay_try /mnt/ram
umount /mnt/ram
mkdir -p $UL_EXT2/upper $UL_EXT2/work
try "lowerdir=$B/lower,upperdir=$UL_EXT2/upper,workdir=$UL_EXT2/work"
echo "ext2 workdir: [$(ls -A $UL_EXT2/work | tr '\n' ' ')]"
overlay_try $UL_EXT2
rm -rf $UL_EXT2/upper $UL_EXT2/work
mkdir -p $UL_EXT2/upper $UL_EXT2/work

echo "## stale work dir"
mkdir -p $B/work/work/#10/#11 && mknod $B/work/work/#10/wh c 0 0
echo stale >$B/work/work/#12
mknod $B/work/work/#10/#11/wh c 0 0
dmesg -c >/dev/null
mount -t unionlite -o "$good" none $UL_MNT && echo mounted
dmesg -c | sed -n 's/^\[[^]]*\] //; /^unionlite/p' | sed "s|$B|B|g"
echo "work: [$(ls -A $B/work/work | tr '\n' ' ')]"

echo "## stacking depth"
mkdir -p $B/l2 $B/u2 $B/w2 $B/u3 $B/w3
echo "$ unionlite over unionlite"
mount -t unionlite -o lowerdir=$UL_MNT,upperdir=$B/u2,workdir=$B/w2 none /mnt/s2 && echo mounted
echo "$ unionlite over unionlite over unionlite"
dmesg -c >/dev/null
mount -t unionlite -o lowerdir=/mnt/s2,upperdir=$B/u3,workdir=$B/w3 none /mnt/s3 2>/tmp/err || sed 's/.*failed: //' /tmp/err
dmesg -c | sed -n 's/^\[[^]]*\] //; /^unionlite/p'
umount /mnt/s2 && umount $UL_MNT && echo unmounted
umount $UL_EXT4 && umount $UL_EXT2 || exit 1
rmmod unionlite && echo "module unloaded"
