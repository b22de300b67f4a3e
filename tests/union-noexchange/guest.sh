# On the pristine kernel (no series), ext2 has no RENAME_EXCHANGE: a union
# with an ext2 upper is refused with its message and leaves the workdir
# empty; an ext4 upper still mounts. overlayfs, on fresh layers of the
# same filesystem, mounts both (with a warning on ext2: no
# RENAME_WHITEOUT either); there a mkdir over the whiteout of a removed
# lower directory needs RENAME_EXCHANGE, and fails on ext2 (EINVAL). An
# intended difference: docs/overlayfs.md.
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
	ul_layers $base
	mkdir $base/lower/d
	if ul_mount_fs overlay $base 2>/tmp/err; then
		echo "overlayfs: mounted"
		dmesg -c | sed -n 's/^\[[^]]*\] //; /^overlayfs/p'
		echo "overlayfs: rmdir d: $(ul-union-sys rmdir $UL_MNT/d)"
		echo "overlayfs: mkdir d: $(ul-union-sys mkdir $UL_MNT/d 755)"
		umount $UL_MNT
	else
		echo "overlayfs: $(sed 's/.*failed: //' /tmp/err)"
		dmesg -c | sed -n 's/^\[[^]]*\] //; /^overlayfs/p'
	fi
done
ul_umount_disks || exit 1
rmmod unionlite
