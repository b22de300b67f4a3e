# Copy-up when its last step fails: the fault-injection point
# ul_fault_rename failing once makes the rename of the finished copy
# (work/#n) onto its upper name fail
# with EIO. Shown: the errno, the trace, the union (the lower object,
# unchanged), the upper and the work dir just after the failure (the
# half-made copy is gone: nothing of it in work/), then the same change
# again (now ok). Once for a file, once for a file whose parent directory
# must be copied up first (the parent's copy-up fails), on ext4 and ext2.
. /tests/union-lib/union.sh
ul_start trace=1 || exit 1
rc=0
for base in $UL_EXT4 $UL_EXT2; do
	ul_fresh $base
	echo lower-f >$base/lower/f
	mkdir $base/lower/d
	echo lower-g >$base/lower/d/g
	ul_mount $base || { rc=1; continue; }
	for p in f d/g; do
		dmesg -c >/dev/null
		ul_fault ul_fault_rename 1 || exit 1
		echo "## chmod 600 $p: $(ul-union-sys chmod $UL_MNT/$p 600)"
		ul_fault_off ul_fault_rename
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
ul_finish $rc
