# A real client: the Debian 12 root tree of qemu-boot/rootfs.sh split
# into image layers (tests/lib/realworld.sh: base, packages, a package
# removal), a container's workload on each union over them (dpkg, a
# user added, git, a Python byte-compile, tar and rsync, directories of
# the image moved, large trees removed, uid 1000's git, Python and tar
# in its home). The two unions' trees (ul-tree -x: names, types, modes,
# owners, sizes, content hashes, xattrs) must be equal but for the files
# of $RW_VARY, and overlayfs mounted on the upper that unionlite left
# must read unionlite's tree. On the debug kernel: unionlite alone, over
# the root tree alone, rw_workload_light (expected.debug.out).
. /tests/lib/common.sh
. /tests/lib/realworld.sh
ul_mount_disks || exit 1
rw_root || exit 1
insmod /lib/modules/unionlite.ko || exit 1
rc=0
if [ "$(ul_arg variant)" = debug ]; then
	# the debug kernel (KASAN, lockdep) is ten times slower: unionlite
	# alone over the root tree, the light part of the workload
	rw_enter unionlite $RW_ROOT $UL_EXT4/unionlite || exit 1
	rw_workload_light unionlite || rc=1
	rw_leave || rc=1
	awk '{ t[$1] += $3 } END { printf "time: unionlite %.1f s\n", t["unionlite"] }' $RW_TIMES >/dev/console
	umount $RW_ROOT
	ul_umount_disks || rc=1
	exit $rc
fi
rw_layers || exit 1
for fs in unionlite overlay; do
	echo "## $fs"
	rw_enter $fs $RW_LOWER $UL_EXT4/$fs || { rc=1; continue; }
	rw_workload $fs || rc=1
	rw_leave || rc=1
done
# the two unions, mounted again, read the same; and overlayfs on the
# upper that unionlite left reads unionlite's tree
rw_tree unionlite $UL_EXT4/unionlite /tmp/tree-unionlite || rc=1
rw_tree overlay $UL_EXT4/overlay /tmp/tree-overlay || rc=1
rw_tree overlay $UL_EXT4/unionlite /tmp/tree-ov-ul || rc=1
if cmp -s /tmp/tree-unionlite /tmp/tree-ov-ul; then
	echo "overlayfs on unionlite's upper: the same tree"
else
	echo "overlayfs on unionlite's upper: another tree"
	diff /tmp/tree-unionlite /tmp/tree-ov-ul | head -10
	rc=1
fi
echo "tree: $(wc -l </tmp/tree-unionlite) lines"
rw_compare /tmp/tree-overlay /tmp/tree-unionlite || rc=1
awk '{ t[$1] += $3 } END { printf "time: unionlite %.1f s, overlay %.1f s\n", t["unionlite"], t["overlay"] }' $RW_TIMES >/dev/console
umount $RW_ROOT
ul_umount_disks || rc=1
exit $rc
