# Power-cut tests of whiteout transitions (issue 6; tests/crash-*): the
# guest side (busybox sh: crash_workload, crash_replay, crash_check) and
# the host side (bash, sourced by a test's host.sh: crash_host). Layers:
# the lower on the ext2 disk (made once, read-only after), the upper and
# work directories on the ext4 disk (made fresh by the host before each
# cut), the sequence number on the raw log disk vdc. The workload and
# the checker are tests/helpers/ul-crash.c.

CRASH_LOWER=/mnt/ext2/lower
CRASH_UPPER=/mnt/ext4/upper
CRASH_WORK=/mnt/ext4/work
CRASH_MNT=/mnt/union
CRASH_LOG=/dev/vdc

# ---- guest ----

# crash_disks: ext4 read-write, ext2 read-only (the lower is never written
# once made, so a cut leaves it clean)
crash_disks() {
	. /tests/lib/common.sh
	ul_mount_disks || return 1
	if [ ! -d $CRASH_LOWER ]; then
		mkdir $CRASH_LOWER && ul-crash lower $CRASH_LOWER || return 1
	fi
	mount -o remount,ro $UL_EXT2 || return 1
	mkdir -p $CRASH_MNT
}

# crash_union: the union at $CRASH_MNT; $CRASH_FS is overlay (default) or
# unionlite (the module is loaded first)
crash_union() {
	if [ "${CRASH_FS:-overlay}" = unionlite ] && ! grep -qw unionlite /proc/filesystems; then
		insmod /lib/modules/unionlite.ko || return 1
	fi
	mount -t "${CRASH_FS:-overlay}" -o "lowerdir=$CRASH_LOWER,upperdir=$CRASH_UPPER,workdir=$CRASH_WORK" \
		none $CRASH_MNT
}

# crash_workload [--naive [ARGS...]]: the boot the host cuts; it loops
# until then (60 s at most)
crash_workload() {
	crash_disks || return 1
	mkdir $CRASH_UPPER $CRASH_WORK || return 1
	if [ "$1" = --naive ]; then
		ul-crash run --upper $CRASH_UPPER --lower $CRASH_LOWER \
			--log $CRASH_LOG "$@"
	else
		crash_union || return 1
		ul-crash run --union $CRASH_MNT --upper $CRASH_UPPER --log $CRASH_LOG
		umount $CRASH_MNT
	fi
	ul_umount_disks
	return 1
}

# crash_replay: mount the ext4 upper once (the journal is replayed) and
# unmount it; the host runs e2fsck on the result
crash_replay() {
	mkdir -p /mnt/ext4
	mount -t ext4 /dev/vda /mnt/ext4 || return 1
	umount /mnt/ext4 || return 1
	echo "replayed"
}

# crash_check: count what the cut left in overlayfs's work/work, mount
# the union (which must empty it), run ul-crash check
crash_check() {
	local rc=0 n w
	crash_disks || return 1
	# overlayfs (since 5.8) keeps one whiteout in work/work to hard-link
	# new whiteouts to: one whiteout there is the normal case
	n=$(ls -A $CRASH_WORK/work 2>/dev/null | wc -l)
	w=$(ls -lA $CRASH_WORK/work 2>/dev/null | grep -c '^c.* 0, *0 ')
	echo "leftovers before mount: $n (whiteouts $w)"
	ls -lA $CRASH_WORK/work 2>/dev/null | sed 's/^/  /' >/dev/console
	crash_union || return 1
	n=$(ls -A $CRASH_WORK/work 2>/dev/null | wc -l)
	echo "work after mount: $n"
	ul-crash check --union $CRASH_MNT --upper $CRASH_UPPER --log $CRASH_LOG || rc=$?
	[ "$n" = 0 ] || rc=1
	umount $CRASH_MNT || rc=2
	ul_umount_disks || rc=2
	return $rc
}

# ---- host (bash; run-test.sh's ul_boot, imgs, logs, run, test) ----
# (busybox sh reads a sourced file one command at a time: it stops here)
[ -n "${BASH_VERSION:-}" ] || return 0

# crash_host MODE CUTS: MODE "overlayfs" (must find nothing) or "naive"
# (must find at least one violation; it stops at the first, CUTS is its
# budget). Each cut: fresh ext4 upper image
# and log, boot guest.sh and cut it 0.2-3.0 s into its loop, boot
# replay.sh, e2fsck -fn a copy of the ext4 image, boot check.sh.
# Standard output is deterministic (the golden file's); the per-cut lines
# and the numbers that vary go to $logs/$test.cuts (and, for the soak, to
# standard output as well: CRASH_VERBOSE=1). Logs of a cut with anything
# wrong are kept as $test@cutN-*.
crash_host() {
	local mode=$1 cuts=$2 i delay vio=0 fsckerr=0 errs=0 left=0 leftwh=0 leftcuts=0 w
	local notempty=0 after0=0 after1=0 line n cons bad why tag ms f
	local report=$logs/$test.cuts
	bad='BUG:|WARNING:|Oops|KASAN|Call Trace|INFO: possible|INFO: lockdep|DEBUG_LOCKS_WARN_ON|inconsistent lock state|blocked for more than|general protection fault|Kernel panic|UBSAN'
	: > "$report"
	i=0
	while [ $i -lt "$cuts" ]; do
		i=$((i + 1))
		why=
		mke2fs -q -F -t ext4 -L ul-ext4 "${imgs[0]}" "$IMG_SIZE" >/dev/null
		dd if=/dev/zero of="$run/vdc-log.img" bs=1M count=1 conv=notrunc status=none
		ms=$((200 + RANDOM % 2801))
		delay=$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))
		ul_boot work guest.sh "$delay" || true
		[ "$UL_BOOT_RC" = cut ] || why="$why workload:$UL_BOOT_RC"
		ul_boot replay replay.sh || why="$why replay:$UL_BOOT_RC"
		cp --sparse=always "${imgs[0]}" "$run/fsck-copy.img"
		if ! e2fsck -fn "$run/fsck-copy.img" > "$run/fsck-copy.out" 2>&1; then
			fsckerr=$((fsckerr + 1))
			why="$why e2fsck"
			cp "$run/fsck-copy.out" "$logs/$test@cut$i-e2fsck.out"
		fi
		rm -f "$run/fsck-copy.img"
		ul_boot check check.sh || true
		line=$(grep -a '^check: ' "$logs/$test@check.out" || true)
		case "$line" in
		*VIOLATION*) vio=$((vio + 1)); why="$why violation" ;;
		*"state after S") after0=$((after0 + 1)) ;;
		*"state after S+1") after1=$((after1 + 1)) ;;
		*) why="$why check:$UL_BOOT_RC" ;;
		esac
		n=$(sed -n 's/^leftovers before mount: \([0-9]*\).*/\1/p' "$logs/$test@check.out")
		w=$(sed -n 's/^leftovers before mount: .*(whiteouts \([0-9]*\))/\1/p' "$logs/$test@check.out")
		if [ -n "$n" ] && [ -n "$w" ]; then
			left=$((left + n))
			leftwh=$((leftwh + w))
			[ "$n" -gt 1 ] && leftcuts=$((leftcuts + 1))
		fi
		grep -q '^work after mount: 0$' "$logs/$test@check.out" ||
			{ notempty=$((notempty + 1)); why="$why work-not-empty"; }
		cons=
		for tag in work replay check; do
			grep -a -q -E "$bad" "$logs/$test@$tag.log" && cons="$cons $tag"
		done
		[ -n "$cons" ] && why="$why console:${cons# }"
		case "$why" in
		*workload:*|*replay:*|*check:*|*console:*|*work-not-empty*) errs=$((errs + 1)) ;;
		esac
		echo "cut $i after ${delay}s: ${line:-no check line}; leftovers ${n:-?} (whiteouts ${w:-?})${why:+ [${why# }]}" >> "$report"
		[ "${CRASH_VERBOSE:-0}" = 1 ] && tail -1 "$report"
		# the broken variant is caught once one cut shows it
		[ "$mode" = naive ] && [ "$vio" -gt 0 ] && cuts=$i
		if [ -n "$why" ]; then
			for tag in work replay check; do
				for f in "$logs/$test@$tag".{log,out}; do
					[ -f "$f" ] && cp "$f" "$logs/$test@cut$i-$tag.${f##*.}"
				done
			done
		fi
	done
	{
		echo "summary: $cuts cuts, $vio violations, $fsckerr e2fsck errors, $errs other errors"
		echo "  matched: state after S $after0, after S+1 $after1"
		echo "  work/ leftovers cleaned at mount: $left entries ($leftwh whiteouts); cuts with more than one: $leftcuts; work/ not empty after mount: $notempty"
	} >> "$report"
	[ "${CRASH_VERBOSE:-0}" = 1 ] && tail -3 "$report"
	if [ "$mode" = naive ]; then
		[ "$vio" -gt 0 ] && echo "naive: violation caught within the budget" || echo "naive: NO violation in $cuts cuts"
		echo "e2fsck errors: $fsckerr, other errors: $errs"
		[ "$vio" -gt 0 ] && [ "$fsckerr" = 0 ] && [ "$errs" = 0 ]
	else
		echo "$cuts cuts: $vio violations, $fsckerr e2fsck errors, $errs other errors"
		[ "$vio" = 0 ] && [ "$fsckerr" = 0 ] && [ "$errs" = 0 ]
	fi
}
