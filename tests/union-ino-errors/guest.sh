# An inode number that cannot be worked out is an error, as on
# overlayfs, never "the upper number": a lookup fails, and so does a
# readdir, which would otherwise find the directory's impure mark
# unneeded and remove it from the upper for good. A lower file f moved
# into an upper-only directory b: its copy keeps f's lower number, so b
# is marked impure. Remounted, with the fault-injection point
# ul_fault_origin failing once with ENOMEM (an origin that cannot be
# followed): a readdir of b fails and b keeps its mark; then stat b/f fails the
# same way. With no fault: ls b, and f's d_ino is its st_ino.
. /tests/union-lib/union.sh
ul_start || exit 1
B=$UL_EXT4

impure() {
	echo "upper b impure: $(getfattr --only-values -n trusted.overlay.impure $B/upper/b 2>/dev/null || echo no)"
}

ul_layers $B
mkdir $B/lower/a && echo f >$B/lower/a/f
ul_mount $B || exit 1
echo "mkdir b: $(ul-union-sys mkdir $UL_MNT/b 755)"
echo "rename a/f b/f: $(ul-union-sys rename $UL_MNT/a/f $UL_MNT/b/f)"
ul_umount
impure
for op in "readdir b" "stat b/f"; do
	ul_mount $B || exit 1
	ul_fault ul_fault_origin 1 || exit 1
	case $op in
	readdir*) echo "$op, the origin failing: $(ul-union-sys readdir $UL_MNT/b)" ;;
	*) echo "$op, the origin failing: $(ul-union-sys stat $UL_MNT/b/f)" ;;
	esac
	ul_fault_off ul_fault_origin
	ul_umount
	impure
done
ul_mount $B || exit 1
echo "ls b: $(ls $UL_MNT/b | tr '\n' ' ')"
out=$(ul-union-sys inos $UL_MNT/b/f)
st=${out#*st_ino=}; st=${st%% *}
d=${out#*d_ino=}; d=${d%% *}
lo=$(stat -c %i $B/lower/a/f)
rc=0
[ "$st" = "$d" ] && echo "b/f: d_ino = st_ino" || { echo "b/f: d_ino != st_ino"; rc=1; }
[ "$st" = "$lo" ] && echo "b/f: st_ino is the lower file's" || echo "b/f: st_ino is not the lower file's"
ul_umount
ul_finish $rc
