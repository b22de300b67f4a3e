# The upper layer changed directly while the union's dentries stay
# cached: each namespace operation looks its upper names up again under
# the parent locks and returns ESTALE, touching nothing, when a name no
# longer holds the object the union dentry says. On ext4 and ext2:
#   unlink u   upper-only file, upper/u renamed to upper/u.moved
#   rmdir d    upper-only dir, upper/d renamed to upper/d.moved
#   rename a b upper-only file, upper/a renamed to upper/a.moved
#   rename p q upper/q replaced by another file
#   unlink f   upper f over lower f (needs a whiteout), upper/f renamed
#   rmdir m    merged dir (recipe 1), upper/m renamed
#   rename r4p r4q  recipe 4 (r4q merged, only whiteouts in upper):
#              upper/r4p renamed; r4q changes before the rename of P,
#              so P is checked first: no step at all
#   rename r4s r4t  recipe 4, upper/r4t replaced by another directory
# A check of the upper parent and hash alone passes the first three and
# removes or moves the renamed object. After a remount the union shows
# the upper layer as it is.
. /tests/union-lib/union.sh
ul_start trace=1 || exit 1
rc=0
for base in $UL_EXT4 $UL_EXT2; do
	ul_fresh $base
	L=$base/lower U=$base/upper
	echo u >$U/u
	mkdir $U/d
	echo a >$U/a
	echo p >$U/p
	echo q >$U/q
	echo lower-f >$L/f
	echo upper-f >$U/f
	mkdir $L/m $U/m
	mkdir $U/r4p $L/r4q $U/r4q $U/r4s $L/r4t $U/r4t
	echo l >$L/r4q/x; mknod $U/r4q/x c 0 0
	echo l >$L/r4t/x; mknod $U/r4t/x c 0 0
	ul_mount $base || { rc=1; continue; }
	# every name looked up (and cached) before the upper layer changes
	ls -l $UL_MNT/u $UL_MNT/a $UL_MNT/p $UL_MNT/q $UL_MNT/f >/dev/null
	ls -ld $UL_MNT/d $UL_MNT/m $UL_MNT/r4p $UL_MNT/r4q $UL_MNT/r4s \
		$UL_MNT/r4t >/dev/null
	mv $U/u $U/u.moved
	mv $U/d $U/d.moved
	mv $U/a $U/a.moved
	rm $U/q && echo other-q >$U/q
	mv $U/f $U/f.moved
	mv $U/m $U/m.moved
	mv $U/r4p $U/r4p.moved
	mv $U/r4t $U/r4t.moved && mkdir $U/r4t
	dmesg -c >/dev/null
	echo "unlink u: $(ul-union-sys unlink $UL_MNT/u)"
	echo "rmdir d: $(ul-union-sys rmdir $UL_MNT/d)"
	echo "rename a b: $(ul-union-sys rename $UL_MNT/a $UL_MNT/b)"
	echo "rename p q: $(ul-union-sys rename $UL_MNT/p $UL_MNT/q)"
	echo "unlink f: $(ul-union-sys unlink $UL_MNT/f)"
	echo "rmdir m: $(ul-union-sys rmdir $UL_MNT/m)"
	echo "rename r4p r4q: $(ul-union-sys rename $UL_MNT/r4p $UL_MNT/r4q)"
	echo "rename r4s r4t: $(ul-union-sys rename $UL_MNT/r4s $UL_MNT/r4t)"
	echo "## upper steps taken"
	ul_trace_lines
	echo "## upper"
	ul_tree $U
	ul_umount || rc=1
	ul_work $base
	ul_mount $base || { rc=1; continue; }
	echo "## union after a remount"
	ul_tree $UL_MNT
	ul_umount || rc=1
done
ul_finish $rc
