# Whiteouts in a directory that nothing merges with any more, but that
# was merged when it was copied up (xfstests overlay/031): a lower-only
# file removed through the union leaves upper testdir with a whiteout
# and an origin; then, offline, the lower testdir goes:
#  a. remounted: testdir lists nothing, rm -rf removes it;
#  b. a lower file testdir appears instead: rm -rf testdir through the
#     union removes the directory, and nothing is left over;
#  c. the old upper becomes the top of two lower layers (lowerdir=L1:L2,
#     read-only): testdir must list nothing; the directory carries an
#     origin, so the union reads it as merged, hiding its whiteouts;
#  d. the same with the lower layer on a filesystem that makes no file
#     handles (ramfs): the origin is empty, and says the same;
#  e. an upper directory made by hand over a lower one (no origin), with
#     a whiteout: overlayfs writes an origin on it when a lookup finds it
#     merged (ovl_fix_origin()), unionlite writes nothing on a lookup;
#     as the top of two lower layers it then lists the whiteout on
#     unionlite and not on overlayfs (an intended difference,
#     docs/overlayfs.md; its lines, "e: ...", are not compared, but
#     printed for both unions after the transcript).
# On unionlite and on overlayfs; the transcripts must be the same.
. /tests/union-lib/union.sh
ul_start || exit 1
B=$UL_EXT4
rc=0

# setup FS [LOWER]: LOWER/testdir/a (default: $B/lower) removed through
# the union, then the lower testdir removed offline
setup() {
	local l=${2:-$B/lower}
	ul_layers $B
	mkdir -p $l/testdir && touch $l/testdir/a
	mount -t $1 -o lowerdir=$l,upperdir=$B/upper,workdir=$B/work none $UL_MNT || return 1
	rm $UL_MNT/testdir/a
	umount $UL_MNT
	rm -rf $l/testdir
}

# remove FS: mount, list testdir, rm -rf it, and show the upper layer
remove() {
	ul_mount_fs $1 $B || return 1
	echo "ls testdir: [$(ls -A $UL_MNT/testdir | tr '\n' ' ')]"
	echo "rm -rf testdir: $(ul_errno rm -rf $UL_MNT/testdir)"
	echo "ls: [$(ls -A $UL_MNT | tr '\n' ' ')]"
	umount $UL_MNT
	ul_tree $B/upper
}

merged() {
	local fs=$1
	echo "## a. the lower testdir gone"
	setup $fs || return 1
	remove $fs || return 1
	echo "## b. a lower file testdir instead"
	setup $fs || return 1
	echo file >$B/lower/testdir
	remove $fs || return 1
	echo "## c. the old upper as the top of two lower layers"
	setup $fs || return 1
	mkdir -p $B/lower2
	mount -t $fs -o lowerdir=$B/upper:$B/lower2 none $UL_MNT || return 1
	echo "readdir testdir: $(ul-union-sys readdir $UL_MNT/testdir)"
	echo "stat testdir/a: $(ul-union-sys stat $UL_MNT/testdir/a)"
	umount $UL_MNT
	echo "## d. the same over a lower layer without file handles"
	mkdir -p /mnt/ram && mount -t ramfs none /mnt/ram
	setup $fs /mnt/ram || return 1
	echo "upper testdir's origin: $(ul-union-sys getxattr $B/upper/testdir trusted.overlay.origin)"
	mount -t $fs -o lowerdir=$B/upper:$B/lower2 none $UL_MNT || return 1
	echo "readdir testdir: $(ul-union-sys readdir $UL_MNT/testdir)"
	umount $UL_MNT
	umount /mnt/ram
	echo "## e. an upper directory made by hand over a lower one"
	ul_layers $B
	mkdir -p $B/lower/d $B/upper/d && touch $B/lower/d/a && mknod $B/upper/d/a c 0 0
	ul_mount_fs $fs $B || return 1
	echo "readdir d: $(ul-union-sys readdir $UL_MNT/d)"
	umount $UL_MNT
	echo "e: upper d's xattrs: $(ul-union-sys listxattr $B/upper/d)"
	mount -t $fs -o lowerdir=$B/upper:$B/lower2 none $UL_MNT || return 1
	echo "e: readdir d, the old upper as a lower layer: $(ul-union-sys readdir $UL_MNT/d)"
	umount $UL_MNT
}

# the lines of case e: an intended difference
UL_INTENDED='^e: '
ul_against_overlay merged || rc=1
ul_finish $rc
