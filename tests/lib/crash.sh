# Power-cut tests of whiteout transitions (issue 6; tests/crash-*): the
# guest side (busybox sh: crash_cycle, crash_last) and the host side
# (bash, sourced by a test's host.sh: crash_host). Layers: the lower on
# the ext2 disk (made once, read-only after), the upper and work
# directories on the ext4 disk, the sequence number on the raw log disk
# vdc. The workload and the checker are tests/helpers/ul-crash.c.
#
# One boot per cut: each boot first checks what the previous cut left
# (the host has replayed the ext4 journal and run e2fsck -fn between the
# two boots), then starts the next workload, which the host cuts. A last
# boot checks the last cut.
#
# A test's guest scripts set, before sourcing this file:
#   CRASH_FS        overlay (default) or unionlite
#   CRASH_PARAMS    unionlite's module parameters (e.g. "step_sync=1")

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

# crash_union: the union at $CRASH_MNT (unionlite: the module is loaded
# first, with $CRASH_PARAMS)
crash_union() {
	if [ "${CRASH_FS:-overlay}" = unionlite ] && ! grep -qw unionlite /proc/filesystems; then
		# shellcheck disable=SC2086
		insmod /lib/modules/unionlite.ko $CRASH_PARAMS || return 1
	fi
	mount -t "${CRASH_FS:-overlay}" -o "lowerdir=$CRASH_LOWER,upperdir=$CRASH_UPPER,workdir=$CRASH_WORK" \
		none $CRASH_MNT
}

# crash_check: what the last cut left. Counts the entries in work/work
# (overlayfs, since 5.8, keeps one whiteout there to hard-link new
# whiteouts to: one whiteout is its normal state; unionlite's is named
# #whiteout and not counted), mounts the union
# (which must empty work/work), runs ul-crash check. The lines
# "leftovers before mount: N (whiteouts W)", "work after mount: N" and
# "check: ..." are read by crash_host.
crash_check() {
	local rc=0 n w
	n=$(ls -A $CRASH_WORK/work 2>/dev/null | grep -cvx '#whiteout')
	w=$(ls -lA $CRASH_WORK/work 2>/dev/null | grep -v ' #whiteout$' | grep -c '^c.* 0, *0 ')
	echo "leftovers before mount: $n (whiteouts $w)"
	ls -lA $CRASH_WORK/work 2>/dev/null | sed 's/^/  /' >/dev/console
	crash_union || return 1
	n=$(ls -A $CRASH_WORK/work 2>/dev/null | wc -l)
	echo "work after mount: $n"
	ul-crash check --union $CRASH_MNT --upper $CRASH_UPPER --log $CRASH_LOG || rc=$?
	umount $CRASH_MNT || rc=2
	return $rc
}

# crash_cycle: the boot of one cut. Checks the previous cut (when there
# was one), starts from an empty upper and log, loops ul-crash run until
# the host cuts the power (60 s at most).
crash_cycle() {
	crash_disks || return 1
	if [ -d $CRASH_UPPER ]; then
		crash_check
	else
		echo "no previous cut"
	fi
	rm -rf $CRASH_UPPER $CRASH_WORK || return 1
	dd if=/dev/zero of=$CRASH_LOG bs=512 count=1 conv=fsync 2>/dev/null || return 1
	mkdir $CRASH_UPPER $CRASH_WORK || return 1
	crash_union || return 1
	ul-crash run --union $CRASH_MNT --upper $CRASH_UPPER --log $CRASH_LOG
	umount $CRASH_MNT
	ul_umount_disks
	return 1
}

# crash_last: the boot after the last cut: its check only
crash_last() {
	local rc=0
	crash_disks || return 1
	crash_check || rc=$?
	ul_umount_disks || rc=2
	return $rc
}

# ---- host (bash; run-test.sh's ul_boot, imgs, logs, run, test) ----
# (busybox sh reads a sourced file one command at a time: it stops here)
[ -n "${BASH_VERSION:-}" ] || return 0

CRASH_BAD='BUG:|WARNING:|Oops|KASAN|Call Trace|INFO: possible|INFO: lockdep|DEBUG_LOCKS_WARN_ON|inconsistent lock state|blocked for more than|general protection fault|Kernel panic|UBSAN'

# crash_judge CUT OUT: read the check lines about cut CUT (in the output
# file OUT of the boot after it), count them into crash_host's totals and
# append the cut's line to the report
crash_judge() {
	local cut=$1 out=$2 line n w why=
	line=$(grep -a '^check: ' "$out" || true)
	case "$line" in
	*VIOLATION*) vio=$((vio + 1)); why="$why violation" ;;
	*"state after S") after0=$((after0 + 1)) ;;
	*"state after S+1") after1=$((after1 + 1)) ;;
	*) errs=$((errs + 1)); why="$why no-check-line" ;;
	esac
	n=$(sed -n 's/^leftovers before mount: \([0-9]*\).*/\1/p' "$out")
	w=$(sed -n 's/^leftovers before mount: .*(whiteouts \([0-9]*\))/\1/p' "$out")
	if [ -n "$n" ] && [ -n "$w" ]; then
		left=$((left + n))
		leftwh=$((leftwh + w))
		# overlayfs's one kept whiteout is not a leftover of the cut
		[ $((n - (${CRASH_KEEPS_WHITEOUT:-0} && w > 0 ? 1 : 0))) -gt 0 ] &&
			leftcuts=$((leftcuts + 1))
	fi
	grep -q '^work after mount: 0$' "$out" ||
		{ notempty=$((notempty + 1)); why="$why work-not-empty"; }
	echo "cut $cut after ${delays[$cut]}s: ${line:-no check line}; leftovers ${n:-?} (whiteouts ${w:-?})${why:+ [${why# }]}" >> "$report"
	[ "${CRASH_VERBOSE:-0}" = 1 ] && tail -1 "$report"
	[ -z "$why" ] || cp "$out" "$logs/$test@cut$cut-check.out"
}

# crash_boot CUT TAG SCRIPT [DELAY]: one boot; its console is judged here
# (the harness sees only the last boot's), and kept when it is not clean
crash_boot() {
	local cut=$1 tag=$2
	shift 2
	ul_boot "$tag" "$@" || true
	if grep -a -q -E "$CRASH_BAD" "$logs/$test@$tag.log"; then
		errs=$((errs + 1))
		cp "$logs/$test@$tag.log" "$logs/$test@cut$cut-console.log"
		echo "cut $cut: console of boot $tag not clean" >> "$report"
	fi
}

# crash_host MODE CUTS: MODE "atomic" (no cut may find anything wrong),
# "naive" (a broken recipe: at least one violation must be found),
# "nocleanup" (a broken mount: work/ not empty after a mount must be
# found). The broken modes stop at the first catch; CUTS is their budget.
# Each cut: boot guest.sh, cut it 0.2-3.0 s into its loop, replay the
# ext4 journal on the host (e2fsck -E journal_only), require e2fsck -fn
# clean. The next boot (check.sh's after the last cut) checks the union.
# With CRASH_NEED_LEFTOVERS=1 (unionlite with step_sync), at least one
# cut must also have fallen between two steps of a recipe (it left
# something in work/), or the states in between were not tested.
# Standard output is deterministic (the golden file's); the per-cut lines
# and the numbers that vary go to $logs/$test.cuts (and to standard
# output as well with CRASH_VERBOSE=1).
crash_host() {
	local mode=$1 cuts=$2 i=0 ms vio=0 fsckerr=0 errs=0 left=0 leftwh=0
	local leftcuts=0 notempty=0 after0=0 after1=0 caught=0
	local report=$logs/$test.cuts start=$SECONDS
	local -a delays
	: > "$report"
	while [ $i -lt "$cuts" ] && [ $caught = 0 ]; do
		i=$((i + 1))
		ms=$((200 + RANDOM % 2801))
		delays[$i]=$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))
		crash_boot "$i" cycle guest.sh "${delays[$i]}"
		[ $i = 1 ] || crash_judge $((i - 1)) "$logs/$test@cycle.out"
		if [ "$UL_BOOT_RC" != cut ]; then
			errs=$((errs + 1))
			echo "cut $i: the workload ended before the cut (rc $UL_BOOT_RC)" >> "$report"
		fi
		e2fsck -E journal_only -y "${imgs[0]}" > "$run/replay.out" 2>&1 || true
		if ! e2fsck -fn "${imgs[0]}" > "$run/fsck.out" 2>&1; then
			fsckerr=$((fsckerr + 1))
			cp "$run/fsck.out" "$logs/$test@cut$i-e2fsck.out"
			echo "cut $i: e2fsck -fn after the journal replay is not clean" >> "$report"
			# go on from a new file system: the next boot finds no upper
			mke2fs -q -F -t ext4 -L ul-ext4 "${imgs[0]}" "$IMG_SIZE" >/dev/null
		fi
		case $mode in
		naive) [ "$vio" -gt 0 ] && caught=1 ;;
		nocleanup) [ "$notempty" -gt 0 ] && caught=1 ;;
		esac
	done
	cuts=$i
	# a broken variant is caught by the check of the cut before the last
	[ $caught = 1 ] && cuts=$((i - 1))
	if [ $caught = 0 ]; then
		crash_boot "$cuts" check check.sh
		crash_judge "$cuts" "$logs/$test@check.out"
	fi
	{
		echo "summary: $cuts cuts, $vio violations, $fsckerr e2fsck errors, $errs other errors"
		echo "  matched: state after S $after0, after S+1 $after1"
		echo "  work/ leftovers found at mount: $left entries ($leftwh whiteouts) after $leftcuts cuts; work/ not empty after mount: $notempty"
		echo "  time: $((SECONDS - start)) s"
	} >> "$report"
	[ "${CRASH_VERBOSE:-0}" = 1 ] && tail -4 "$report"
	case $mode in
	naive)
		[ "$vio" -gt 0 ] && echo "naive: violation caught within the budget" ||
			echo "naive: NO violation in $cuts cuts"
		echo "e2fsck errors: $fsckerr"
		[ "$vio" -gt 0 ] && [ "$fsckerr" = 0 ]
		;;
	nocleanup)
		[ "$notempty" -gt 0 ] && echo "nocleanup: work/ not empty after a mount: caught within the budget" ||
			echo "nocleanup: work/ always empty after mount in $cuts cuts"
		echo "violations: $vio, e2fsck errors: $fsckerr"
		[ "$notempty" -gt 0 ] && [ "$vio" = 0 ] && [ "$fsckerr" = 0 ]
		;;
	*)
		echo "$cuts cuts: $vio violations, $fsckerr e2fsck errors, $errs other errors"
		if [ "${CRASH_NEED_LEFTOVERS:-0}" = 1 ]; then
			[ "$leftcuts" -gt 0 ] && echo "cuts that fell between two steps of a recipe: at least one" ||
				echo "cuts that fell between two steps of a recipe: NONE"
		fi
		[ "$vio" = 0 ] && [ "$fsckerr" = 0 ] && [ "$errs" = 0 ] && [ "$notempty" = 0 ] &&
			{ [ "${CRASH_NEED_LEFTOVERS:-0}" = 0 ] || [ "$leftcuts" -gt 0 ]; }
		;;
	esac
}
