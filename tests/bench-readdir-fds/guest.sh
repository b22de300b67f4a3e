# Benchmark (make bench; numbers, not a pass/fail test): many open
# descriptors of one merged directory of 20,000 entries (10,000 names in
# the lower layer, 10,000 others in the upper), each read to the end
# while all stay open, on unionlite and on the kernel's overlayfs over
# the same layers (lower on ext2, upper and work on ext4). A union that
# builds the merged list per descriptor grows kernel memory and time with
# the number of descriptors; one that shares it per directory does not.
# One line per union and count (tests/helpers/ul-readdir-fds.c), from a
# fresh mount each time.
. /tests/lib/common.sh
ul_mount_disks || exit 1
mkdir -p $UL_EXT2/lower/m $UL_EXT4/upper/m $UL_EXT4/work /mnt/u
i=0
while [ $i -lt 10000 ]; do
	: >$UL_EXT2/lower/m/l$i
	: >$UL_EXT4/upper/m/u$i
	i=$((i + 1))
done
insmod /lib/modules/unionlite.ko || exit 1
rc=0
for n in 1 20 200; do
	for fs in unionlite overlay; do
		mount -t $fs -o lowerdir=$UL_EXT2/lower,upperdir=$UL_EXT4/upper,workdir=$UL_EXT4/work none /mnt/u || rc=1
		printf '%-9s ' $fs
		ul-readdir-fds /mnt/u/m $n || rc=1
		umount /mnt/u || rc=1
	done
done
rmmod unionlite
ul_umount_disks
exit $rc
