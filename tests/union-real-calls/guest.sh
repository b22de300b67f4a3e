# What the union passes to the real layers, seen from inside the kernel
# (tests/kmod/ul_test_probe.ko counts calls of real functions and notes
# their caller's fsuid), against overlayfs on the same scenario:
#  - reading a lower-only directory and seeking in it, and seeking in a
#    lower-only file, as uid 1000: the real filesystem's readdir and
#    llseek run with the mounter's credentials (fsuid 0), as every call
#    into a layer does;
#  - a copy-up calls the LSM hooks security_inode_copy_up() once and
#    security_inode_copy_up_xattr() once per xattr (here one user.*); a
#    create calls security_dentry_create_files_as() once;
#  - O_DIRECT set and cleared with fcntl(F_SETFL) reaches the real file:
#    after clearing it an unaligned write succeeds, after setting it one
#    is refused (EINVAL), on both.
. /tests/union-lib/union.sh
ul_start || exit 1
B=$UL_EXT4
Q=/sys/module/ul_test_probe/parameters
rc=0
insmod /lib/modules/test/ul_test_probe.ko \
	syms=ext4_readdir,ext4_dir_llseek,ext4_llseek,security_inode_copy_up,security_inode_copy_up_xattr,security_dentry_create_files_as || exit 1

# The fsuid overlayfs gives the real llseek of a directory: the caller's
# (ovl_dir_llseek() does not switch credentials); an intended difference,
# whose lines ul_against_overlay prints for both unions after the
# transcript.
UL_INTENDED='^ext4_dir_llseek'

# probe WHAT: since the last probe, the fsuid of the last caller of each
# real function called (-1: not called), and how many times each LSM hook
# was called
probe() {
	echo "$1:"
	cat $Q/fsuids | tr , ' ' | {
		read r d l _
		echo "ext4_readdir fsuid $r"
		echo "ext4_dir_llseek fsuid $d"
		echo "ext4_llseek fsuid $l"
	}
	cat $Q/hits | tr , ' ' | {
		read _ _ _ c x f _
		echo "security_inode_copy_up $c, security_inode_copy_up_xattr $x, security_dentry_create_files_as $f"
	}
	echo 0,0,0,0,0,0 >$Q/hits
	echo -1,-1,-1,-1,-1,-1 >$Q/fsuids
}

calls() {
	local fs=$1
	ul_layers $B
	mkdir -p $B/lower/d && touch $B/lower/d/a $B/lower/d/b
	seq 1 1000 >$B/lower/f
	echo c >$B/lower/c
	dd if=/dev/zero of=$B/lower/direct bs=8k count=1 2>/dev/null
	setfattr -n user.x -v 1 $B/lower/c
	ul_mount_fs $fs $B || return 1
	probe mounted >/dev/null
	ul-union-sys as 1000 1000 readdir $UL_MNT/d >/dev/null
	probe "readdir, seekdir as uid 1000"
	ul-union-sys as 1000 1000 lseek $UL_MNT/f >/dev/null
	probe "lseek of a file as uid 1000"
	echo "chmod c: $(ul-union-sys chmod $UL_MNT/c 644)"
	probe "copy-up of a file with one xattr"
	echo "creat n: $(ul-union-sys creat $UL_MNT/n 644)"
	probe "a create"
	ul-union-sys odirect-setfl $UL_MNT/direct
	umount $UL_MNT
}

ul_against_overlay calls || rc=1
rmmod ul_test_probe
ul_finish $rc
