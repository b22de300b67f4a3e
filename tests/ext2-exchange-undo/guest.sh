# An ext2 exchange whose second entry update fails leaves both names as
# they were. kernel-series/6.12 lets fail_function inject an error into
# ext2_set_link(): the exchange's first call passes, its second returns
# EIO, and ext2_cross_rename_undo() must point the first entry back.
# Each case prints the exchange's outcome, then each name's inode and
# content through the dcache and again from the disk after a remount.
. /tests/lib/common.sh
ul_mount_disks || exit 1
F=/sys/kernel/debug/fail_function
[ -d $F ] || mount -t debugfs none /sys/kernel/debug
d=$UL_EXT2/x
mkdir -p $d/p $d/q $d/q/dir
echo f > $d/p/f
echo g > $d/p/g
echo s > $d/q/dir/s

# names: each NAME's inode number and what it holds
names() {
	local n
	for n in "$@"; do
		if [ -d $d/$n ]; then
			echo "$n $(stat -c %i $d/$n) dir:$(ls $d/$n | tr '\n' ' ')"
		else
			echo "$n $(stat -c %i $d/$n) $(cat $d/$n)"
		fi
	done
}

# the second ext2_set_link() call from now fails with EIO, once. Every
# task's calls count (the task filter needs the task context, and the
# kprobe runs in NMI context): nothing else renames on the ext2 disk.
# The fault's call counter is never reset; each case makes an even
# number of counted calls.
arm() {
	echo ext2_set_link > $F/inject
	printf '%#x' -5 > $F/ext2_set_link/retval
	echo 100 > $F/probability
	echo 2 > $F/interval
	echo 1 > $F/times
	echo 0 > $F/verbose
}
disarm() {
	echo > $F/inject
}

# case TITLE A B: exchange A and B with the second update failing
case_() {
	local before during after
	echo "== $1"
	before=$(names $2 $3)
	arm
	echo "exchange: $(ul-rename -x $d/$2 $d/$3)"
	disarm
	during=$(names $2 $3)
	umount $UL_EXT2 && mount -t ext2 /dev/vdb $UL_EXT2 || return 1
	after=$(names $2 $3)
	[ "$during" = "$before" ] && echo "dcache: as before" ||
		printf 'dcache differs:\n%s\nbefore:\n%s\n' "$during" "$before"
	[ "$after" = "$before" ] && echo "disk: as before" ||
		printf 'disk differs:\n%s\nbefore:\n%s\n' "$after" "$before"
	echo "exchange again, no fault: $(ul-rename -x $d/$2 $d/$3)"
	[ "$(names $3 $2 | awk '{ print $2, $3, $4 }')" = \
	  "$(echo "$before" | awk '{ print $2, $3, $4 }')" ] &&
		echo "swapped" || echo "not swapped"
}

case_ "two files in one directory" p/f p/g
case_ "a file and a directory in two parents" p/f q/dir
ul_umount_disks || exit 1
