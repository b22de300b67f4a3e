# Issue 6: the whiteout transitions of the kernel's overlayfs (upper on
# ext4, lower on ext2) watched by ul-race's observers: rmdir/mkdir of a
# directory the lower has, rename P->Q and back, unlink/create of a file
# the lower has, rename onto a directory that is empty in the union but
# holds whiteouts in upper. No observer may see a violation. overlayfs is
# the reference here (it shows the observers raise no false alarm), so
# 2,000 transitions per recipe (100 on the debug kernel); make soak runs
# 100,000.
. /tests/lib/race.sh
n=$(race_count 2000 100)
race_layers $n || exit 1
race_mount overlay || exit 1
rc=0
for r in $RACE_RECIPES; do
	race_run $r $n --union $RACE_MNT || rc=1
done
umount $RACE_MNT || rc=1
ul_umount_disks || rc=1
exit $rc
