# Stale whiteouts: an upper directory that holds whiteouts whose lower
# names are gone (the lower layer changed while unmounted) lists as
# empty and can be removed, or renamed over, through the union. On
# overlayfs and on unionlite (trace=1), both uppers on ext4 and ext2:
#   d   upper-only now: lower/d removed offline; upper d holds whiteouts
#   e   merged: lower/e/z removed offline; upper e holds the whiteout z
#   q   upper-only with stale whiteouts, renamed over by a new directory
# Each: the listing, the operation's result, what the union and the
# upper layer hold after it. The next mount leaves stale whiteouts where
# they are; only these operations remove them.
. /tests/union-lib/union.sh
ul_start trace=1 || exit 1
rc=0

# scenario FS BASE: the sequence on one union type over BASE's layers
scenario() {
	local fs=$1 b=$2 m=$UL_MNT out
	ul_layers $b
	mkdir -p $b/lower/d $b/lower/e $b/lower/q
	echo x >$b/lower/d/x
	echo y >$b/lower/d/y
	echo z >$b/lower/e/z
	echo w >$b/lower/e/w
	echo v >$b/lower/q/v
	mnt() {
		mount -t $fs -o lowerdir=$b/lower,upperdir=$b/upper,workdir=$b/work none $m
	}
	mnt || return 1
	rm $m/d/x $m/d/y $m/e/z $m/q/v || return 1
	umount $m
	# the lower layer changes while nothing is mounted
	rm -rf $b/lower/d $b/lower/q
	rm $b/lower/e/z
	mnt || return 1
	dmesg -c >/dev/null
	echo "d: [$(ls -A $m/d | tr '\n' ' ')] e: [$(ls -A $m/e | tr '\n' ' ')] q: [$(ls -A $m/q | tr '\n' ' ')]"
	echo "rmdir d: $(ul-union-sys rmdir $m/d)"
	echo "rm e/w, rmdir e: $(ul-union-sys unlink $m/e/w) $(ul-union-sys rmdir $m/e)"
	mkdir $m/p && echo new >$m/p/f
	echo "rename p q: $(ul-union-sys rename $m/p $m/q)"
	[ $fs = unionlite ] && ul_trace_lines
	echo "union:"
	ul_tree $m
	umount $m
	echo "upper:"
	ul_tree $b/upper
	ul_fsck_disk $b "$fs" || rc=1
}

for b in $UL_EXT4 $UL_EXT2; do
	for fs in overlay unionlite; do
		echo "### $fs, upper on $(ul_fstype $b)"
		scenario $fs $b || rc=1
	done
done
ul_finish $rc
