# Common tools over a union whose lower holds a tree: rm -rf, mv (file and
# directory), mkdir -p, cp -a, tar x over the existing lower tree; then
# umount, mount again: the view is unchanged and the work dir is empty.
. /tests/union-lib/union.sh
ul_start || exit 1
rc=0
for base in $UL_EXT4 $UL_EXT2; do
	ul_fresh $base
	L=$base/lower
	mkdir -p $L/t/a/b $L/t/c $L/keep $L/old
	echo 1 >$L/t/a/b/f1; echo 2 >$L/t/a/f2; echo 3 >$L/t/c/f3
	echo k >$L/keep/k; echo o >$L/old/o; echo m >$L/mvfile
	(cd $L && tar cf /tmp/t.tar t)
	echo 4 >$L/t/c/f3
	ul_mount $base || exit 1
	cd $UL_MNT
	ul_run tar xf /tmp/t.tar
	ul_run rm -rf t
	ul_run tar xf /tmp/t.tar
	ul_run rm -rf t/a
	ul_run mkdir -p t/a/b/deep/er
	ul_run mv mvfile keep/moved
	ul_run mv keep kept
	ul_run cp -a kept copy
	ul_run rm -rf old
	ul_run mkdir old
	echo new >old/n
	cd /
	ul_tree $UL_MNT >/tmp/view
	cat /tmp/view
	ul_umount || exit 1
	ul_work $base
	ul_mount $base || exit 1
	ul_tree $UL_MNT | cmp -s - /tmp/view && echo "remount: same view" ||
		{ echo "remount: VIEW CHANGED"; rc=1; }
	ul_umount || exit 1
	ul_work $base
	ul_fsck_disk $base "the tools" || rc=1
done
ul_umount_disks || rc=1
rmmod unionlite
exit $rc
