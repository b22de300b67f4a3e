# The ext2 kselftest looks at the disk: on the mutant variant (the
# series' ext2 whose exchange swaps nothing on disk, only the dcache,
# which the VFS swaps by itself) its exchange cases must fail, and so
# must this run (test.conf: EXPECT_FAIL=rc).
. /tests/lib/common.sh
ul_mount_disks || exit 1
mkdir $UL_EXT2/t
ext2-rename-selftest $UL_EXT2/t >/tmp/st.out 2>&1
rc=$?
grep -E '^not ok|entry names' /tmp/st.out
echo "selftest exit status: $rc"
ul_umount_disks || exit 1
# the mutant damages the image; repaired so that rc alone judges the run
e2fsck -fy /dev/vdb >/dev/null 2>&1
exit $rc
