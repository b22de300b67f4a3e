# statx() reports the union's append-only and immutable attributes, which
# the union keeps in trusted.overlay.protattr for an upper object (the
# real upper inode never has them), against overlayfs: a lower file made
# immutable and one made append-only through the union, an upper file
# made both (each read by root and by uid 1000), then one of each
# cleared again.
. /tests/union-lib/union.sh
ul_start || exit 1

attrs() {
	local base=$UL_EXT4 f
	ul_layers $base
	echo l >$base/lower/i && echo l >$base/lower/a && echo u >$base/upper/u
	ul_mount_fs $1 $base || return 1
	echo "setflags i +i: $(ul-union-sys setflags $UL_MNT/i +i)"
	echo "setflags a +a: $(ul-union-sys setflags $UL_MNT/a +a)"
	echo "setflags u +a, +i: $(ul-union-sys setflags $UL_MNT/u +a) $(ul-union-sys setflags $UL_MNT/u +i)"
	for f in i a u; do
		echo "$f: $(ul-union-sys getflags $UL_MNT/$f) $(ul-union-sys statx-attr $UL_MNT/$f)"
		echo "$f as uid 1000: $(ul-union-sys as 1000 1000 statx-attr $UL_MNT/$f)"
	done
	echo "setflags i -i, u -a: $(ul-union-sys setflags $UL_MNT/i -i) $(ul-union-sys setflags $UL_MNT/u -a)"
	for f in i u; do
		echo "$f: $(ul-union-sys getflags $UL_MNT/$f) $(ul-union-sys statx-attr $UL_MNT/$f)"
	done
	echo "upper u: $(ul-union-sys statx-attr $base/upper/u)"
	ul-union-sys setflags $UL_MNT/u -i >/dev/null
	umount $UL_MNT
}
rc=0
ul_against_overlay attrs || rc=1
ul_finish $rc
