# "volatile": a union that never syncs its upper layer. Through it no
# fsync() (file, directory), syncfs(), RWF_DSYNC write or copy-up
# writes to the upper's disk (an O_SYNC file still syncs: the real file
# has the flag); without the option each of them does. The option shows
# in /proc/mounts; work/incompat/volatile/dirty stays after the umount,
# so the next mount is refused until it is removed. A volatile mount
# over an upper whose filesystem holds a writeback error nobody has seen
# is refused (EIO) until a syncfs() has seen it. Without an upper layer
# the option is ignored, with a message. On unionlite and on overlayfs,
# transcripts compared.
. /tests/union-lib/union.sh
ul_start || exit 1
rc=0
# no udev in the guest: dmsetup makes /dev/mapper/ulerr itself
export DM_DISABLE_UDEV=1

# Nothing but a sync writes to the disk: no periodic writeback, no timed
# journal commit.
echo 0 >/proc/sys/vm/dirty_writeback_centisecs
echo 360000 >/proc/sys/vm/dirty_expire_centisecs
mount -o remount,commit=3600 $UL_EXT4 || exit 1

# the write requests completed on the disk of $UL_EXT4 (in a batch,
# /dev/vda is another test's disk)
writes() {
	set -- $(stat -c '%t %T' /dev/vda)
	awk '{ print $5 }' /sys/dev/block/$((0x$1)):$((0x$2))/stat
}

# step WHAT CMD...: run CMD; its outcome and whether the disk was written
step() {
	local what=$1 before w
	shift
	before=$(writes)
	"$@" >/tmp/step.out 2>&1
	w=some
	[ "$(writes)" = "$before" ] && w=none
	[ -n "$before" ] || w=unknown
	echo "$what: $(cat /tmp/step.out), disk writes: $w"
}

# shown: how /proc/mounts shows the union's sync mode. overlayfs 6.12
# shows "volatile" as fsync=volatile, one of its fsync= modes
# (docs/overlayfs.md, intended differences); unionlite has "volatile".
shown() {
	echo "shown: $(grep " $UL_MNT " /proc/mounts | grep -o -e ',volatile' -e ',fsync=[a-z]*')"
}
[ "$(ul_arg linux)" = 6.12 ] && UL_INTENDED='^shown: '

# kmsg: the kernel's lines since the last call, the union's name cut
# (not unionlite's count of the leftovers it removed from a work dir)
kmsg() {
	dmesg -c | sed -n 's/^\[[^]]*\] //; /stale objects/d; s/^\(unionlite\|overlayfs\): //p'
}

# syncs FS OPTS: the syncs through a union mounted with OPTS
syncs() {
	local b=$UL_EXT4

	ul_layers $b
	echo lower >$b/lower/f
	sync
	dmesg -c >/dev/null
	ul_mount_fs $1 $b "$2" || return 1
	shown
	echo new >$UL_MNT/new || return 1
	step "fsync of a new file" ul-union-sys fsync $UL_MNT/new
	mkdir $UL_MNT/d && echo x >$UL_MNT/d/x || return 1
	step "fsync of a new directory" ul-union-sys fsync $UL_MNT/d
	step "copy-up of a lower file" ul-union-sys append $UL_MNT/f more
	step "RWF_DSYNC write" ul-union-sys write-sync $UL_MNT/new rwf one
	step "O_SYNC write" ul-union-sys write-sync $UL_MNT/new osync two
	step "syncfs" ul-union-sys syncfs $UL_MNT
	echo "f: $(cat $UL_MNT/f | tr '\n' ' ')new: $(cat $UL_MNT/new)"
	umount $UL_MNT
	echo "work after umount: $(cd $b/work/work && find . | sort | tr '\n' ' ')"
	kmsg
}

# again FS: mount the layers of syncs() again, without "volatile"
again() {
	local b=$UL_EXT4

	echo "mount: $(ul_errno ul_mount_fs $1 $b)"
	kmsg
	ul_umount_if
	rm -r $b/work/work/incompat/volatile
	echo "incompat/volatile removed; mount: $(ul_errno ul_mount_fs $1 $b)"
	kmsg
	[ -f $UL_MNT/new ] && echo "new: $(cat $UL_MNT/new)"
	ul_umount_if
}

volatile() {
	syncs $1 volatile && again $1
}

plain() {
	syncs $1 ""
}

# lower FS: two lower layers, no upper
lower() {
	local b=$UL_EXT4

	ul_layers $b
	dmesg -c >/dev/null
	echo "mount: $(ul_errno mount -t $1 -o lowerdir=$b/lower:$b/upper,volatile none $UL_MNT)"
	kmsg
	shown
	ul_umount_if
}

# unseen FS: the upper on a device that fails every write from the
# moment data is dirty on it; sync() meets the error, nobody sees it.
# Its inode tables are zeroed by mke2fs: ext4lazyinit's background
# writes would meet the error device too, at a moment of their own.
unseen() {
	local e=/mnt/err dev size

	truncate -s 16M /tmp/err.img && /usr/sbin/mke2fs -q -F -t ext4 -O ^has_journal -E lazy_itable_init=0 /tmp/err.img &&
		dev=$(losetup -f) && losetup $dev /tmp/err.img || return 1
	size=$(blockdev --getsz $dev)
	dmsetup create ulerr --table "0 $size linear $dev 0" 2>/dev/null &&
		mkdir -p $e && mount -t ext4 /dev/mapper/ulerr $e &&
		mkdir $e/lower $e/upper $e/work && sync || return 1
	echo data >$e/upper/lost
	dmsetup suspend --nolockfs ulerr 2>/dev/null &&
		dmsetup load ulerr --table "0 $size error" 2>/dev/null &&
		dmsetup resume ulerr 2>/dev/null || return 1
	sync
	dmesg -c >/dev/null
	echo "volatile mount: $(ul_errno mount -t $1 -o lowerdir=$e/lower,upperdir=$e/upper,workdir=$e/work,volatile none $UL_MNT)"
	kmsg | grep -v -e '^Buffer I/O' -e '^EXT4-fs'
	ul_umount_if
	echo "syncfs of the upper: $(ul-union-sys syncfs $e)"
	echo "volatile mount: $(ul_errno mount -t $1 -o lowerdir=$e/lower,upperdir=$e/upper,workdir=$e/work,volatile none $UL_MNT)"
	kmsg | grep -v -e '^Buffer I/O' -e '^EXT4-fs'
	ul_umount_if
	umount $e; dmsetup remove ulerr 2>/dev/null; losetup -d $dev; rm -f /tmp/err.img
	dmesg -c >/dev/null
}

for case in volatile plain lower unseen; do
	echo "## $case"
	ul_against_overlay $case || rc=1
done
ul_finish $rc
