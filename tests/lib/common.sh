# Sourced by guest scripts (busybox sh). /dev/vda is a fresh ext4 image,
# /dev/vdb a fresh ext2 image; both are judged by e2fsck after the run.

UL_EXT4=/mnt/ext4
UL_EXT2=/mnt/ext2

# ul_need_cpus N: print how many processors the guest runs on ("cpus:
# N" in the golden output); 1 when that is not N (CPUS=N in test.conf
# asks the harness for them)
ul_need_cpus() {
	local n
	n=$(grep -c '^processor' /proc/cpuinfo)
	echo "cpus: $n"
	[ "$n" = "$1" ] || {
		echo "ul_need_cpus: the test needs $1 processors, the guest has $n"
		return 1
	}
}

# ul_insmod [PARAM...]: load unionlite with PARAMs: the module users load
# or, when a PARAM is not one of its two (tests/module-params), the test
# build unionlite-test.ko, which has the others (unionfs-lite/testing.c)
ul_insmod() {
	local m=unionlite p
	for p in "$@"; do
		case ${p%%=*} in
		trace|redirect_max) ;;
		*) m=unionlite-test ;;
		esac
	done
	insmod /lib/modules/$m.ko "$@"
}

# ul_mount_disks: mount both fresh images (ext2 with its own driver).
ul_mount_disks() {
	mkdir -p $UL_EXT4 $UL_EXT2
	mount -t ext4 /dev/vda $UL_EXT4 || return 1
	mount -t ext2 /dev/vdb $UL_EXT2 || return 1
}

ul_umount_disks() {
	umount $UL_EXT4 && umount $UL_EXT2
}

# ul_fsck_disk BASE WHAT: unmount the image mounted at BASE ($UL_EXT4 or
# $UL_EXT2), run e2fsck -fn on it and mount it again. Silent when it is
# clean; otherwise prints that it is not clean after WHAT, with e2fsck's
# report, and returns 1.
ul_fsck_disk() {
	local dev fs rc=0
	case $1 in
	$UL_EXT4) dev=/dev/vda fs=ext4 ;;
	$UL_EXT2) dev=/dev/vdb fs=ext2 ;;
	*) echo "ul_fsck_disk: no image mounted at $1"; return 1 ;;
	esac
	umount $1 || return 1
	if ! e2fsck -fn $dev >/tmp/fsck.out 2>&1; then
		echo "e2fsck -fn $dev after $2: NOT CLEAN"
		cat /tmp/fsck.out
		rc=1
	fi
	mount -t $fs $dev $1 || return 1
	return $rc
}

# ul_show PATH...: one line per path, type and content, in a form that
# does not depend on the filesystem (no inode numbers, sizes or times).
ul_show() {
	local p
	for p in "$@"; do
		if [ -L "$p" ]; then
			echo "$p: symlink -> $(readlink "$p")"
		elif [ -d "$p" ]; then
			echo "$p: dir [$(ls -A "$p" | tr '\n' ' ')] nlink=$(stat -c %h "$p") ..=$(ul_dotdot "$p")"
		elif [ -c "$p" ]; then
			echo "$p: chardev $(stat -c '%t:%T' "$p")"
		elif [ -f "$p" ]; then
			echo "$p: file '$(cat "$p")' nlink=$(stat -c %h "$p")"
		elif [ -e "$p" ]; then
			echo "$p: other $(stat -c %F "$p")"
		else
			echo "$p: absent"
		fi
	done
}

# ul_dotdot DIR: "parent" when DIR/.. is the directory that holds DIR.
ul_dotdot() {
	if [ "$(stat -c %i "$1/..")" = "$(stat -c %i "$(dirname "$1")")" ]; then
		echo parent
	else
		echo "WRONG"
	fi
}

# ul_run CMD...: print the command and its outcome (for errno goldens).
ul_run() {
	echo "\$ $*"
	"$@"
}

# ul_arg NAME: the value of ul.NAME= on the kernel command line, if any
ul_arg() {
	local a
	for a in $(cat /proc/cmdline); do
		case $a in
		ul."$1"=*) echo "${a#ul."$1"=}" ;;
		esac
	done
}

# ul_fault POINT N: the Nth call from now of the module's
# fault-injection point POINT (ul_fault_rename, ul_fault_redirect,
# ul_fault_inode, ul_fault_origin) fails, through the kernel's fault
# attributes in /sys/kernel/debug/unionlite/fail_NAME; the calls after
# it succeed again. Quiet: no stack dump.
ul_fault() {
	local d=/sys/kernel/debug/unionlite/fail_${1#ul_fault_}
	[ -d $d ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	[ -d $d ] || { echo "ul_fault: no $d"; return 1; }
	echo 0 >$d/times
	echo 0 >$d/verbose
	echo 100 >$d/probability
	echo 1 >$d/interval
	echo "$2" >$d/space
	echo 1 >$d/times
}

# ul_fault_off POINT: POINT no longer fails
ul_fault_off() {
	echo 0 >/sys/kernel/debug/unionlite/fail_${1#ul_fault_}/times
}
