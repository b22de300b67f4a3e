# On the pristine kernel (no series), ext2 has no RENAME_EXCHANGE: a union
# with an ext2 upper is refused with its message and leaves the workdir
# empty; an ext4 upper still mounts.
. /tests/union-lib/union.sh
ul_start || exit 1
for base in $UL_EXT2 $UL_EXT4; do
	ul_fresh $base
	dmesg -c >/dev/null
	if ul_mount $base 2>/tmp/err; then
		echo mounted
		ul_umount
	else
		sed 's/.*failed: //' /tmp/err
	fi
	dmesg -c | sed -n 's/^\[[^]]*\] //; /^unionlite/p'
	echo "workdir: [$(ls -A $base/work | tr '\n' ' ')]"
done
ul_umount_disks || exit 1
rmmod unionlite
