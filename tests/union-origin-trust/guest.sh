# Which origins a copy's inode number follows, against overlayfs. A
# lower on the ext2 disk (6.1's ext2 has a null UUID) under an upper on
# ext4: with the default options the lower layers may change while the
# union is unmounted, and a rebuilt image may give an old handle's inode
# number to another file, so the origin is not followed and a copied-up
# file shows the upper inode's number once the union is mounted again;
# with redirect_dir=on (no offline changes) it keeps the lower's.
# Before the remount: whether the copy-up changed f's st_ino. With the
# default options unionlite gives the copy the upper inode's number at
# once, overlayfs keeps the lower's until the remount (an intended
# difference: docs/overlayfs.md; ul_against_overlay prints that line of
# each union). Then an origin that names an object of
# another type (a directory's origin written onto a file, all layers on
# ext4): ignored with a warning, the file still read.
. /tests/union-lib/union.sh
ul_start || exit 1
L=$UL_EXT2/lower U=$UL_EXT4/upper W=$UL_EXT4/work

# null_uuid FS OPTS: copy up a file of the null-UUID lower, then whose
# inode number it shows after a remount
null_uuid() {
	local i
	rm -rf $L $U $W && mkdir -p $L $U $W $UL_MNT || return 1
	echo f >$L/f
	echo "## lower on ext2, upper on ext4, options: ${2:-none}"
	mount -t $1 -o "lowerdir=$L,upperdir=$U,workdir=$W${2:+,$2}" none $UL_MNT || return 1
	i=$(stat -c %i $UL_MNT/f)
	echo "chmod 600 f: $(ul-union-sys chmod $UL_MNT/f 600)"
	if [ "$(stat -c %i $UL_MNT/f)" = "$i" ]; then
		echo "options ${2:-none}: f's st_ino kept at its copy-up"
	else
		echo "options ${2:-none}: f's st_ino changed at its copy-up"
	fi
	umount $UL_MNT
	mount -t $1 -o "lowerdir=$L,upperdir=$U,workdir=$W${2:+,$2}" none $UL_MNT || return 1
	if [ "$(stat -c %i $UL_MNT/f)" = "$(stat -c %i $U/f)" ]; then
		echo "f: st_ino is the upper inode's"
	else
		echo "f: st_ino is not the upper inode's (the origin is followed)"
	fi
	umount $UL_MNT
}

# wrong_type FS: a file whose origin names a lower directory
wrong_type() {
	local base=$UL_EXT4 v
	ul_layers $base
	mkdir $base/lower/d && echo f >$base/lower/f
	echo "## all on ext4, f's origin replaced by d's"
	ul_mount_fs $1 $base || return 1
	echo "chmod 700 d: $(ul-union-sys chmod $UL_MNT/d 700)"
	echo "chmod 644 f: $(ul-union-sys chmod $UL_MNT/f 644)"
	umount $UL_MNT
	v=$(getfattr -e hex -n trusted.overlay.origin $base/upper/d 2>/dev/null |
		sed -n 's/^trusted.overlay.origin=//p')
	[ -n "$v" ] || { echo "d has no origin"; return 1; }
	setfattr -n trusted.overlay.origin -v "$v" $base/upper/f || return 1
	ul_mount_fs $1 $base || return 1
	echo "stat f: $(ul-union-sys stat $UL_MNT/f)"
	echo "cat f: $(ul-union-sys cat $UL_MNT/f)"
	echo "cat f as uid 1000: $(ul-union-sys as 1000 1000 cat $UL_MNT/f)"
	if [ "$(stat -c %i $UL_MNT/f)" = "$(stat -c %i $base/upper/f)" ]; then
		echo "f: st_ino is the upper inode's"
	else
		echo "f: st_ino is not the upper inode's"
	fi
	umount $UL_MNT
}

scenario() {
	null_uuid $1 ""
	null_uuid $1 redirect_dir=on
	wrong_type $1
}

rc=0
# the copy-up's st_ino with the default options: an intended difference
UL_INTENDED='^options none: '
ul_against_overlay scenario || rc=1
ul_finish $rc
