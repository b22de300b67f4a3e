# A create whose object is made in the upper layer but whose union inode
# cannot be made (ENOMEM, injected at the fault-injection point
# ul_fault_inode): the call fails, and the object it made is what the
# union shows from then on (listed, found by stat, EEXIST for a second
# create), never hidden behind a negative dentry. For a create in the
# upper layer and one over a whiteout (recipe 2), a directory and a file.
# Then the same creates on overlayfs, its union inode's allocation
# failing (the kernel's failslab on the ovl_inode cache, which test.conf's
# slub_debug=a,ovl_inode marks): ovl_create_object() allocates the inode
# before it makes the object, so each call fails with nothing made (not
# listed, ENOENT, a second create succeeds). An intended difference:
# docs/overlayfs.md.
. /tests/union-lib/union.sh
ul_start || exit 1
B=$UL_EXT4
F=/sys/kernel/debug/failslab
rc=0

# layers FS: fresh layers, FS mounted, the lower files w1 and w2 removed
layers() {
	ul_layers $B
	echo x >$B/lower/w1 && echo x >$B/lower/w2
	ul_mount_fs $1 $B || exit 1
	rm $UL_MNT/w1 $UL_MNT/w2
	ul-union-sys stat $UL_MNT/n1 >/dev/null; ul-union-sys stat $UL_MNT/w1 >/dev/null
}

# fail FS N: the next union inode FS makes fails (N=1), or none (N=0)
fail() {
	if [ $1 = unionlite ]; then
		if [ $2 = 1 ]; then
			ul_fault ul_fault_inode 1 || exit 1
		else
			ul_fault_off ul_fault_inode
		fi
	else
		echo $2 >$F/times
	fi
}

# fails FS OP NAME ARGS: OP with one union inode failing, then what shows
fails() {
	local fs=$1 op=$2 name=$3
	shift 3
	fail $fs 1
	echo "$op $name: $(ul-union-sys $op $UL_MNT/$name "$@")"
	fail $fs 0
	echo "  listed: $(ls $UL_MNT | grep -cx "$name")"
	echo "  stat: $(ul-union-sys stat $UL_MNT/$name)"
	echo "  $op again: $(ul-union-sys $op $UL_MNT/$name "$@")"
}

# creates FS: the four creates on FS, then the upper layer
creates() {
	layers $1
	fails $1 mkdir n1 755
	fails $1 creat n2 644
	fails $1 mkdir w1 755
	fails $1 creat w2 644
	umount $UL_MNT
	ul_tree $B/upper
}

creates unionlite
echo "### overlayfs"
[ -d $F ] || mount -t debugfs none /sys/kernel/debug
echo "ovl_inode failslab: $(cat /sys/kernel/slab/ovl_inode/failslab)"
echo 0 >$F/times
echo 0 >$F/verbose
echo 100 >$F/probability
echo 1 >$F/interval
echo 0 >$F/space
echo Y >$F/cache-filter
echo N >$F/ignore-gfp-wait
creates overlay
ul_finish $rc
