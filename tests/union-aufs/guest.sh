# Lower layers with whiteouts in the AUFS form, as containers/storage
# writes them for a mount program: ".wh.N" (of any type) hides N in its
# layer and below, ".wh..wh..opq" makes a directory opaque, no ".wh."
# name is shown, and none can be made, also with marks in the upper
# layer (where an object beside its mark wins), nor by uid 1000 in a
# directory it owns (unionlite alone). unionlite with aufs_whiteouts
# against fuse-overlayfs, the form's reference reader: the view, lookups
# of hidden names, then changes over it. Without the option unionlite
# reads the same layers as overlayfs does (the marks are files).
. /tests/union-lib/union.sh
ul_start || exit 1
rc=0
B=$UL_EXT4

# layers: L3 (bottom) to L1 (top), the marks in L2
layers() {
	rm -rf $B/L1 $B/L2 $B/L3 $B/upper $B/work
	mkdir -p $B/L1/d $B/L2/d $B/L2/e $B/L2/.wh..wh.plnk $B/L3/d $B/L3/e \
		$B/L3/g $B/upper $B/work $UL_MNT || return 1
	mkdir -p $B/L3/i || return 1
	for f in a b keep f d/x d/y e/p g/deep h i/j; do
		echo "L3 $f" >$B/L3/$f
	done
	: >$B/L2/.wh.a			# a regular file
	ln -s nowhere $B/L2/.wh.b	# a dangling symlink
	mkdir $B/L2/.wh.g		# a directory
	: >$B/L2/d/.wh.x
	ln $B/L2/d/.wh.x $B/L2/d/.wh.y	# a hard link, as AUFS links them
	echo "L2 keep" >$B/L2/keep
	: >$B/L2/.wh.keep		# beside the name in its own layer
	: >$B/L2/e/.wh..wh..opq
	echo "L2 e/q" >$B/L2/e/q
	echo "L1 a" >$B/L1/a
	echo "L1 d/z" >$B/L1/d/z
	: >$B/L1/.wh.nothing		# a mark of a name no layer has
}

mnt() {
	local r o=lowerdir=$B/L1:$B/L2:$B/L3,upperdir=$B/upper,workdir=$B/work

	case $1 in
	unionlite) mount -t unionlite -o $o,aufs_whiteouts none $UL_MNT ;;
	fuse)	# it names an option the kernel passes it that it ignores
		fuse-overlayfs -o $o $UL_MNT 2>/tmp/fuse.err
		r=$?
		grep -v '^unknown argument ignored: lazytime$' /tmp/fuse.err
		return $r ;;
	overlay) mount -t overlay -o $o none $UL_MNT ;;
	esac
}

# view: every name under the union with its type and content
view() {
	(cd $UL_MNT && find . | sort | while read -r p; do
		if [ -d "$p" ]; then echo "$p/"; else echo "$p: $(cat "$p" 2>&1)"; fi
	done)
}

# aufs FS: the view, lookups and changes on FS (unionlite or fuse)
aufs() {
	layers || return 1
	mnt $1 || return 1
	echo "## view"
	view
	echo "## lookups"
	for p in a b g keep d/x d/y e/p .wh.a .wh.b .wh.keep .wh..wh.plnk e/.wh..wh..opq nothing; do
		echo "$p: $(ul_errno stat $UL_MNT/$p)"
	done
	echo "## a .wh. name"
	echo "create .wh.new: $(ul_errno touch $UL_MNT/.wh.new)"
	echo "## changes"
	rm $UL_MNT/a && rm -r $UL_MNT/d && echo new >$UL_MNT/b &&
		mkdir $UL_MNT/g && echo "new p" >$UL_MNT/e/p && rm $UL_MNT/f &&
		mkdir $UL_MNT/d && echo "new keep" >$UL_MNT/keep || echo "a change failed"
	view
	umount $UL_MNT
	echo "## mounted again"
	mnt $1 || return 1
	view
	umount $UL_MNT
	echo "## marks in the upper"
	: >$B/upper/.wh.h && : >$B/upper/e/.wh..wh..opq && mkdir $B/upper/i &&
		: >$B/upper/i/.wh..wh..opq && : >$B/upper/.wh.keep
	mnt $1 || return 1
	# keep beside its mark: unionlite shows the upper object
	view | sed 's|^\./keep:|intended: &|'
	for p in h i/j e/q .wh.h; do
		echo "$p: $(ul_errno stat $UL_MNT/$p)"
	done
	# i holds only a mark: empty, removed with it
	echo "rmdir i: $(ul_errno rmdir $UL_MNT/i); i: $(ul_errno stat $UL_MNT/i)"
	echo "intended: mkdir .wh.dir: $(ul_errno mkdir $UL_MNT/.wh.dir)"
	umount $UL_MNT
}

echo "### unionlite aufs_whiteouts against fuse-overlayfs"
aufs unionlite >/tmp/aufs.unionlite 2>&1
aufs fuse >/tmp/aufs.fuse 2>&1
cat /tmp/aufs.unionlite
# lines "intended: " are the intended differences of docs/overlayfs.md:
# both printed, left out of the comparison
for f in unionlite fuse; do
	grep -v '^intended: ' /tmp/aufs.$f >/tmp/aufs.$f.cmp
done
grep '^intended: ' /tmp/aufs.fuse | sed 's/^intended: /fuse-overlayfs: /'
if ! cmp -s /tmp/aufs.unionlite.cmp /tmp/aufs.fuse.cmp; then
	echo "fuse-overlayfs differs (- unionlite, + fuse-overlayfs):"
	diff -U0 /tmp/aufs.unionlite.cmp /tmp/aufs.fuse.cmp | sed -n 's/^[-+][^-+]/	&/p'
	rc=1
fi

# uid 1000, in a lower directory it owns, makes no ".wh." name by any
# call (each would hide o/f once this upper is a lower layer); the
# checks of the union inode come first: EACCES where it may not write
echo "### unionlite aufs_whiteouts, uid 1000"
layers || exit 1
mkdir $B/L3/o $B/L3/c && echo "L3 o/f" >$B/L3/o/f && echo "L3 o/g" >$B/L3/o/g &&
	chown -R 1000:1000 $B/L3/o || exit 1
mnt unionlite || exit 1
as="ul-union-sys as 1000 1000"
M=$UL_MNT
for call in "creat $M/o/.wh.f 644" "mkdir $M/o/.wh.f 755" \
	    "mknod $M/o/.wh.f p 0 0 644" "symlink f $M/o/.wh.f" \
	    "link $M/o/g $M/o/.wh.f" "rename $M/o/g $M/o/.wh.f" \
	    "creat $M/c/.wh.f 644"; do
	echo "$(echo $call | sed "s|$M/||g"): $($as $call)"
done
echo "o/f: $(cat $M/o/f 2>&1); o/g: $(cat $M/o/g 2>&1)"
umount $UL_MNT
echo "upper: $(cd $B/upper && find . -name '.wh.*' | sort | tr '\n' ' ')"

# plain FS: the same layers, the marks read as overlayfs reads them
plain() {
	layers || return 1
	mnt $1 || return 1
	view
	umount $UL_MNT
}
echo "### without aufs_whiteouts, against overlayfs"
mnt() {
	mount -t $1 -o lowerdir=$B/L1:$B/L2:$B/L3,upperdir=$B/upper,workdir=$B/work none $UL_MNT
}
ul_against_overlay plain || rc=1
ul_finish $rc
