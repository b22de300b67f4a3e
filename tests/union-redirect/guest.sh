# Directory rename with redirect_dir=on (recipe 6, docs/recipes.md) on
# unionlite and on overlayfs, over the same layers: each scenario's
# transcript must be the same on both. A scenario prints the outcome of
# each rename, the union's view, the moved directory's st_ino (kept or
# not), d_ino against st_ino for it and "..", and then the view of the
# same layers under the other union (an upper written by unionlite read
# by overlayfs, and the other way round). Then: the default
# (redirect_dir=off: EXDEV), nofollow over a redirect (EPERM), follow,
# redirect_max (EXDEV before any change), malformed redirects, metacopy
# files, redirects in lower layers
# (relative, absolute, past an opaque ancestor) over three layers.
. /tests/union-lib/union.sh
ul_start || exit 1
B=$UL_EXT4
L=$B/lower U=$B/upper
rc=0

other() { [ "$1" = unionlite ] && echo overlay || echo unionlite; }

# on FS [OPTS]: mount FS over $B with OPTS (default redirect_dir=on)
on() { ul_mount_fs $1 $B "${2-redirect_dir=on}"; }

# mvd A B [-x]: rename A to B in the union, errno printed
mvd() {
	echo "rename $*: $(cd $UL_MNT && ul-union-sys rename $3 $1 $2 2>&1)"
}

ino() { stat -c %i "$UL_MNT/$1" 2>/dev/null || echo none; }

# inocheck PATH: its d_ino in the parent's listing against its st_ino, and
# whether its ".." is its parent
inocheck() {
	local p=$UL_MNT/$1 st d
	set -- $(ul-union-sys inos $p)
	st=${3#st_ino=} d=${4#d_ino=}
	echo "inos $(basename $p): d_ino $([ "$st" = "$d" ] && echo '=' || echo '!=') st_ino, .. $(ul_dotdot $p)"
}

# view FS: the union's tree, then the layers under the other union
view() {
	echo "view:"; ul_tree $UL_MNT | sed 's/^/  /'
	umount $UL_MNT
	on $(other $1) || return 1
	ul_tree $UL_MNT >/tmp/cross
	umount $UL_MNT
	on $1 || return 1
	ul_tree $UL_MNT | cmp -s - /tmp/cross && echo "the other union: same view" ||
		{ echo "the other union: DIFFERENT VIEW"; diff /tmp/cross - <<EOT
$(ul_tree $UL_MNT)
EOT
		}
}

s_inplace() {	# a merged dir renamed in its parent
	mkdir -p $L/a/sub $U/a; echo x >$L/a/x; echo y >$L/a/sub/y; echo u >$U/a/u
	on $1 || return 1
	i=$(ino a); mvd a b
	echo "st_ino kept: $([ "$(ino b)" = "$i" ] && echo yes || echo no)"
	inocheck b; inocheck b/sub
	view $1; umount $UL_MNT
}

s_move() {	# a lower-only dir into another dir, again, back to its name
	mkdir -p $L/d1/P/in $L/d2; echo x >$L/d1/P/x; echo z >$L/d2/z
	on $1 || return 1
	i=$(ino d1/P); mvd d1/P d2/Q
	echo "st_ino kept: $([ "$(ino d2/Q)" = "$i" ] && echo yes || echo no)"
	inocheck d2/Q; inocheck d2/Q/in
	mvd d2/Q d1/R; inocheck d1/R
	mvd d1/R d1/P; inocheck d1/P
	echo "st_ino kept: $([ "$(ino d1/P)" = "$i" ] && echo yes || echo no)"
	view $1; umount $UL_MNT
}

s_parent() {	# the parent of a moved dir renamed, then moved itself
	mkdir -p $L/A/B/C $L/X; echo f >$L/A/B/C/f
	on $1 || return 1
	mvd A/B X/B2; mvd X X2; mvd X2/B2 X2/B3; mvd X2 A/X3
	inocheck A/X3/B3/C
	view $1; umount $UL_MNT
}

s_exchange() {	# RENAME_EXCHANGE of two lower dirs, same and other parent
	mkdir -p $L/P $L/Q $L/e/E; echo p >$L/P/p; echo q >$L/Q/q; echo e >$L/e/E/e
	on $1 || return 1
	mvd P Q -x; mvd Q e/E -x; inocheck e/E; inocheck Q
	view $1; umount $UL_MNT
}

s_over() {	# a moved dir over an empty opaque dir, over a whiteout
	mkdir -p $L/P $L/R $L/E; echo p >$L/P/p; echo r >$L/R/r; echo e >$L/E/e; echo w >$L/W
	on $1 || return 1
	rm $UL_MNT/E/e; rmdir $UL_MNT/E; mkdir $UL_MNT/E; rm $UL_MNT/W
	mvd P E; mvd R W; inocheck E; inocheck W
	view $1; umount $UL_MNT
}

s_emptied() {	# a moved dir emptied and removed; a dir of whiteouts as Q
	mkdir -p $L/P/s $L/Q; echo p >$L/P/p; echo s >$L/P/s/s; echo q >$L/Q/q
	on $1 || return 1
	mvd P M; rm -r $UL_MNT/M/p $UL_MNT/M/s; echo "rmdir M: $(ul_errno rmdir $UL_MNT/M)"
	rm $UL_MNT/Q/q; mkdir -p $L/S; echo s >$L/S/s; mvd S Q
	view $1; umount $UL_MNT
}

s_inside() {	# changes inside a moved dir, nested moves
	mkdir -p $L/P/n/m $L/O; echo x >$L/P/x; echo y >$L/P/y; echo k >$L/P/n/m/k
	on $1 || return 1
	mvd P Q; rm $UL_MNT/Q/x; echo more >>$UL_MNT/Q/y; mkdir $UL_MNT/Q/new
	mvd Q/n Q/n2; mvd Q/n2/m O/m2; mvd O Q/O2
	inocheck Q/n2; inocheck Q/O2/m2
	view $1; umount $UL_MNT
}

s_default() {	# without redirect_dir=on: EXDEV; redirects still followed
	mkdir -p $L/P $L/M; echo p >$L/P/p; echo m >$L/M/m
	on $1 "" || return 1
	mvd P Q; mvd M P -x; umount $UL_MNT
	on $1 || return 1; mvd P Q; umount $UL_MNT
	for o in redirect_dir=off redirect_dir=follow redirect_dir=nofollow; do
		dmesg -c >/dev/null
		on $1 $o || return 1
		echo "$o: ls Q: $(ls $UL_MNT/Q 2>&1 | sed 's/.*: //' | tr '\n' ' ')"
		dmesg -c | sed -n 's/^\[[^]]*\] //; s/^\(unionlite\|overlayfs\): /log: /p'
		umount $UL_MNT
	done
}

s_long() {	# redirect_max (both modules' parameter) 6: a longer one is EXDEV
	mkdir -p $L/dir1/P $L/d2 $L/Q; echo p >$L/dir1/P/p
	for m in unionlite overlay; do echo 6 >/sys/module/$m/parameters/redirect_max; done
	on $1 || return 1
	mvd dir1/P d2/P; mvd Q d2/Q; mvd dir1/P dir1/R
	for m in unionlite overlay; do echo 256 >/sys/module/$m/parameters/redirect_max; done
	view $1; umount $UL_MNT
}

s_bad() {	# malformed redirects and metacopy files in upper
	mkdir -p $L/P $U/a $U/b $U/c $L/m; echo p >$L/P/p; echo l >$L/f; echo u >$U/f; echo u >$U/g
	setfattr -n trusted.overlay.redirect -v P/x $U/a
	setfattr -n trusted.overlay.redirect -v //P $U/b
	setfattr -n trusted.overlay.redirect -v /P $U/c
	setfattr -n trusted.overlay.metacopy -v "" $U/f $U/g
	on $1 || return 1
	for n in a b c f g; do
		dmesg -c >/dev/null
		echo "ls $n: $(ls $UL_MNT/$n 2>&1 | sed 's/.*: //' | tr '\n' ' ')"
		dmesg -c | sed -n 's/^\[[^]]*\] //; s/^\(unionlite\|overlayfs\): /log: /p'
	done
	umount $UL_MNT
}

s_lowers() {	# redirects in lower layers, three of them
	local l1=$B/l1 l2=$B/l2 l3=$B/l3
	rm -rf $l1 $l2 $l3; mkdir -p $l1/R $l1/O/X $l1/A $l2/S $l2/T $l2/Rel $l3/S $l3/A/sub
	setfattr -n trusted.overlay.redirect -v /S $l1/R		# absolute
	setfattr -n trusted.overlay.opaque -v y $l1/O
	setfattr -n trusted.overlay.redirect -v /T $l1/O/X	# past an opaque parent
	setfattr -n trusted.overlay.redirect -v Rel $l1/A		# relative, then by name
	echo 2 >$l2/S/s2; echo 3 >$l3/S/s3; echo t >$l2/T/t; echo r >$l2/Rel/r; echo a >$l3/A/sub/a
	mount -t $1 -o lowerdir=$l1:$l2:$l3,upperdir=$U,workdir=$B/work,redirect_dir=on none $UL_MNT || return 1
	ul_tree $UL_MNT
	mvd R R2; mvd O/X X2
	umount $UL_MNT
	mount -t $(other $1) -o lowerdir=$l1:$l2:$l3,upperdir=$U,workdir=$B/work,redirect_dir=on none $UL_MNT || return 1
	echo "the other union:"; ul_tree $UL_MNT
	umount $UL_MNT
}

scenario() {
	local fs=$1 s=$2
	ul_layers $B
	echo "## $s"
	s_$s $fs
	ul_umount_if
	echo "upper:"; ul_tree $U | ul_mask_origin | sed 's/^/  /'
}

for s in inplace move parent exchange over emptied inside default long bad lowers; do
	ul_against_overlay scenario $s || rc=1
	ul_fsck_disk $B $s || rc=1
done
ul_finish $rc
