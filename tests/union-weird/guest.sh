# Layers the union must not look through, as overlayfs refuses them
# (ovl_dentry_weird()): an automount point in a lower layer (a debugfs
# directory of tests/kmod/ul_test_automount.ko), and names of a
# filesystem with case-insensitive directories (ext4 with casefold on
# /dev/vdb), whose dentries have their own hash and compare operations.
# Lookups through either give EREMOTE (unless an upper object hides the
# name); such a directory as a layer is refused at mount (EINVAL); what
# is plain still works. On 6.12 every dentry of a casefold ext4 has
# those operations, its root too: that mount is refused as well. The union inode
# of a lower directory must not take its real inode's S_AUTOMOUNT:
# crossing it would call the union's missing d_automount() (an oops).
# Each scenario runs on unionlite and on overlayfs; the transcripts
# must be the same.
. /tests/union-lib/union.sh
ul_load || exit 1
insmod /lib/modules/test/ul_test_automount.ko || exit 1
mkdir -p $UL_EXT4 /mnt/cf /sys/kernel/debug $UL_MNT
mount -t ext4 /dev/vda $UL_EXT4 || exit 1
mount -t ext4 /dev/vdb /mnt/cf || exit 1
mount -t debugfs none /sys/kernel/debug || exit 1
B=$UL_EXT4
AUTO=/sys/kernel/debug/ul_test_automount
mkdir -p /mnt/cf/sub /mnt/cf/u /mnt/cf/w && echo cf >/mnt/cf/file
echo in >/mnt/cf/sub/in && echo cf >/mnt/cf/hidden
rc=0

# try FS OPTIONS: mount FS with OPTIONS; "mount: ok" or the error
try() {
	printf 'mount %s: ' "$(echo "$2" | sed "s|$B|B|g")"
	ul_errno mount -t $1 -o "$2" none $UL_MNT
}

# show PATH...: what ls and stat give for each path of the union
show() {
	local p
	for p in "$@"; do
		echo "ls $p: $(ul_errno ls $UL_MNT/$p)"
		echo "stat $p: $(ul-union-sys stat $UL_MNT/$p)"
	done
}

# weird FS: the scenarios on union FS
weird() {
	local fs=$1
	rm -rf $B/upper $B/work && mkdir -p $B/upper $B/work
	echo "## an automount point in the lower layer"
	try $fs "lowerdir=$AUTO,upperdir=$B/upper,workdir=$B/work"
	ls $UL_MNT 2>&1 | sort
	show auto auto/x plain
	echo "mkdir auto: $(ul-union-sys mkdir $UL_MNT/auto 755)"
	umount $UL_MNT
	echo "## the automount point as a layer"
	try $fs "lowerdir=$AUTO/auto,upperdir=$B/upper,workdir=$B/work"
	ul_umount_if
	rm -rf $B/upper $B/work && mkdir -p $B/upper $B/work
	echo "## a casefold filesystem's root as the lower layer"
	echo upper >$B/upper/hidden
	try $fs "lowerdir=/mnt/cf,upperdir=$B/upper,workdir=$B/work"
	if grep -q " $UL_MNT " /proc/mounts; then
		ls $UL_MNT 2>&1 | sort
		show file FILE sub sub/in hidden
		echo "cat hidden (an upper file over a casefold name): $(cat $UL_MNT/hidden 2>&1)"
		echo "rm file: $(ul-union-sys unlink $UL_MNT/file)"
		echo "rm hidden: $(ul-union-sys unlink $UL_MNT/hidden)"
		echo "stat hidden: $(ul-union-sys stat $UL_MNT/hidden)"
		umount $UL_MNT
	fi
	echo "## a directory of it as the lower layer"
	try $fs "lowerdir=/mnt/cf/sub,upperdir=$B/upper,workdir=$B/work"
	ul_umount_if
	echo "## a directory of it as the upper layer"
	mkdir -p $B/lower
	try $fs "lowerdir=$B/lower,upperdir=/mnt/cf/u,workdir=/mnt/cf/w"
	ul_umount_if
	return 0
}

ul_against_overlay weird || rc=1
umount /sys/kernel/debug
rmmod ul_test_automount
umount /mnt/cf && umount $UL_EXT4 || rc=1
rmmod unionlite || rc=1
exit $rc
