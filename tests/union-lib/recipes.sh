# Sourced by the recipe-* guest scripts (busybox sh): one scenario per
# whiteout recipe (docs/recipes.md), each on a fresh ext4 and ext2 upper.
# For each: the upper layer before, the operation's outcome (ok / errno),
# the exact trace of upper/work changes, the union and upper after, then a
# remount (the view must not change) and the work dir after umount.
. /tests/union-lib/union.sh

# rc_setup SCENARIO L U: the layers of one scenario
rc_setup() {
	local L=$2 U=$3
	case $1 in
	rmdir-merged)	# P merged, empty in the union, whiteouts in upper
		mkdir -p $L/P $U/P; echo l >$L/P/x; echo l >$L/P/y
		mknod $U/P/x c 0 0; mknod $U/P/y c 0 0 ;;
	rmdir-lower)	# P only in lower, empty
		mkdir $L/P ;;
	mkdir-over-whiteout|create-over-whiteout|symlink-over-whiteout|mknod-over-whiteout|link-over-whiteout)
		mkdir $L/P; echo l >$L/P/x; mknod $U/P c 0 0; echo u >$U/f ;;
	unlink-lower)	# P only in lower
		echo l >$L/P ;;
	unlink-upper)	# upper P over lower P
		echo l >$L/P; echo u >$U/P ;;
	rename-negative|rename-noreplace)	# recipe 3: P lower-only, Q nowhere
		echo l >$L/P ;;
	rename-onto-whiteout)	# recipe 3: P lower-only, upper/Q a whiteout
		echo l >$L/P; echo l >$L/Q; mknod $U/Q c 0 0 ;;
	rename-upper-onto-whiteout)	# P upper-only dir, upper/Q whiteout over lower dir
		mkdir $U/P; echo u >$U/P/z; mkdir $L/Q; echo l >$L/Q/x
		mknod $U/Q c 0 0 ;;
	rename-file-onto-whiteout)	# P upper-only file, upper/Q a whiteout
		echo u >$U/P; echo l >$L/Q; mknod $U/Q c 0 0 ;;
	noreplace-onto-whiteout)	# P upper-only, upper/Q a whiteout
		echo u >$U/P; echo l >$L/Q; mknod $U/Q c 0 0 ;;
	rename-dir-over-whiteouts)	# recipe 4: P upper-only dir, Q merged empty
		mkdir $U/P; echo u >$U/P/z
		mkdir $L/Q $U/Q; echo l >$L/Q/x; mknod $U/Q/x c 0 0 ;;
	rename-dir-over-empty-merged)	# no recipe 4: P upper-only dir, Q
		# merged and empty, its upper without whiteouts
		mkdir $U/P; echo u >$U/P/z; mkdir $L/Q $U/Q ;;
	rename-dir-over-whiteouts-p-lower)	# recipes 4 and 5: P an opaque
		# upper dir over lower P (needs a whiteout), Q merged empty
		mkdir $L/P $U/P; echo l >$L/P/x; echo u >$U/P/z
		setfattr -n trusted.overlay.opaque -v y $U/P
		mkdir $L/Q $U/Q; echo l >$L/Q/x; mknod $U/Q/x c 0 0 ;;
	rename-existing)	# recipe 5: P lower-only, Q in upper over lower
		echo l >$L/P; echo l >$L/Q; echo u >$U/Q ;;
	rename-lower-q)	# recipe 5: P and Q lower-only (Q exists in the
		# union, so recipe 3's first step would hide it)
		echo lp >$L/P; echo lq >$L/Q ;;
	rename-into-lower-dir)	# recipe 5: P lower-only, e/x lower-only in
		# a lower-only directory (copied up first)
		echo lp >$L/P; mkdir $L/e; echo lx >$L/e/x ;;
	exchange)	# RENAME_EXCHANGE of two lower files
		echo lp >$L/P; echo lq >$L/Q ;;
	rename-lower-dir)	# a directory that exists in lower: EXDEV
		mkdir $L/P; echo l >$L/P/x ;;
	# recipe 6 (redirect_dir=on)
	dir-merged)	# P merged (in upper already): renamed in its parent
		mkdir $L/P $U/P; echo l >$L/P/x; echo u >$U/P/y ;;
	dir-lower)	# P lower-only, moved into lower-only e (copied up first)
		mkdir -p $L/P $L/e; echo l >$L/P/x ;;
	dir-onto-whiteout)	# P lower-only, upper/Q a whiteout over lower Q
		mkdir $L/P $L/Q; echo l >$L/P/x; echo q >$L/Q/q; mknod $U/Q c 0 0 ;;
	dir-over-whiteouts)	# P lower-only, Q merged and empty (whiteouts)
		mkdir $L/P $L/Q $U/Q; echo l >$L/P/x; echo q >$L/Q/q
		mknod $U/Q/q c 0 0 ;;
	dir-moved)	# P moved before (its redirect holds in its parent)
		mkdir $L/O $U/P; echo l >$L/O/x; mknod $U/O c 0 0
		setfattr -n trusted.overlay.redirect -v O $U/P ;;
	dir-redirect-fails|dir-merged-redirect-fails)	# the redirect cannot
		# be set (ul_fault_redirect fails once): EXDEV, the view unchanged
		mkdir $L/P; echo l >$L/P/x
		[ $1 = dir-merged-redirect-fails ] && mkdir $U/P ;;
	dir-exchange)	# RENAME_EXCHANGE of lower-only P and e/E
		mkdir -p $L/P $L/e/E; echo p >$L/P/p; echo e >$L/e/E/e ;;
	esac
}

# rc_op SCENARIO: the operation, in $UL_MNT
rc_op() {
	case $1 in
	rmdir-*)			ul-union-sys rmdir P ;;
	mkdir-over-whiteout)		ul-union-sys mkdir P 755 ;;
	create-over-whiteout)		ul-union-sys creat P 644 ;;
	symlink-over-whiteout)		ul-union-sys symlink f P ;;
	mknod-over-whiteout)		ul-union-sys mknod P p 0 0 644 ;;
	link-over-whiteout)		ul-union-sys link f P ;;
	unlink-*)			ul-union-sys unlink P ;;
	rename-noreplace|noreplace-*)	ul-union-sys rename -n P Q ;;
	exchange)			ul-union-sys rename -x P Q ;;
	rename-lower-dir)		ul-union-sys rename P Q ;;
	rename-into-lower-dir)		ul-union-sys rename P e/x ;;
	dir-lower)			ul-union-sys rename P e/Q ;;
	dir-exchange)			ul-union-sys rename -x P e/E ;;
	dir-*redirect-fails)		ul_fault ul_fault_redirect 1
					ul-union-sys rename P Q ;;
	dir-*)				ul-union-sys rename P Q ;;
	rename-*)			ul-union-sys rename P Q ;;
	esac
}

# rc_scenario BASE SCENARIO: prints everything; the trace also in
# /tmp/trace.SCENARIO.FSTYPE
rc_scenario() {
	local base=$1 s=$2 L=$1/lower U=$1/upper fs
	fs=$(ul_fstype $base)
	echo "### $s on $fs"
	ul_layers $base
	rc_setup $s $L $U
	echo "## upper before"
	ul_tree $U
	ul_mount $base || return 1
	cd $UL_MNT
	dmesg -c >/dev/null
	echo "## $s: $(rc_op $s)"
	ul_trace_lines | tee /tmp/trace.$s.$fs
	cd /
	echo "## union"
	ul_tree $UL_MNT >/tmp/view.$s
	cat /tmp/view.$s
	echo "## upper after"
	ul_tree $U
	ul_umount || return 1
	ul_work $base
	ul_mount $base || return 1
	ul_tree $UL_MNT | cmp -s - /tmp/view.$s && echo "remount: same view" ||
		echo "remount: VIEW CHANGED"
	ul_umount || return 1
	ul_work $base
}

# rc_main SCENARIO...: every scenario on the ext4 and the ext2 upper,
# the image checked by e2fsck after each
rc_main() {
	local base s rc=0
	ul_mount_disks || return 1
	for base in $UL_EXT4 $UL_EXT2; do
		for s in "$@"; do
			rc_scenario $base $s || rc=1
			ul_fsck_disk $base "$s" || rc=1
		done
	done
	ul_umount_disks || rc=1
	return $rc
}
