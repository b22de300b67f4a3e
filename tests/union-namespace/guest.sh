# Namespace operations that need no whiteout, on ext4 and ext2 uppers:
# create, mkdir, mknod, symlink, link, unlink, rmdir of upper-only objects,
# rename (0, NOREPLACE, EXCHANGE) of upper-only objects; then a sequence
# of operations that need a whiteout (the recipes of docs/recipes.md,
# shown one by one in tests/recipe-*); the trace lines.
. /tests/union-lib/union.sh
ul_start trace=1 || exit 1
for base in $UL_EXT4 $UL_EXT2; do
	ul_fresh $base
	L=$base/lower U=$base/upper
	mkdir $L/m $L/lo $L/emptylow $L/full
	echo lower >$L/m/lf
	echo lower >$L/full/x
	echo lower >$L/gone
	mkdir $U/m
	mknod $U/gone c 0 0
	ul_mount $base || exit 1
	cd $UL_MNT
	dmesg -c >/dev/null
	echo "## create"
	ul-union-sys creat m/f 640
	ul-union-sys mkdir m/d 750
	ul-union-sys mknod m/fifo p 0 0 600
	ul-union-sys mknod m/null c 1 3 600
	ul-union-sys symlink f m/sl
	ul-union-sys link m/f m/hl
	ul-union-sys creat lo/new 644
	ul-union-sys creat m/f 640
	ul-union-sys mknod m/wh c 0 0 600
	ul_trace_lines
	echo "## remove"
	ul-union-sys unlink m/hl
	ul-union-sys mkdir m/d/sub 755
	ul-union-sys rmdir m/d
	ul-union-sys rmdir m/d/sub
	ul-union-sys rmdir m/d
	ul-union-sys unlink m/fifo
	ul_trace_lines
	echo "## rename"
	echo A >m/a; echo B >m/b; mkdir m/da; echo inside >m/da/x
	dmesg -c >/dev/null
	ul-union-sys rename m/a m/a2
	ul-union-sys rename -n m/a2 m/b
	ul-union-sys rename -n m/a2 m/a3
	ul-union-sys rename -x m/a3 m/b
	ul-union-sys rename m/b m/a3
	ul-union-sys rename m/da lo/da
	ul-union-sys rename -w m/a3 m/w
	ul_trace_lines
	echo "## need a whiteout: the recipes"
	ul-union-sys unlink m/lf
	ul-union-sys rmdir emptylow
	ul-union-sys rmdir full
	ul-union-sys rename m/lf m/lf2
	ul-union-sys rename m/a3 m/lf
	ul-union-sys creat gone 644
	ul-union-sys mkdir gone 755
	ul-union-sys rename m/a3 gone
	ul_trace_lines
	cd /
	echo "## union"
	ul_tree $UL_MNT
	echo "## upper"
	ul_tree $U
	ul_umount || exit 1
	ul_work $base
done
ul_umount_disks || exit 1
rmmod unionlite
