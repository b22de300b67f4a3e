# The cases the differential tester found, each minimized by ul-diff min
# (tests/lib/diff.sh), replayed on overlayfs and unionlite: every result
# and the trees at each walk and at the end must match. One case per
# c-*.sh file, each with what it found in its header.
. /tests/lib/diff.sh
ul_need_cpus 2 || exit 1
ul_mount_disks || exit 1
insmod /lib/modules/unionlite.ko || exit 1
rc=0
for c in /tests/diff-cases/c-*.sh; do
	echo "## ${c##*/}"
	. $c || rc=1
done
rmmod unionlite || rc=1
ul_umount_disks || rc=1
exit $rc
