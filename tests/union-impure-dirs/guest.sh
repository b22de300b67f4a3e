# Every copy-up marks the upper parent impure, a directory's too, as
# overlayfs does: overlayfs mounted later on the upper (all layers on one
# filesystem, the layout of image builders) reads a copied-up
# subdirectory's d_ino through that mark. chmod of the lower directory
# d/sub through each union (d and sub copied up), then the marks on the
# upper, then overlayfs on that upper: d/sub's d_ino must be its st_ino.
. /tests/union-lib/union.sh
ul_start || exit 1

# inos PATH: whether readdir's d_ino of PATH is its st_ino
inos() {
	local out st d
	out=$(ul-union-sys inos "$1")
	st=${out#*st_ino=}; st=${st%% *}
	d=${out#*d_ino=}; d=${d%% *}
	if [ "$st" = "$d" ]; then
		echo "$2: d_ino = st_ino"
	else
		echo "$2: d_ino != st_ino"
	fi
}

copied() {
	local base=$UL_EXT4 p
	ul_layers $base
	mkdir -p $base/lower/d/sub && echo f >$base/lower/d/sub/f
	ul_mount_fs $1 $base || return 1
	echo "chmod 700 d/sub: $(ul-union-sys chmod $UL_MNT/d/sub 700)"
	umount $UL_MNT
	for p in . d d/sub; do
		echo "upper $p impure: $(getfattr --only-values -n trusted.overlay.impure $base/upper/$p 2>/dev/null || echo no)"
	done
	ul_mount_fs overlay $base || return 1
	inos $UL_MNT/d/sub "overlayfs on that upper: d/sub"
	umount $UL_MNT
}
rc=0
ul_against_overlay copied || rc=1
ul_finish $rc
