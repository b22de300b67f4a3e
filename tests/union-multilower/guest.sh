# Several lower layers (lowerdir=L1:L2:...:Ln, L1 on top). Five layers
# hold files, directories, whiteouts and opaque directories, each kind in
# each position; the union of the first 1, 2, 3 and 5 of them is printed
# (with an empty upper, then without upper: read-only) beside overlayfs
# over the same layers, whose view must be the same. Then: every write
# to a union without upper fails with EROFS, each recipe over three
# layers (overlayfs's upper must come out the same), an upper layer used
# as a lower one, inode numbers across four filesystems, and the
# mount-time checks. On ext4 and ext2 uppers.
. /tests/union-lib/union.sh
ul_start || exit 1
rc=0
OV=/mnt/ovl
mkdir -p $OV $UL_MNT

# make_layers BASE: BASE/l1 ... BASE/l5 (few processes: see tree())
make_layers() {
	local i k
	rm -rf "$1"/l?
	cd "$1" || return 1
	mkdir -p l1/d l2/d l3/d l4/d l5/d l1/o1 l1/o2 l1/o3 l1/o4 l1/o5 \
		l2/o1 l2/o2 l2/o3 l2/o4 l2/o5 l3/o1 l3/o2 l3/o3 l3/o4 l3/o5 \
		l4/o1 l4/o2 l4/o3 l4/o4 l4/o5 l5/o1 l5/o2 l5/o3 l5/o4 l5/o5 \
		l2/nd l1/dnd l3/dnd l1/wd l3/wd l1/gap l4/gap l3/solo \
		l5/opaquebottom || return 1
	for i in 1 2 3 4 5; do
		printf "l$i" > "l$i/only$i"	# one name per layer
		printf "l$i" > "l$i/top"	# the topmost wins
		printf "l$i" > "l$i/d/x$i"	# merged through all layers
		for k in 1 2 3 4 5; do		# o<k>: opaque in layer k
			printf "l$i" > "l$i/o$k/y$i"
		done
		# w<k>: a whiteout in layer k over a file in every layer below
		for k in 1 2 3 4; do
			[ $i -gt $k ] && printf "l$i" > "l$i/w$k"
		done
	done
	setfattr -n trusted.overlay.opaque -v y l1/o1 l2/o2 l3/o3 l4/o4 l5/o5 \
		l5/opaquebottom
	for k in 1 2 3 4; do mknod "l$k/w$k" c 0 0; done
	mknod l5/wbottom c 0 0			# a whiteout over nothing
	mknod l1/d/x3 c 0 0			# hides one merged entry
	printf "file in l1" > l1/nd; printf l2 > l2/nd/in	# a file over a dir
	printf l1 > l1/dnd/a; printf l2 > l2/dnd; printf l3 > l3/dnd/b	# a file cuts the merge
	printf l1 > l1/wd/c; mknod l2/wd c 0 0; printf l3 > l3/wd/e	# so does a whiteout
	printf l1 > l1/gap/p1; printf l4 > l4/gap/p4	# merged over layers without it
	printf l3 > l3/solo/here; mknod l3/solo/gone c 0 0	# one real dir: read straight
	printf l5 > l5/opaquebottom/z
	ln -s top l2/link
	cd / || return 1
}

# lowers BASE N: BASE/l1:...:BASE/lN
lowers() {
	local i s=$1/l1
	for i in $(seq 2 "$2"); do s="$s:$1/l$i"; done
	echo "$s"
}

# tree DIR: every object below DIR (name, type, mode, owner, device
# numbers, a symlink's target), then the files' contents and the opaque
# marks; a few processes for the whole tree
tree() {
	(
		cd "$1" || exit 1
		find . -mindepth 1 | sort > /tmp/names
		xargs -r stat -c '%N: %F %A %u:%g %t:%T' < /tmp/names
		grep -v -e '^$' /tmp/names | xargs -r grep -H '' 2>/dev/null | grep -v ': Is a directory$'
		xargs -r getfattr -h -n trusted.overlay.opaque < /tmp/names 2>/dev/null |
			grep -e '^#' -e opaque
	) 2>/dev/null
}

# same WHAT A B: "-- WHAT: the same" when files A and B are, else the diff
same() {
	if cmp -s "$2" "$3"; then
		echo "-- $1: the same"
	else
		echo "-- $1: DIFFERS:"
		diff "$2" "$3"
		rc=1
	fi
}

# view NAME: the union's tree, and overlayfs's compared with it
view() {
	tree $UL_MNT > /tmp/ul.view
	tree $OV > /tmp/ov.view
	cat /tmp/ul.view
	same "overlayfs ($1)" /tmp/ul.view /tmp/ov.view
}

# both OPTIONS: mount unionlite and overlayfs with OPTIONS (the upper and
# work dirs, if any, named U and W: each gets its own)
both() {
	local b=$base
	mount -t unionlite -o "$(echo "$1" | sed "s|=U,|=$b/upper,|; s|=W\$|=$b/work|")" none $UL_MNT || return 1
	mkdir -p $b/oupper $b/owork
	mount -t overlay -o "$(echo "$1" | sed "s|=U,|=$b/oupper,|; s|=W\$|=$b/owork|")" overlay $OV || { umount $UL_MNT; return 1; }
}
unmount_both() {
	umount $UL_MNT || rc=1
	umount $OV || rc=1
}

# erofs: each write through a union without upper, and its errno
erofs() {
	local m=$UL_MNT
	for op in "creat $m/new 644" "mkdir $m/newdir 755" "mknod $m/fifo p 0 0 644" \
		"unlink $m/top" "rmdir $m/solo" "rename $m/top $m/top2" \
		"rename -x $m/top $m/only1" "link $m/top $m/top3" "symlink x $m/sl" \
		"open $m/top w" "open $m/top rw" "open $m/top wt" "truncate $m/top 0" \
		"chmod $m/top 600" "chown $m/top 1 1" "utime $m/top 1" \
		"setxattr $m/top user.x 1" "removexattr $m/top user.x" \
		"open $m/top r" "cat $m/top"; do
		# shellcheck disable=SC2086
		echo "$op: $(ul-union-sys $op)" | sed "s|$m|M|g"
	done
	echo "remount rw: $(mount -o remount,rw $m 2>&1 | sed 's/.*failed: //')"
	dmesg -c | sed -n 's/^\[[^]]*\] //; /^unionlite/p'
}

for base in $UL_EXT4 $UL_EXT2; do
	echo "### upper on $(ul_fstype $base)"
	make_layers $base || exit 1
	for n in 1 2 3 5; do
		rm -rf $base/upper $base/work $base/oupper $base/owork
		mkdir -p $base/upper $base/work
		echo "## $n lower layer(s), empty upper"
		both "lowerdir=$(lowers $base $n),upperdir=U,workdir=W" || { rc=1; continue; }
		view "$n layers"
		cp /tmp/ul.view /tmp/with-upper.view
		unmount_both
		[ $n = 1 ] && continue
		echo "## $n lower layer(s), no upper"
		both "lowerdir=$(lowers $base $n)" || { rc=1; continue; }
		tree $UL_MNT > /tmp/ul.view
		same "the view with the empty upper" /tmp/with-upper.view /tmp/ul.view
		tree $OV > /tmp/ov.view
		same overlayfs /tmp/ul.view /tmp/ov.view
		grep " $UL_MNT " /proc/mounts | sed "s|$base|BASE|g; s|^none $UL_MNT unionlite ||; s| 0 0\$||"
		if [ $n = 5 ]; then
			dmesg -c >/dev/null
			erofs
		fi
		unmount_both
	done

	echo "## an upper layer, then used as a lower one"
	rm -rf $base/upper $base/work $base/oupper $base/owork
	mkdir -p $base/upper $base/work
	both "lowerdir=$(lowers $base 3),upperdir=U,workdir=W" || { rc=1; continue; }
	# each recipe over the three layers, on both unions
	for m in $UL_MNT $OV; do
		rm $m/only2 $m/d/x2
		rm -r $m/o3 && mkdir $m/o3 && echo new > $m/o3/n
		mv $m/only1 $m/moved && echo changed > $m/top
		mkdir $m/gap/new && rm -r $m/o2
		rm $m/o4/y1 $m/o4/y2 $m/o4/y3 && mkdir $m/newp && echo in > $m/newp/f
		echo "rename newp o4: $(ul-union-sys rename $m/newp $m/o4)"
		echo "rename only3 top: $(ul-union-sys rename $m/only3 $m/top)"
		echo "rename link link2: $(ul-union-sys rename $m/link $m/link2)"
	done
	tree $base/upper > /tmp/ul.upper
	tree $base/oupper > /tmp/ov.upper
	echo "-- the upper layer:"
	cat /tmp/ul.upper
	same "overlayfs's upper layer" /tmp/ul.upper /tmp/ov.upper
	view "after the changes"
	cp /tmp/ul.view /tmp/with-upper.view
	unmount_both
	mount -t unionlite -o "lowerdir=$base/upper:$(lowers $base 3)" none $UL_MNT || rc=1
	mount -t overlay -o "lowerdir=$base/oupper:$(lowers $base 3)" overlay $OV || rc=1
	tree $UL_MNT > /tmp/ul.view
	same "the upper as the top lower layer, the view" /tmp/with-upper.view /tmp/ul.view
	tree $OV > /tmp/ov.view
	same overlayfs /tmp/ul.view /tmp/ov.view
	unmount_both
done

echo "### inode numbers over four filesystems"
# L1 and L2 on two tmpfs mounts (each numbers its inodes from 1: the same
# steps give the same numbers), L3 on the ext2 disk, L4 and the upper on
# the ext4 disk
T1=/tmp/tl1 T2=/tmp/tl2 E2=$UL_EXT2/il3 E4=$UL_EXT4
for t in $T1 $T2; do
	mkdir -p $t && mount -t tmpfs tmpfs $t && mkdir $t/d || rc=1
done
rm -rf $E2 $E4/il4 $E4/iup $E4/iwork
mkdir -p $E2/d $E4/il4/d $E4/iup $E4/iwork
echo a > $T1/a; echo x > $T1/d/x; echo b > $T2/b; echo y > $T2/d/y
echo c > $E2/c; echo w > $E2/d/w; echo e > $E4/il4/e; echo z > $E4/il4/d/z
echo "the two tmpfs layers' numbers: $(stat -c %i $T1/a $T1/d/x | tr '\n' ' ')and $(stat -c %i $T2/b $T2/d/y | tr '\n' ' ')" |
	awk '{ print ($6 == $9 && $7 == $10) ? "the two tmpfs layers number their files alike" : "tmpfs numbers differ: " $0 }'
for i in 1 2 3; do ln $E2/c $E2/c$i; done
layers=$T1:$T2:$E2:$E4/il4
mount -t unionlite -o lowerdir=$layers,upperdir=$E4/iup,workdir=$E4/iwork none $UL_MNT || rc=1
echo more >> $UL_MNT/d/y	# a copy-up from the second filesystem
echo more >> $UL_MNT/c		# and from the third
ul-identity scan $UL_MNT $E4/iup "$layers" /tmp/ino1
umount $UL_MNT
mount -t unionlite -o lowerdir=$layers,upperdir=$E4/iup,workdir=$E4/iwork none $UL_MNT || rc=1
ul-identity scan $UL_MNT $E4/iup "$layers" /tmp/ino2 >/dev/null
echo "after a remount: $(ul-identity compare /tmp/ino1 /tmp/ino2)"
umount $UL_MNT
umount $T1 && umount $T2 || rc=1

echo "### mount-time checks"
base=$UL_EXT4
L1=$base/l1 L2=$base/l2 U=$base/upper W=$base/work
rm -rf $U $W; mkdir -p $U $W $U/in
try() {
	ul_try_mount $base "$1" || rc=1
	echo "overlayfs: $(mount -t overlay -o "$1" overlay $OV 2>&1 | sed 's/.*failed: //')" |
		sed 's/overlayfs: $/overlayfs: mounted/'
	grep -q " $OV " /proc/mounts && umount $OV
	dmesg -c >/dev/null
}
try "lowerdir=$L1:$L1,upperdir=$U,workdir=$W"
try "lowerdir=$L1:$L1/d,upperdir=$U,workdir=$W"
try "lowerdir=$L1/d:$L1,upperdir=$U,workdir=$W"
try "lowerdir=$L1:$U/in,upperdir=$U,workdir=$W"
try "lowerdir=$L1:$W,upperdir=$U,workdir=$W"
try "lowerdir=$L1::$L2,upperdir=$U,workdir=$W"
try "lowerdir=:$L1,upperdir=$U,workdir=$W"
try "lowerdir=$L1:,upperdir=$U,workdir=$W"
try "lowerdir=$L1:$base/nothing,upperdir=$U,workdir=$W"
try "lowerdir=$L1"
try "lowerdir=$L1:$L2,workdir=$W"
echo "## a colon in a layer's path"
mkdir -p "$base/a:b" && echo colon > "$base/a:b/c"
mount -t unionlite -o "lowerdir=$base/a\:b:$L1,upperdir=$U,workdir=$W" none $UL_MNT || rc=1
cat $UL_MNT/c $UL_MNT/only1; echo
opts=$(grep " $UL_MNT " /proc/mounts | cut -d' ' -f4)
echo "$opts" | sed "s|$base|BASE|g"
umount $UL_MNT
# /proc/mounts writes a backslash as \134: the options as mount takes them
opts=$(printf '%b' "$(echo "$opts" | sed 's/\\\([0-7][0-7][0-7]\)/\\0\1/g')")
mount -t unionlite -o "$opts" none $UL_MNT && echo "mounted again from /proc/mounts: $(cat $UL_MNT/c)" && umount $UL_MNT
ul_finish $rc
