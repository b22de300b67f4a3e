# Crash states (tests/crash-states*, make crash-states): every state the
# upper disk can hold while one whiteout transition runs, recorded with
# device-mapper's log-writes target and checked one by one. Guest side,
# busybox sh. The workload is ul-crash's (tests/helpers/ul-crash.c): its
# kinds and transition classes; the log reader is ul-logwrites.
#
# One run of a transition (cs_run):
#   1. a fresh upper filesystem (ext4 or ext2, 32 MiB, 4 KiB blocks, made
#      once per boot and type) behind /dev/mapper/ulcs, a log-writes
#      device over a loop device, its log on another; both on tmpfs;
#   2. the union mounted as a user mounts it (lower: $CS_LOWER on the
#      ext4 disk, made by ul-crash lower; redirect_dir=on, and
#      metacopy=on for the metacopy classes), the kind's
#      setup and ops up to the transition (ul-crash prepare), its view
#      (overlayfs: the view of a fresh mount, step 3's too, as its inode
#      numbers change from mount to mount);
#   3. a flush and the mark "before", the transition alone (ul-crash op,
#      which ends with syncfs of the union and of the upper), a flush,
#      the mark "after", the view after;
#   4. for every log entry between the two marks: the image rebuilt up to
#      that entry (ul-logwrites replay), the upper filesystem's own
#      recovery (ext4: the journal replay of a mount; ext2: e2fsck -p, and
#      e2fsck -fy where -p gives up, as a user then would), e2fsck -fn
#      clean, the union mounted on it, work/ empty after that mount, and
#      its view (ul-tree -a of the whole union: names, types, modes,
#      owners, sizes, contents, xattrs (the union hides trusted.overlay.*),
#      st_ino and link counts) equal to the view before or to the view after;
#      then the union and the upper unmounted and e2fsck -fn clean again.
#      The image at the "before" mark and the one at the last entry must
#      give the view before and the view after.
# The writes of one syncfs are not the only crash states: another
# process's sync(2), the journal's timer or memory pressure write the
# upper out at any moment, between two steps of a recipe too. MASK (the
# parameter of the test module ul_test_writeout, which counts the
# union's calls of the VFS on its upper layer) makes that happen after
# the steps whose bits are set: run 0 has none, and cs_transition adds
# one run per step boundary (with CS_SHORT=1, as make test runs it: one
# run with every boundary's bit on ext4, none on ext2). The periodic
# writeback is off in these boots (vm.dirty_writeback_centisecs=0), so a
# run's log depends on its mask only.
#
# Lines on standard output, one per run:
#   run CLASS UPPERFS nth=N mask=M: entries E (writes W, flushes F, fua U),
#       states S (at flush/fua P), checked C (mounted M), before B,
#       after A, st_ino-only I, fsck-y Y, violations V, steps T[, stopped
#       at the first violation], time R+C s
# S counts the image at the mark "before" and one per entry; P those at
# the mark and at flush and FUA entries. B and A count the states whose
# view is the one before or after; I those of them equal to it but for
# inode numbers and link counts (before-ino, after-ino: a directory
# replaced by an empty one, recipe 4; a copied-up directory's link
# count, 1 when merged); Y those that e2fsck -p gave up on. T: the steps
# of the transition (ul_test_writeout's count of the union's calls on
# the upper layer); R and C the seconds spent recording the run and
# checking its states. On the console (and appended to the file $CS_OUT
# when set), one line per state checked:
#   state CLASS UPPERFS mask=M I FLAGS: before|after|before-ino|after-ino|
#       fsck-y+...|VIOLATION: WHY

. /tests/lib/common.sh
CS=/cs
CS_LOWER=/mnt/ext4/cslower
CS_SIZE=$((32 * 1024 * 1024))
CS_DM=ulcs
# the write-out between steps (tests/kmod/ul_test_writeout.c)
CS_WO=/sys/module/ul_test_writeout/parameters
# every transition class of ul-crash (ul-crash classes)
CS_CLASSES="rmdir-whiteout mkdir-over-whiteout rename-neg-q rename-lower-q
	rename-whiteouts-dir rename-whiteouts-dir-p-lower rename-existing-q
	unlink-whiteout create-over-whiteout rename-over-whiteout rename-dir
	rename-moved-dir copy-up meta-copy-up rename-metacopy meta-data-copy-up"
# no udev in the guest: dmsetup makes /dev/mapper/ulcs itself
export DM_DISABLE_UDEV=1

# cs_init FS: the union's module (FS unionlite: cs_load), once per boot
# the write-out module, the lower layer, tmpfs for the images and no
# periodic writeback
cs_init() {
	CS_FS=$1
	if [ "$CS_FS" = unionlite ] && ! grep -qw unionlite /proc/filesystems; then
		cs_load unionlite || return 1
	fi
	grep -q " $CS " /proc/mounts && return 0
	if [ ! -d $CS_WO ]; then
		insmod /lib/modules/test/ul_test_writeout.ko || return 1
	fi
	ul_mount_disks || return 1
	if [ ! -d $CS_LOWER ]; then
		mkdir $CS_LOWER && ul-crash lower $CS_LOWER || return 1
	fi
	mount -o remount,ro /mnt/ext4 || return 1
	mkdir -p $CS
	mount -t tmpfs -o size=300m tmpfs $CS || return 1
	mkdir -p $CS/mnt $CS/u $CS/s $CS/v
	echo 0 > /proc/sys/vm/dirty_writeback_centisecs
}

# cs_load [MODULE [PARAMS...]]: unionlite (or the mutant MODULE, e.g.
# unionlite-m4) loaded anew with PARAMS (none: as users load it)
cs_load() {
	local m=${1:-unionlite}
	[ $# -gt 0 ] && shift
	if grep -qw unionlite /proc/filesystems; then
		rmmod unionlite || return 1
	fi
	if [ "$m" = unionlite ]; then
		ul_insmod "$@"
	else
		insmod /lib/modules/"$m".ko "$@"
	fi
}

# cs_fini: unmount what cs_init mounted (the harness requires it)
cs_fini() {
	umount $CS && ul_umount_disks
}

# the union of the class being run: its metacopy classes with metacopy=on
cs_union() {
	local o=redirect_dir=on
	case $CS_CLASS in
	meta-*|rename-metacopy) o=$o,metacopy=on ;;
	esac
	mount -t "$CS_FS" -o "lowerdir=$CS_LOWER,upperdir=$1/upper,workdir=$1/work,$o" \
		none "$2"
}

# cs_record CLASS UPPERFS NTH MASK: steps 1-3 of a run; sets CS_A and CS_B
# (the marks' entries) and CS_STEPS
cs_record() {
	local class=$1 fs=$2 nth=$3 mask=$4 dev log
	# the new filesystem, made once per boot and type: its image is where
	# every run's log starts
	if [ ! -f $CS/new-$fs.img ]; then
		truncate -s $CS_SIZE $CS/new-$fs.img || return 1
		/usr/sbin/mke2fs -q -F -t "$fs" -b 4096 \
			-E nodiscard,lazy_itable_init=0,lazy_journal_init=0 $CS/new-$fs.img || return 1
	fi
	rm -f $CS/log.img
	ul-logwrites copy $CS/new-$fs.img $CS/dev.img || return 1
	truncate -s $((64 * 1024 * 1024)) $CS/log.img || return 1
	dev=$(losetup -f) && losetup "$dev" $CS/dev.img || return 1
	log=$(losetup -f) && losetup "$log" $CS/log.img || return 1
	dmsetup create $CS_DM --table "0 $(blockdev --getsz "$dev") log-writes $dev $log" 2>$CS/dm.err ||
		{ cat $CS/dm.err; return 1; }
	mount -t "$fs" -o noatime /dev/mapper/$CS_DM $CS/mnt || return 1
	mkdir $CS/mnt/upper $CS/mnt/work || return 1
	cs_union $CS/mnt $CS/u || return 1
	ul-crash prepare --union $CS/u --upper $CS/mnt/upper --target "$class" --nth "$nth" >/dev/console || return 1
	ul-tree -a $CS/u > $CS/before.view || return 1
	ul-logwrites flush /dev/mapper/$CS_DM || return 1
	dmsetup message $CS_DM 0 mark before 2>$CS/dm.err || { cat $CS/dm.err; return 1; }
	echo "$mask" > $CS_WO/mask || return 1
	ul-crash op --union $CS/u --upper $CS/mnt/upper --target "$class" --nth "$nth" >/dev/console || return 1
	CS_STEPS=$(cat $CS_WO/steps)
	echo 0 > $CS_WO/mask
	ul-logwrites flush /dev/mapper/$CS_DM || return 1
	dmsetup message $CS_DM 0 mark after 2>$CS/dm.err || { cat $CS/dm.err; return 1; }
	ul-tree -a $CS/u > $CS/after.view || return 1
	umount $CS/u && umount $CS/mnt || return 1
	dmsetup remove $CS_DM 2>$CS/dm.err || { cat $CS/dm.err; return 1; }
	losetup -d "$dev" && losetup -d "$log" || return 1
	CS_A=$(ul-logwrites find $CS/log.img before) || return 1
	CS_B=$(ul-logwrites find $CS/log.img after) || return 1
	ul-logwrites replay $CS/log.img $CS/base.img --base $CS/new-$fs.img --to "$CS_A" || return 1
	if [ "$CS_FS" = overlay ]; then
		# overlayfs's inode numbers change from mount to mount: its
		# views are those of a fresh mount of the first and last images
		cs_fresh_view $CS/base.img "$fs" $CS/before.view || return 1
		ul-logwrites replay $CS/log.img $CS/state.img --base $CS/base.img \
			--from $((CS_A + 1)) --to $((CS_B - 1)) || return 1
		cs_fresh_view $CS/state.img "$fs" $CS/after.view || return 1
	fi
	grep -v '^  ino=' $CS/before.view > $CS/before.noino
	grep -v '^  ino=' $CS/after.view > $CS/after.noino
}

# cs_fresh_view IMG UPPERFS VIEW: the union's view on a copy of IMG
cs_fresh_view() {
	local dev rc=0
	cp "$1" $CS/fresh.img || return 1
	dev=$(losetup -f) && losetup "$dev" $CS/fresh.img || return 1
	mount -t "$2" -o noatime "$dev" $CS/s || rc=1
	if [ $rc = 0 ]; then
		cs_union $CS/s $CS/v || rc=1
		[ $rc = 0 ] && { ul-tree -a $CS/v > "$3" || rc=1; umount $CS/v; }
		umount $CS/s
	fi
	losetup -d "$dev"
	rm -f $CS/fresh.img
	return $rc
}

# cs_cleanup: what a failed cs_record left mounted or set up
cs_cleanup() {
	local d
	for d in $CS/v $CS/s $CS/u $CS/mnt; do
		grep -q " $d " /proc/mounts && umount "$d"
	done
	[ -e /dev/mapper/$CS_DM ] && dmsetup remove $CS_DM 2>/dev/null
	for d in $(losetup -a | grep " $CS/" | cut -d: -f1); do
		losetup -d "$d"
	done
	echo 0 > $CS_WO/mask
	return 0
}

# cs_compare: $CS/state.view against the views before and after: before,
# after, before-ino or after-ino (equal but for inode numbers and link
# counts: the "  ino=" lines), or nothing
cs_compare() {
	local v
	for v in before after; do
		if cmp -s $CS/state.view $CS/$v.view; then
			echo $v
			return
		fi
	done
	for v in before after; do
		if grep -v '^  ino=' $CS/state.view | cmp -s - $CS/$v.noino; then
			echo $v-ino
			return
		fi
	done
}

# cs_state FS: check $CS/state.img; prints before, after, fsck-y+before,
# fsck-y+after or VIOLATION: WHY
cs_state() {
	local fs=$1 dev rc why= extra= n view
	dev=$(losetup -f) && losetup "$dev" $CS/state.img || { echo "VIOLATION: losetup"; return; }
	if [ "$fs" = ext2 ]; then
		e2fsck -p "$dev" > $CS/fsck.out 2>&1
		rc=$?
		if [ $rc -ge 4 ]; then
			extra="fsck-y+"
			e2fsck -fy "$dev" >> $CS/fsck.out 2>&1
			rc=$?
			[ $rc -ge 4 ] && why="$why e2fsck -y exit $rc;"
		fi
	fi
	if mount -t "$fs" -o noatime "$dev" $CS/s 2>/dev/null; then
		if cs_union $CS/s $CS/v 2>/dev/null; then
			n=$(ls -A $CS/s/work/work 2>/dev/null | grep -cvx '#whiteout')
			[ "$n" = 0 ] || why="$why work/work has $n after the mount;"
			ul-tree -a $CS/v > $CS/state.view 2>&1 || why="$why view unreadable;"
			view=$(cs_compare)
			[ -n "$view" ] ||
				why="$why neither before nor after: $(diff $CS/before.view $CS/state.view | grep '^[-+][^-+]' | head -3 | tr '\n' ' ')"
			umount $CS/v || why="$why union umount;"
		else
			why="$why the union does not mount;"
		fi
		umount $CS/s || why="$why umount;"
	else
		why="$why $fs does not mount;"
	fi
	if ! e2fsck -fn "$dev" > $CS/fsck2.out 2>&1; then
		why="$why e2fsck -fn not clean: $(grep -v '^Pass\|^e2fsck\|^/dev' $CS/fsck2.out | head -2 | tr '\n' ' ')"
	fi
	losetup -d "$dev"
	if [ -n "$why" ]; then
		echo "VIOLATION:$why"
	else
		echo "$extra$view"
	fi
}

# cs_annotate CLASS: with CS_ANNOTATE=1, on the console, what each entry
# of the run wrote, read on the image after the run (one group, as the
# 32 MiB ext2 upper has): "annotate CLASS I FLAGS block B+N: WHAT", WHAT
# the superblock, a bitmap, the inode table (which inodes), or the
# directory or xattr block of an inode (its path: debugfs icheck, ncheck).
cs_annotate() {
	local class=$1 i flags sector count b n what ino ib it ipb ipg
	ul-logwrites replay $CS/log.img $CS/state.img --base $CS/base.img \
		--from $((CS_A + 1)) --to $((CS_B - 1)) || return 1
	debugfs -R stats $CS/state.img > $CS/stats 2>/dev/null
	ib=$(sed -n 's/.*inode bitmap at \([0-9]*\).*/\1/p' $CS/stats | head -n 1)
	it=$(sed -n 's/.*inode table at \([0-9]*\).*/\1/p' $CS/stats | head -n 1)
	ipb=$((4096 / $(sed -n 's/^Inode size:[[:space:]]*\([0-9]*\).*/\1/p' $CS/stats)))
	ipg=$(sed -n 's/^Inodes per group:[[:space:]]*\([0-9]*\).*/\1/p' $CS/stats)
	tail -n +2 $CS/entries | while read -r i flags sector count _; do
		b=$((sector / 8)) n=$((count / 8))
		if [ "$n" = 0 ]; then
			what=-
		elif [ "$b" = 0 ]; then
			what=superblock
		elif [ "$b" -lt "$((ib - 1))" ]; then
			what="group descriptors"
		elif [ "$b" = "$((ib - 1))" ]; then
			what="block bitmap"
		elif [ "$b" = "$ib" ]; then
			what="inode bitmap"
		elif [ "$b" -ge "$it" ] && [ "$b" -lt "$((it + ipg / ipb))" ]; then
			what="inode table, inodes $(((b - it) * ipb + 1))-$(((b - it + n) * ipb))"
		else
			ino=$(debugfs -R "icheck $b" $CS/state.img 2>/dev/null | awk 'NR == 2 { print $2 }')
			what="block of inode $ino $(debugfs -R "ncheck $ino" $CS/state.img 2>/dev/null | awk 'NR == 2 { print $2 }')"
		fi
		echo "annotate $class $i $flags block $b+$n: $what" >/dev/console
	done
}

# cs_run CLASS UPPERFS NTH MASK: one run, its states, its summary line.
# With CS_SHORT=1 only the states the storage promises are checked (at
# flush and FUA entries), with the one at the mark and at the last entry,
# but on ext2, which never flushes (the only flushes are the test's);
# and the run stops at its first violation (make test's verdict is per
# class: violations or none; make crash-states counts them all).
# An entry without data (a flush) leaves the image of the entry before
# it: its state is that one's, counted again, not mounted again.
# Returns 1 on violations, 2 when the run could not be made.
cs_run() {
	local class=$1 fs=$2 nth=$3 mask=$4 i flags sector count r= last=
	local e=0 w=0 f=0 u=0 s=0 p=0 nb=0 na=0 ni=0 ny=0 nv=0 nc=0 line ri=-1
	local short=${CS_SHORT:-0} stopped=
	# ext2 never flushes (the test's own flushes are its only ones): its
	# states are all checked
	[ "$fs" = ext2 ] && short=0
	local t0 t1
	CS_CLASS=$class
	t0=$(cut -d' ' -f1 /proc/uptime)
	if ! cs_record "$class" "$fs" "$nth" "$mask"; then
		echo "run $class $fs nth=$nth mask=$mask: could not be recorded"
		cs_cleanup
		return 2
	fi
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "$CS_A mark 0 0 before" > $CS/entries
	ul-logwrites list $CS/log.img $((CS_A + 1)) $((CS_B - 1)) >> $CS/entries
	last=$(tail -n 1 $CS/entries | cut -d' ' -f1)
	while read -r i flags sector count _; do
		if [ "$i" != "$CS_A" ]; then
			e=$((e + 1))
			case $flags in *write*) w=$((w + 1)) ;; esac
			case $flags in *flush*) f=$((f + 1)) ;; esac
			case $flags in *fua*) u=$((u + 1)) ;; esac
		fi
		case $flags in
		*flush*|*fua*|mark) p=$((p + 1)) ;;
		*) [ "$short" = 1 ] && [ "$i" != "$last" ] && continue ;;
		esac
		# the entries after a stop are counted, not checked
		[ -n "$stopped" ] && continue
		s=$((s + 1))
		if [ "$i" = "$CS_A" ]; then
			cp $CS/base.img $CS/state.img
			r=$(cs_state "$fs")
			[ "$r" = before ] || r="VIOLATION: the image at the mark is not the view before ($r)"
		elif [ "$flags" != flush ] || [ "$ri" != $((i - 1)) ]; then
			ul-logwrites replay $CS/log.img $CS/state.img --base $CS/base.img \
				--from $((CS_A + 1)) --to "$i" || return 2
			r=$(cs_state "$fs")
			nc=$((nc + 1))
		fi
		ri=$i
		case $r in
		VIOLATION*) nv=$((nv + 1)) ;;
		*-ino) ni=$((ni + 1)) ;;
		esac
		case $r in fsck-y+*) ny=$((ny + 1)) ;; esac
		case $r in
		*before|*before-ino) nb=$((nb + 1)) ;;
		*after|*after-ino) na=$((na + 1)) ;;
		esac
		line="state $class $fs mask=$mask $i $flags: $r"
		echo "$line" >/dev/console
		[ -n "${CS_OUT:-}" ] && echo "$line" >> "$CS_OUT"
		[ "${CS_SHORT:-0}" = 1 ] && [ "$nv" -gt 0 ] && stopped=", stopped at the first violation"
	done < $CS/entries
	# (a transition the union's view does not show, such as a metacopy
	# file's data copy-up, has the view before as its view after)
	case $stopped$r in
	,*|*after) ;;
	before) cmp -s $CS/before.view $CS/after.view ||
		{ nv=$((nv + 1)); echo "state $class $fs mask=$mask: VIOLATION: the last entry does not give the view after" >/dev/console; } ;;
	*) nv=$((nv + 1)); echo "state $class $fs mask=$mask: VIOLATION: the last entry does not give the view after" >/dev/console ;;
	esac
	[ "${CS_ANNOTATE:-0}" = 1 ] && [ "$mask" = 0 ] && cs_annotate "$class"
	echo "run $class $fs nth=$nth mask=$mask: entries $e (writes $w, flushes $f, fua $u), states $((e + 1)) (at flush/fua $p), checked $s (mounted $nc), before $nb, after $na, st_ino-only $ni, fsck-y $ny, violations $nv, steps $CS_STEPS$stopped, time $(awk -v a="$t0" -v b="$t1" -v c="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f+%.1f s", b - a, c - b }')"
	[ $nv = 0 ]
}

# cs_transition CLASS UPPERFS [NTH]: run 0 (no write-out between steps),
# then one run per step boundary K (ul_test_writeout's mask bit K), or with
# CS_SHORT=1 one run with every boundary's bit set (none on ext2, whose
# run 0 has every state checked). One line per run; returns 1 when any
# run had violations.
cs_transition() {
	local class=$1 fs=$2 nth=${3:-2} rc=0 k steps all=0
	cs_run "$class" "$fs" "$nth" 0 || rc=1
	[ "${CS_SHORT:-0}" = 1 ] && [ "$fs" = ext2 ] && return $rc
	steps=$CS_STEPS
	k=1
	while [ "$k" -lt "$steps" ]; do
		if [ "${CS_SHORT:-0}" = 1 ]; then
			all=$((all | (1 << k)))
		else
			cs_run "$class" "$fs" "$nth" $((1 << k)) || rc=1
		fi
		k=$((k + 1))
	done
	if [ "$all" != 0 ]; then
		cs_run "$class" "$fs" "$nth" "$all" || rc=1
	fi
	return $rc
}

# cs_main FS UPPERFS: every transition class on UPPERFS, one line each on
# standard output ("CLASS UPPERFS: no violation", "...: no violation;
# some views equal but for st_ino or st_nlink", "...: violations" or
# "...: could not be recorded"); the run lines go to the console.
# ul.cs_full=1 on the kernel command line: every state, one run per step
# boundary (make crash-states), else CS_SHORT=1; ul.cs_annotate=1:
# cs_annotate; ul.cs_classes=A,B: those classes only. Exit status 1 when
# any class had violations.
cs_main() {
	local fs=$1 ufs=$2 c rc=0 runs v n
	[ "$(ul_arg cs_full)" = 1 ] || CS_SHORT=1
	[ "$(ul_arg cs_annotate)" = 1 ] && CS_ANNOTATE=1
	v=$(ul_arg cs_classes)
	[ -n "$v" ] && CS_CLASSES=$(echo "$v" | tr , ' ')
	cs_init "$fs" || return 1
	for c in $CS_CLASSES; do
		runs=$(cs_transition "$c" "$ufs")
		echo "$runs" >/dev/console
		v=$(echo "$runs" | sed -n 's/.*, violations \([0-9]*\),.*/\1/p' | awk '{ n += $1 } END { print n + 0 }')
		n=$(echo "$runs" | sed -n 's/.*, st_ino-only \([0-9]*\),.*/\1/p' | awk '{ n += $1 } END { print n + 0 }')
		if echo "$runs" | grep -q 'could not be recorded'; then
			echo "$c $ufs: could not be recorded"
			rc=1
		elif [ "$v" != 0 ]; then
			echo "$c $ufs: violations"
			rc=1
		elif [ "$n" != 0 ]; then
			echo "$c $ufs: no violation; some views equal but for st_ino or st_nlink"
		else
			echo "$c $ufs: no violation"
		fi
	done
	return $rc
}
