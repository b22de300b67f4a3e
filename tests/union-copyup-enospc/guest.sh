# Copy-up on a full upper filesystem (no fault injection): the data copy
# runs out of space part-way, the call returns ENOSPC, the half-made copy
# is removed from work/, the upper name stays absent and the union still
# shows the lower file, byte for byte. Once space is freed, the same
# change works. An ext4 upper (lower on ext2), then an ext2 upper (lower
# on ext4). A 24 MiB file; 8 MiB on the debug kernel, where writing
# and reading it back are about five times slower.
. /tests/union-lib/union.sh
ul_start trace=1 || exit 1
rc=0
mib=24
[ "$UL_VARIANT" = debug ] && mib=8
for up in $UL_EXT4 $UL_EXT2; do
	lo=$UL_EXT2
	[ $up = $UL_EXT2 ] && lo=$UL_EXT4
	echo "### upper on $(ul_fstype $up), lower on $(ul_fstype $lo)"
	rm -rf $up/upper $up/work $lo/lower
	mkdir -p $up/upper $up/work $lo/lower $UL_MNT
	dd if=/dev/urandom of=$lo/lower/big bs=1M count=$mib 2>/dev/null || rc=1
	sum=$(md5sum <$lo/lower/big)
	mount -t unionlite -o "lowerdir=$lo/lower,upperdir=$up/upper,workdir=$up/work" none $UL_MNT || { rc=1; continue; }
	# fill the upper filesystem (root: the reserved blocks too); on
	# ext4 but for 4 MiB (its own reserve for metadata is about 1.3),
	# the blocks allocated at once (fallocate); ext2 has no fallocate:
	# its blocks are written
	if [ "$(ul_fstype $up)" = ext4 ]; then
		read -r free bsize <<EOF
$(stat -f -c '%f %S' $up)
EOF
		fallocate -l $((free * bsize - 4194304)) $up/fill || rc=1
	else
		dd if=/dev/zero of=$up/fill bs=1M 2>/dev/null
	fi
	sync
	dmesg -c >/dev/null
	echo "## chmod 600 big: $(ul-union-sys chmod $UL_MNT/big 600)"
	ul_trace_lines
	[ "$(md5sum <$UL_MNT/big)" = "$sum" ] && s=same || s=DIFFERENT
	echo "big: mode $(stat -c %a $UL_MNT/big), content $s as lower"
	echo "upper: [$(ls -A $up/upper | tr '\n' ' ')]"
	ul_work $up
	rm $up/fill
	sync
	echo "## chmod 600 big again: $(ul-union-sys chmod $UL_MNT/big 600)"
	dmesg -c >/dev/null
	[ "$(md5sum <$UL_MNT/big)" = "$sum" ] && s=same || s=DIFFERENT
	echo "big: mode $(stat -c %a $UL_MNT/big), content $s as lower"
	echo "upper: [$(ls -A $up/upper | tr '\n' ' ')]"
	ul_umount || rc=1
	ul_work $up
done
ul_finish $rc
