# Issue 6 soak: race-overlayfs with 100,000 transitions per recipe (about
# 50 min under TCG, most of it rename-over-whiteout-dir at ~50/s). Run
# by "make soak" only (KIND=soak in test.conf).
# The images are made larger by mkimages (one lower directory and, on
# unions without shared whiteouts, one upper inode per transition).
. /tests/lib/race.sh
RACE_TIMEOUT=3600
n=100000
race_layers $n || exit 1
race_mount overlay || exit 1
rc=0
for r in $RACE_RECIPES; do
	race_run $r $n --union $RACE_MNT || rc=1
done
umount $RACE_MNT || rc=1
ul_umount_disks || rc=1
exit $rc
