# A create whose object is made in the upper layer but whose union inode
# cannot be made (ENOMEM, injected at the fault-injection point
# ul_fault_inode): the call fails, and the object it made is what the
# union shows from then on (listed, found by stat, EEXIST for a second
# create), never hidden behind a negative dentry. For a create in the
# upper layer and one over a whiteout (recipe 2), a directory and a file.
# overlayfs removes the object instead (an intended difference:
# docs/overlayfs.md).
. /tests/union-lib/union.sh
ul_start || exit 1
B=$UL_EXT4
rc=0
ul_layers $B
echo x >$B/lower/w1 && echo x >$B/lower/w2
ul_mount $B || exit 1
rm $UL_MNT/w1 $UL_MNT/w2
ul-union-sys stat $UL_MNT/n1 >/dev/null; ul-union-sys stat $UL_MNT/w1 >/dev/null

# fails OP NAME ARGS: OP with one union inode failing, then what shows
fails() {
	local op=$1 name=$2
	shift 2
	ul_fault ul_fault_inode 1 || exit 1
	echo "$op $name: $(ul-union-sys $op $UL_MNT/$name "$@")"
	ul_fault_off ul_fault_inode
	echo "  listed: $(ls $UL_MNT | grep -cx "$name")"
	echo "  stat: $(ul-union-sys stat $UL_MNT/$name)"
	echo "  $op again: $(ul-union-sys $op $UL_MNT/$name "$@")"
}

fails mkdir n1 755
fails creat n2 644
fails mkdir w1 755
fails creat w2 644
ul_umount
ul_tree $B/upper
ul_finish $rc
