# The observers catch a broken unionlite: the module's test-only naive=1
# does every recipe in separate visible steps (rmdir then mknod the
# whiteout, unlink the whiteout then mkdir, ...). Same layers, observers
# and budget as race-unionlite; every recipe must be reported.
. /tests/lib/race.sh
insmod /lib/modules/unionlite.ko naive=1 || exit 1
n=$(race_count 2000 100)
race_layers $n || exit 1
race_mount unionlite || exit 1
rc=0
for r in $RACE_RECIPES; do
	race_run $r $n --union $RACE_MNT >/tmp/$r.out
	st=$?
	cat /tmp/$r.out >/dev/console
	if [ $st = 1 ] && grep -q "^$r: $n transitions, [0-9]* violations (" /tmp/$r.out; then
		echo "$r: non-atomic transitions caught"
	else
		echo "$r: NOT caught (exit $st)"
		cat /tmp/$r.out
		rc=1
	fi
done
umount $RACE_MNT || rc=1
ul_umount_disks || rc=1
rmmod unionlite || rc=1
exit $rc
