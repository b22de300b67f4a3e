# Kernel overlayfs over an ext2 upper, the series' reason to exist. On
# the pristine kernel (6.1's ext2, no RENAME_WHITEOUT nor RENAME_EXCHANGE)
# overlayfs warns at mount and a rename that must leave a whiteout fails;
# with the series (base, debug) there is no warning and the whiteout
# transitions of the cover letter's recipes work, in the same on-upper
# format unionlite writes. Each scenario prints its outcome and the union
# afterwards; the upper layer is shown at the end.
. /tests/lib/common.sh
. /tests/union-lib/union.sh
ul_mount_disks || exit 1
rc=0
B=$UL_EXT2
ul_layers $B
L=$B/lower U=$B/upper
echo lp >$L/p; echo lq >$L/q; echo le >$L/e
mkdir $L/d; echo l >$L/d/x
mkdir $L/w; echo l >$L/w/x
mkdir $L/t; echo l >$L/t/x
mkdir $U/t; mknod $U/t/x c 0 0
mkdir $U/s; echo u >$U/s/z
dmesg -c >/dev/null
mount -t overlay -o lowerdir=$L,upperdir=$U,workdir=$B/work overlay $UL_MNT || exit 1
echo "## mount: kernel says"
dmesg -c | sed -n 's/^\[[^]]*\] //; /^overlayfs/p'
cd $UL_MNT
echo "## rename p r (p lower-only, r nowhere): $(ul-union-sys rename p r)"
echo "## rename e q (both lower-only): $(ul-union-sys rename e q)"
echo "## rmdir d after rm d/x: $(ul-union-sys unlink d/x) $(ul-union-sys rmdir d)"
echo "## mkdir d over its whiteout: $(ul-union-sys mkdir d 755)"
echo "## unlink w/x, creat w/x over it: $(ul-union-sys unlink w/x) $(ul-union-sys creat w/x 644)"
echo "## rename s t (t empty, whiteouts in upper): $(ul-union-sys rename s t)"
cd /
echo "## union"
ul_tree $UL_MNT
umount $UL_MNT || rc=1
echo "## upper"
ul_tree $U
ul_umount_disks || rc=1
exit $rc
