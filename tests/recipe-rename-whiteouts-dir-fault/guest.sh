# Recipe 4 when its last step fails: rename(P, Q) over a directory Q that
# is empty in the union and holds whiteouts in upper, with the
# fault-injection point ul_fault_rename making the
# second rename step (the final
# rename(P, Q), after the exchange of work/#n with upper/Q) fail with EIO.
# Shown: the errno, the trace, the union (P unchanged, Q still an empty
# directory: the empty opaque directory the exchange put at upper/Q) and
# the upper layer just after the failure; the same rename done again on
# the same mount; the work dir after umount; a remount shows the same
# view. Both recipe 4 alone (P upper-only) and with recipe 5 (P needs a
# whiteout), on ext4 and ext2. Q has an owner, a setgid mode, an xattr
# and a time of its own: the directory the exchange puts in its place
# must show the same (that is all a crash between the exchange and the
# last step would leave).
. /tests/union-lib/recipes.sh
ul_start trace=1 || exit 1
# q_attrs: what the union shows of Q but its entries
q_attrs() {
	echo "Q: $(stat -c '%A %u:%g mtime=%Y' $UL_MNT/Q)" \
		"user.q=$(cd $UL_MNT && getfattr --only-values -n user.q Q 2>&1)"
}
rc=0
for base in $UL_EXT4 $UL_EXT2; do
	for s in rename-dir-over-whiteouts rename-dir-over-whiteouts-p-lower; do
		echo "### $s on $(ul_fstype $base), rename step 2 failing"
		ul_layers $base
		rc_setup $s $base/lower $base/upper
		chown 1000:100 $base/upper/Q
		chmod 2775 $base/upper/Q
		setfattr -n user.q -v v $base/upper/Q
		ul-union-sys utime $base/upper/Q 1000000000 >/dev/null
		echo "## upper before"
		ul_tree $base/upper
		ul_mount $base || { rc=1; continue; }
		cd $UL_MNT
		q_attrs
		dmesg -c >/dev/null
		ul_fault ul_fault_rename 2 || exit 1
		echo "## rename P Q: $(ul-union-sys rename P Q)"
		ul_fault_off ul_fault_rename
		ul_trace_lines
		echo "## union"
		ul_tree $UL_MNT
		q_attrs
		echo "## upper after"
		ul_tree $base/upper
		echo "## rename P Q again: $(ul-union-sys rename P Q)"
		ul_trace_lines
		cd /
		echo "## union"
		ul_tree $UL_MNT | tee /tmp/view
		ul_umount || rc=1
		ul_work $base
		ul_mount $base || { rc=1; continue; }
		ul_tree $UL_MNT | cmp -s - /tmp/view && echo "remount: same view" ||
			echo "remount: VIEW CHANGED"
		ul_umount || rc=1
		ul_fsck_disk $base "$s" || rc=1
	done
done
ul_umount_disks || rc=1
rmmod unionlite
exit $rc
