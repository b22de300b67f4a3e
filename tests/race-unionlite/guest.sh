# Issue 6 on the product: unionlite's whiteout recipes (docs/recipes.md)
# watched by ul-race's observers, with the same layers, recipes and
# observers as race-overlayfs: rmdir/mkdir of a directory the lower has,
# rename P->Q and back, unlink/create of a file the lower has, rename
# onto a directory that is empty in the union but holds whiteouts in
# upper. 2,000 transitions per recipe (100 on the debug kernel); no
# observer may see a violation.
. /tests/lib/race.sh
insmod /lib/modules/unionlite.ko || exit 1
n=$(race_count 2000 100)
race_layers $n || exit 1
race_mount unionlite || exit 1
rc=0
for r in $RACE_RECIPES; do
	race_run $r $n --union $RACE_MNT || rc=1
done
umount $RACE_MNT || rc=1
ul_umount_disks || rc=1
rmmod unionlite || rc=1
exit $rc
