# A union used as a lower layer of another: as the top of two lower
# layers (lowerdir=UNION:OTHER, read-only), and as the single lower layer
# under an upper on the other disk (copy-up out of it). The inner union
# must read as a layer without the union metadata (its trusted.overlay.*
# names are EOPNOTSUPP, as overlayfs 6.1 answers; overlayfs 6.12 maps
# them to escaped names in its layers), so its directories merge
# with OTHER's; the two levels' locks are of different lockdep classes
# (the debug kernel reports recursive locking otherwise). Built with
# unionlite at both levels and with overlayfs at both; the views and
# the outer upper layer must be the same.
. /tests/union-lib/union.sh
ul_start || exit 1
B=$UL_EXT4
E=$UL_EXT2
IN=/mnt/inner
mkdir -p $UL_MNT
rc=0

stacked() {
	local fs=$1
	rm -rf $B/s $E/s && mkdir -p $B/s/l $B/s/u $B/s/w $B/s/other $E/s/u $E/s/w $IN
	mkdir -p $B/s/l/m $B/s/u/m $B/s/other/m $B/s/l/gone $B/s/other/gone
	echo l >$B/s/l/m/fromlower && echo u >$B/s/u/m/fromupper
	echo o >$B/s/other/m/fromother && echo o >$B/s/other/m/fromlower
	echo deep >$B/s/l/gone/x && echo o >$B/s/other/gone/y
	mknod $B/s/u/gone c 0 0
	mount -t $fs -o lowerdir=$B/s/l,upperdir=$B/s/u,workdir=$B/s/w none $IN || return 1
	echo "inner opaque xattr: $(ul-union-sys getxattr $IN/m trusted.overlay.opaque)"
	echo "## lowerdir=INNER:OTHER"
	mount -t $fs -o lowerdir=$IN:$B/s/other none $UL_MNT || return 1
	ul_tree $UL_MNT
	umount $UL_MNT
	echo "## lowerdir=INNER, upper on the other disk"
	mount -t $fs -o lowerdir=$IN,upperdir=$E/s/u,workdir=$E/s/w none $UL_MNT || return 1
	echo more >>$UL_MNT/m/fromlower
	mkdir $UL_MNT/m/new && rm $UL_MNT/m/fromupper
	ul_tree $UL_MNT
	umount $UL_MNT
	echo "## the outer upper layer"
	ul_tree $E/s/u
	umount $IN
}

UL_INTENDED='^inner opaque xattr: '
ul_against_overlay stacked || rc=1
ul_finish $rc
