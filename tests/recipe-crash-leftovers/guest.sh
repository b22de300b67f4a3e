# What a crash between two steps of a recipe leaves, made by hand in the
# layers (the upper name in its old or new state, a #n object in W/work),
# and how the next mount cleans it: W/work is emptied (logged), and the
# union shows the state before or after the operation, never a mix.
# On the debug kernel the ext4 upper alone: the mount's cleanup of
# W/work makes the same calls on both uppers (expected.debug.out).
. /tests/union-lib/union.sh
ul_start || exit 1
rc=0
bases="$UL_EXT4 $UL_EXT2"
[ "$UL_VARIANT" = debug ] && bases=$UL_EXT4
for base in $bases; do
	for s in r1-after-whiteout r1-after-exchange r1-after-unlinks \
		 r2-after-mkdir-opaque r2-after-exchange \
		 unlink-after-whiteout r3-after-whiteout \
		 r4-after-mkdir-opaque r4-after-exchange; do
		echo "### $s on $(ul_fstype $base)"
		ul_layers $base
		L=$base/lower U=$base/upper W=$base/work/work
		mkdir -p $W
		case $s in
		r1-*)	mkdir $L/P; echo l >$L/P/x ;;
		r2-*)	mkdir $L/P; echo l >$L/P/x; mknod $U/P c 0 0 ;;
		unlink-*) echo l >$L/P ;;
		r3-*)	echo l >$L/P; cp -a $L/P $U/P ;;
		r4-*)	mkdir $U/P; echo u >$U/P/z; mkdir $L/Q; echo l >$L/Q/x ;;
		esac
		case $s in
		r1-after-whiteout)
			mkdir $U/P; mknod $U/P/x c 0 0; mknod $W/#4 c 0 0 ;;
		r1-after-exchange)
			mknod $U/P c 0 0; mkdir $W/#4; mknod $W/#4/x c 0 0 ;;
		r1-after-unlinks)
			mknod $U/P c 0 0; mkdir $W/#4 ;;
		r2-after-mkdir-opaque)
			mkdir $W/#4; setfattr -n trusted.overlay.opaque -v y $W/#4 ;;
		r2-after-exchange)
			rm $U/P; mkdir $U/P
			setfattr -n trusted.overlay.opaque -v y $U/P
			mknod $W/#4 c 0 0 ;;
		unlink-after-whiteout)
			mknod $W/#4 c 0 0 ;;
		r3-after-whiteout)
			mknod $U/Q c 0 0 ;;
		r4-after-mkdir-opaque)
			mkdir $U/Q; mknod $U/Q/x c 0 0
			mkdir $W/#4; setfattr -n trusted.overlay.opaque -v y $W/#4 ;;
		r4-after-exchange)
			mkdir $U/Q; setfattr -n trusted.overlay.opaque -v y $U/Q
			mkdir $W/#4; mknod $W/#4/x c 0 0 ;;
		esac
		echo "## upper"
		ul_tree $U
		echo "work (before mount): [$(ls -A $W | tr '\n' ' ')]"
		dmesg -c >/dev/null
		ul_mount $base || { rc=1; continue; }
		dmesg -c | sed -n 's/^\[[^]]*\] //; s/ from .*/ from W\/work/; /^unionlite: removed/p'
		echo "## union"
		ul_tree $UL_MNT
		ul_umount || rc=1
		ul_work $base
		ul_fsck_disk $base "$s" || rc=1
	done
done
ul_umount_disks || rc=1
rmmod unionlite
exit $rc
