# Copy-up when its last step fails: the step that puts the finished copy
# in place fails once with EIO, through a fault-injection point: for a
# file the link of its O_TMPFILE copy (ul_fault_link), for a file whose
# parent directory must be copied up first the rename of the parent's
# copy (work/#n, ul_fault_rename). Then the same with the test build's
# no_tmpfile=1, where a file's copy is work/#n too and its rename fails.
# Shown: the errno, the trace, the union (the lower object, unchanged),
# the upper and the work dir just after the failure (the half-made copy
# is gone: nothing of it in work/), then the same change again (now ok).
# On ext4 and ext2.
. /tests/union-lib/union.sh
rc=0
for params in "trace=1" "trace=1 no_tmpfile=1"; do
	echo "#### module: $params"
	ul_start $params || exit 1
	for base in $UL_EXT4 $UL_EXT2; do
		ul_fresh $base
		echo lower-f >$base/lower/f
		mkdir $base/lower/d
		echo lower-g >$base/lower/d/g
		ul_mount $base || { rc=1; continue; }
		for p in f d/g; do
			point=ul_fault_rename
			[ $p = f ] && [ "$params" = trace=1 ] && point=ul_fault_link
			dmesg -c >/dev/null
			ul_fault $point 1 || exit 1
			echo "## chmod 600 $p ($point): $(ul-union-sys chmod $UL_MNT/$p 600)"
			ul_fault_off $point
			ul_trace_lines
			echo "$p: $(cat $UL_MNT/$p) mode $(stat -c %a $UL_MNT/$p)"
			echo "upper: [$(cd $base/upper && find . -mindepth 1 | sort | tr '\n' ' ')]"
			ul_work $base
			echo "## chmod 600 $p again: $(ul-union-sys chmod $UL_MNT/$p 600)"
			dmesg -c >/dev/null
			echo "$p: $(cat $UL_MNT/$p) mode $(stat -c %a $UL_MNT/$p)"
		done
		ul_umount || rc=1
		ul_work $base
	done
	ul_umount_disks && rmmod unionlite || rc=1
done
exit $rc
