# Issue 6, the other side: ul-race --naive does each whiteout transition
# directly on an ext4 upper in several steps, the way a broken union
# would (rmdir then mknod the whiteout, unlink the whiteout then mkdir
# then set opaque, ...). With the same observers and the same budget as
# race-overlayfs (2,000 transitions per recipe, 100 on debug), the
# observers must report violations for every recipe.
# The kinds and counts go to the console log; the output names the
# recipes caught.
. /tests/lib/race.sh
n=$(race_count 2000 100)
race_layers $n || exit 1
rc=0
for r in $RACE_RECIPES; do
	race_run $r $n --naive >/tmp/$r.out
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
ul_umount_disks || rc=1
exit $rc
