# The union holds private clones of the layers' mounts, not the mounts
# named at mount time: the user's mount of the layers can be made
# read-only and then unmounted while the union is mounted, and the union
# goes on reading and writing through its own. Were the user's mount
# held, the remount would make the union read-only and the umount fail
# with EBUSY.
. /tests/union-lib/union.sh
ul_start || exit 1
B=$UL_EXT4 M=/mnt/layers
ul_fresh $B
echo lower >$B/lower/f
mkdir -p $M
mount --bind $B $M || exit 1
mount -t unionlite -o lowerdir=$M/lower,upperdir=$M/upper,workdir=$M/work none $UL_MNT || exit 1
awk '$3 == "unionlite" { print $1, $2, $3 }' /proc/mounts
echo "## the user's mount made read-only"
mount -o remount,bind,ro $M && echo "remount ro: ok"
echo "creat $M/upper/x: $(ul-union-sys creat $M/upper/x 644)"
echo "append to f: $(ul-union-sys append $UL_MNT/f +)"
echo "mkdir d: $(ul-union-sys mkdir $UL_MNT/d 755)"
echo "## the user's mount unmounted"
umount $M && echo "umount: ok"
echo "creat d/n: $(ul-union-sys creat $UL_MNT/d/n 644)"
echo "unlink f: $(ul-union-sys unlink $UL_MNT/f)"
echo "## union"
ul_tree $UL_MNT
echo "## upper, through the disk's own mount"
ul_tree $B/upper
ul_umount || exit 1
ul_work $B
ul_finish 0
