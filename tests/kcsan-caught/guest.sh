# The data-race detector's verdict can fail: the test build with
# data_race=1 counts permission checks in a plain shared variable
# (ul_test_data_race(), called by ul_permission()). Two shells look up a
# union name 100,000 times each, one per CPU, so the counter is written
# from both CPUs at once. The detector must report the race in
# unionlite's code and judge.sh must not filter it: the run fails by
# console alone (EXPECT_FAIL=console).
. /tests/lib/common.sh
ul_need_cpus 2 || exit 1
ul_mount_disks || exit 1
l=$UL_EXT2/lower u=$UL_EXT4/upper w=$UL_EXT4/work
mkdir -p $l/d $u $w /mnt/union || exit 1
echo x >$l/d/f || exit 1
ul_insmod data_race=1 || exit 1
mount -t unionlite -o "lowerdir=$l,upperdir=$u,workdir=$w" none /mnt/union || exit 1
look() {
	local i=0
	while [ $i -lt 100000 ]; do
		[ -e /mnt/union/d/f ] || exit 1
		i=$((i + 1))
	done
}
look &
p=$!
look
rc=$?
wait $p || rc=1
echo "lookups: exit $rc"
umount /mnt/union || rc=1
rmmod unionlite || rc=1
ul_umount_disks || rc=1
exit $rc
