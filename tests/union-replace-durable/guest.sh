# A file replaced by a rename over a whiteout keeps its data across a
# power cut, as on the upper filesystem alone. Found by realworld-powercut:
# dpkg installs a conffile (/etc/nanorc after a purge left a whiteout
# there) by renaming NAME.dpkg-new onto NAME without an fsync, and relies
# on ext4 writing a file's data before a rename that replaces another
# file commits (auto_da_alloc). unionlite used to put the file in place
# with an exchange and then unlink the whiteout; ext4 gives an exchange
# no such ordering, and after a cut the file was empty.
#
# Per case: an ext4 upper behind dm-log-writes (tests/lib/crash-states.sh
# sets it up), conf written (no fsync) and renamed onto the old name;
# then another file's fsync commits the journal, and the state the log
# holds at that moment (a cut right after it) is mounted again. Cases:
# ext4 alone (a rename over an existing file), overlayfs and unionlite
# (a rename over the whiteout a removal through the union left), each
# union also with uid 1000 (the lower file and the upper root its own)
# removing, writing and renaming.
. /tests/lib/crash-states.sh
rc=0
ul_mount_disks || exit 1
insmod /lib/modules/unionlite.ko || exit 1
mkdir -p $CS /mnt/ext4/l && echo old > /mnt/ext4/l/conf || exit 1
chown -R 1000:1000 /mnt/ext4/l || exit 1
mount -t tmpfs -o size=200m tmpfs $CS && mkdir -p $CS/mnt $CS/u || exit 1
printf '%s' "$(seq 1 12000)" > $CS/content || exit 1
echo 0 > /proc/sys/vm/dirty_writeback_centisecs
truncate -s $CS_SIZE $CS/new.img &&
	/usr/sbin/mke2fs -q -F -t ext4 -b 4096 -E nodiscard $CS/new.img || exit 1
# union FS: FS over /mnt/ext4/l and the upper fs at $CS/mnt, at $CS/u
union() {
	mount -t $1 -o lowerdir=/mnt/ext4/l,upperdir=$CS/mnt/upper,workdir=$CS/mnt/work none $CS/u
}
# as WHO OP ARGS...: ul-union-sys OP as root or as uid 1000
as() {
	local who=$1
	shift
	if [ "$who" = 1000 ]; then
		ul-union-sys as 1000 1000 "$@" >/dev/null
	else
		ul-union-sys "$@" >/dev/null
	fi
}
for case in ext4 overlay unionlite overlay:1000 unionlite:1000; do
	fs=${case%:*} who=${case#$fs}
	who=${who#:}
	ul-logwrites copy $CS/new.img $CS/dev.img && truncate -s 32M $CS/log.img || exit 1
	dev=$(losetup -f) && losetup $dev $CS/dev.img || exit 1
	log=$(losetup -f) && losetup $log $CS/log.img || exit 1
	dmsetup create $CS_DM --table "0 $(blockdev --getsz $dev) log-writes $dev $log" 2>/dev/null || exit 1
	mount -t ext4 /dev/mapper/$CS_DM $CS/mnt && mkdir $CS/mnt/upper $CS/mnt/work || exit 1
	[ -z "$who" ] || chown $who:$who $CS/mnt/upper || exit 1
	if [ $fs = ext4 ]; then
		d=$CS/mnt/upper
		echo old > $d/conf
	else
		d=$CS/u
		union $fs && as "$who" unlink $d/conf || exit 1
	fi
	sync
	# the replacement, 60 KiB, without an fsync
	as "$who" creat $d/conf.new 644 && as "$who" write $d/conf.new "$(cat $CS/content)" &&
		as "$who" rename $d/conf.new $d/conf || exit 1
	dd if=/dev/zero of=$CS/mnt/other bs=4k count=1 conv=fsync 2>/dev/null || exit 1
	ul-logwrites flush /dev/mapper/$CS_DM || exit 1
	dmsetup message $CS_DM 0 mark cut 2>/dev/null || exit 1
	size=$(stat -c %s $d/conf)
	[ $fs = ext4 ] || umount $d
	umount $CS/mnt && dmsetup remove $CS_DM 2>/dev/null && losetup -d $dev && losetup -d $log || exit 1
	n=$(ul-logwrites find $CS/log.img cut) &&
		ul-logwrites replay $CS/log.img $CS/state.img --base $CS/new.img --to $n || exit 1
	dev=$(losetup -f) && losetup $dev $CS/state.img && mount -t ext4 $dev $CS/mnt || exit 1
	[ $fs = ext4 ] || union $fs || exit 1
	after=$(stat -c %s $d/conf)
	echo "$case: conf $size bytes before the cut, $after after"
	cmp -s $CS/content $d/conf || rc=1
	[ $fs = ext4 ] || umount $d
	umount $CS/mnt && losetup -d $dev || exit 1
	rm -f $CS/dev.img $CS/log.img $CS/state.img
done
umount $CS
ul_umount_disks || rc=1
exit $rc
