# Stale whiteouts: an upper directory that holds whiteouts whose lower
# names are gone (the lower layer changed while unmounted) lists as
# empty and can be removed, or renamed over, through the union. On
# overlayfs and on unionlite (trace=1), both uppers on ext4 and ext2:
#   d   upper-only now: lower/d removed offline; upper d holds whiteouts
#   e   merged: lower/e/z removed offline; upper e holds the whiteout z
#   q   upper-only with stale whiteouts, renamed over by a new directory
# Each: the listing, the operation's result, what the union and the
# upper layer hold after it. The next mount leaves stale whiteouts where
# they are; only these operations remove them. As root on both uppers,
# then as uid 1000 on the ext4 upper (the layers its own).
. /tests/union-lib/union.sh
ul_start trace=1 || exit 1
rc=0

# scenario FS BASE WHO: the sequence on one union type over BASE's
# layers, the calls through the union made by WHO (root or 1000)
scenario() {
	local fs=$1 b=$2 who=$3 m=$UL_MNT out sys=ul-union-sys
	[ $who = root ] || sys="ul-union-sys as $who $who"
	ul_layers $b
	mkdir -p $b/lower/d $b/lower/e $b/lower/q
	echo x >$b/lower/d/x
	echo y >$b/lower/d/y
	echo z >$b/lower/e/z
	echo w >$b/lower/e/w
	echo v >$b/lower/q/v
	[ $who = root ] || chown -R $who:$who $b/lower $b/upper
	mnt() {
		mount -t $fs -o lowerdir=$b/lower,upperdir=$b/upper,workdir=$b/work none $m
	}
	mnt || return 1
	out=$($sys unlink $m/d/x; $sys unlink $m/d/y; $sys unlink $m/e/z; $sys unlink $m/q/v)
	[ "$(echo $out)" = "ok ok ok ok" ] || { echo "rm: $out"; return 1; }
	umount $m
	# the lower layer changes while nothing is mounted
	rm -rf $b/lower/d $b/lower/q
	rm $b/lower/e/z
	mnt || return 1
	dmesg -c >/dev/null
	echo "d: [$(ls -A $m/d | tr '\n' ' ')] e: [$(ls -A $m/e | tr '\n' ' ')] q: [$(ls -A $m/q | tr '\n' ' ')]"
	echo "rmdir d: $($sys rmdir $m/d)"
	echo "rm e/w, rmdir e: $($sys unlink $m/e/w) $($sys rmdir $m/e)"
	echo "mkdir p, p/f: $($sys mkdir $m/p 755) $($sys creat $m/p/f 644)"
	echo "rename p q: $($sys rename $m/p $m/q)"
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
		scenario $fs $b root || rc=1
	done
done
for fs in overlay unionlite; do
	echo "### $fs, upper on ext4, as uid 1000"
	scenario $fs $UL_EXT4 1000 || rc=1
done
ul_finish $rc
