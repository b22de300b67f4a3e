# The whiteout hint of negative union dentries (docs/recipes.md, recipe
# 2): a create starts with recipe 2 when the name was last seen holding a
# whiteout, else with the plain create; each checks the upper name under
# its locks, and the other one is taken when the hint is stale. Shown
# with the hint made stale behind the union's back (the upper layer
# changed directly while the union dentry stays cached), on ext4 and
# ext2:
#   f: unlinked through the union (a whiteout: hint set), then upper/f
#      removed directly: creat f is the plain create;
#   h: looked up (negative, no whiteout: no hint), then a whiteout made
#      at upper/h directly: creat h is recipe 2;
#   g: a whiteout from the start: creat g is recipe 2.
. /tests/union-lib/union.sh
ul_start trace=1 || exit 1
rc=0
for base in $UL_EXT4 $UL_EXT2; do
	ul_fresh $base
	echo lower-f >$base/lower/f
	echo lower-g >$base/lower/g
	mknod $base/upper/g c 0 0
	ul_mount $base || { rc=1; continue; }
	dmesg -c >/dev/null
	echo "## unlink f: $(ul-union-sys unlink $UL_MNT/f)"
	ul_trace_lines
	rm $base/upper/f
	echo "## creat f, upper/f removed behind the union: $(ul-union-sys creat $UL_MNT/f 644)"
	ul_trace_lines
	[ -e $UL_MNT/h ] && echo "h exists"
	mknod $base/upper/h c 0 0
	echo "## creat h, upper/h made a whiteout behind the union: $(ul-union-sys creat $UL_MNT/h 644)"
	ul_trace_lines
	echo "## creat g (a whiteout, hint set at lookup): $(ul-union-sys creat $UL_MNT/g 644)"
	ul_trace_lines
	echo "union: [$(ls -A $UL_MNT | tr '\n' ' ')]"
	echo "upper: [$(cd $base/upper && stat -c '%n:%F' * | tr '\n' ' ')]"
	ul_umount || rc=1
	ul_work $base
	ul_fsck_disk $base "the creates" || rc=1
done
ul_umount_disks || rc=1
rmmod unionlite || rc=1
exit $rc
