# Power-cut tests of whiteout transitions ( tests/crash-*): the
# guest side (busybox sh: crash_cycle, crash_last) and the host side
# (bash, sourced by a test's host.sh: crash_host). Layers: with an ext4
# upper (the default) the lower on the ext2 disk (made once, read-only
# after), the upper and work directories on the ext4 disk; with an ext2
# upper (CRASH_UPPER_FS=ext2) the other way round. The sequence number is
# on the raw log disk vdc. The workload and the checker are
# tests/helpers/ul-crash.c.
#
# One boot per cut: each boot first checks what the previous cut left
# (between the two boots the host has replayed the ext4 journal, or run
# e2fsck -p on the ext2 upper, and required e2fsck -fn clean), then
# starts the next workload, which the host cuts. A last boot checks the
# last cut.
#
# A test's guest scripts set, before sourcing this file:
#   CRASH_FS        overlay (default) or unionlite
#   CRASH_PARAMS    unionlite's module parameters (e.g. "step_sync=1")
#   CRASH_UPPER_FS  ext4 (default) or ext2: the disk of upper and work
#   CRASH_UPPER_OPTS  mount options for that disk (e.g. "sync")
#   CRASH_PAUSE     with a target (below) on unionlite: its step_pause_ms
#                   during the ops of the target, 0 during the others
# The host may name a transition class on the kernel command line
# (ul.crash=CLASS, see "ul-crash classes"): the workload is then the kind
# that class is taken from; without it, the classic kind. An aimed cut
# (CRASH_AIM=steps on the host) also sets ul.crash_pause=MS.

CRASH_MNT=/mnt/union
CRASH_LOG=/dev/vdc
if [ "${CRASH_UPPER_FS:-ext4}" = ext2 ]; then
	CRASH_LOWER=/mnt/ext4/lower
	CRASH_UPPER=/mnt/ext2/upper
	CRASH_WORK=/mnt/ext2/work
	CRASH_UPPER_DISK=/mnt/ext2
	CRASH_LOWER_DISK=/mnt/ext4
else
	CRASH_LOWER=/mnt/ext2/lower
	CRASH_UPPER=/mnt/ext4/upper
	CRASH_WORK=/mnt/ext4/work
	CRASH_UPPER_DISK=/mnt/ext4
	CRASH_LOWER_DISK=/mnt/ext2
fi

# ---- guest ----

# crash_disks: the upper's disk read-write (with $CRASH_UPPER_OPTS), the
# lower's read-only (the lower is never written once made, so a cut
# leaves it clean)
crash_disks() {
	. /tests/lib/common.sh
	ul_mount_disks || return 1
	if [ ! -d $CRASH_LOWER ]; then
		mkdir $CRASH_LOWER && ul-crash lower $CRASH_LOWER || return 1
	fi
	mount -o remount,ro $CRASH_LOWER_DISK || return 1
	if [ -n "${CRASH_UPPER_OPTS:-}" ]; then
		mount -o remount,$CRASH_UPPER_OPTS $CRASH_UPPER_DISK || return 1
	fi
	mkdir -p $CRASH_MNT
}

# crash_union: the union at $CRASH_MNT (unionlite: the module is loaded
# first, with $CRASH_PARAMS), with redirect_dir=on (the movedir kind moves
# lower directories: recipe 6)
crash_union() {
	if [ "${CRASH_FS:-overlay}" = unionlite ] && ! grep -qw unionlite /proc/filesystems; then
		# shellcheck disable=SC2086
		ul_insmod $CRASH_PARAMS || return 1
	fi
	mount -t "${CRASH_FS:-overlay}" -o "lowerdir=$CRASH_LOWER,upperdir=$CRASH_UPPER,workdir=$CRASH_WORK,redirect_dir=on" \
		none $CRASH_MNT
}

# crash_check: what the last cut left. Counts the entries in work/work
# (overlayfs, since 5.8, keeps one whiteout there to hard-link new
# whiteouts to: one whiteout is its normal state; unionlite's is named
# #whiteout and not counted), mounts the union
# (which must empty work/work), runs ul-crash check. The lines
# "leftovers before mount: N (whiteouts W)", "work after mount: N",
# "stray whiteouts in upper: N" and "check: ..." are read by crash_host.
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
	local target pace= p
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
	# ul.crash=CLASS: the class aimed at; ul.crash_pause=MS: the step
	# pause of its ops, instead of $CRASH_PAUSE (common.sh's ul_arg)
	target=$(ul_arg crash)
	p=$(ul_arg crash_pause)
	[ -n "$p" ] && CRASH_PAUSE=$p
	if [ -n "$target" ] && [ -n "${CRASH_PAUSE:-}" ] && [ "${CRASH_FS:-overlay}" = unionlite ]; then
		pace="--pace /sys/module/unionlite/parameters/step_pause_ms --pause $CRASH_PAUSE"
	fi
	# shellcheck disable=SC2086
	ul-crash run --union $CRASH_MNT --upper $CRASH_UPPER --log $CRASH_LOG \
		${target:+--target $target} $pace
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

# crash_where LOG: where the cut fell, from the console LOG of the cut
# boot (the workload marks each op on it, "ul-crash: op K start OP
# [CLASS]" and "ul-crash: op K done"; with unionlite's trace parameter
# each step of the op is a line "unionlite: STEP = 0" between the two).
# Prints "K M DONE N" for the last op started: its number (0: none), the
# steps it had done ("-": no step traced on this boot), whether it had
# returned, and N the steps of the
# last op of its class that completed before it (not counting op 1,
# which also copies up what it uses the first time; "-": none). Then one
# line "steps CLASS MIN MAX" per class: the fewest and most steps of its
# ops that completed (op 1 left out again).
crash_where() {
	tr -d '\r' < "$1" | awk '
		/ul-crash: op [0-9]+ start/ {
			for (i = 1; i < NF; i++) if ($i == "op") k = $(i + 1) + 0
			cls = $NF; gsub(/[][]/, "", cls)
			c[k] = cls; st[k] = 0; inop = 1
			next
		}
		/ul-crash: op [0-9]+ done/ {
			inop = 0; dn[k] = 1
			if (k < 2) next
			n[cls] = st[k]
			if (!(cls in lo) || st[k] < lo[cls]) lo[cls] = st[k]
			if (!(cls in hi) || st[k] > hi[cls]) hi[cls] = st[k]
			next
		}
		/unionlite: .* = 0$/ { traced = 1 }
		inop && /unionlite: .* = 0$/ { st[k]++; if (!dn[k]) last[k] = (cls in n) ? n[cls] : "-" }
		END {
			if (k == "") print 0, 0, 0, "-"
			else if (!traced) print k, "-", dn[k] + 0, "-"
			else print k, st[k] + 0, dn[k] + 0, (k in last) ? last[k] : ((c[k] in n) ? n[c[k]] : "-")
			for (x in lo) print "steps", x, lo[x], hi[x]
		}'
}

# crash_judge CUT OUT: read the check lines about cut CUT (in the output
# file OUT of the boot after it), count them into crash_host's totals and
# per-class tallies and append the cut's line to the report
crash_judge() {
	local cut=$1 out=$2 line n w why= cls seq pos k m d nsteps stray
	line=$(grep -a '^check: ' "$out" || true)
	cls=$(echo "$line" | sed -n 's/.*\[\([a-z0-9+-]*\)\].*/\1/p')
	cls=${cls:-unknown}
	seq=$(echo "$line" | sed -n 's/^check: seq \([0-9]*\) .*/\1/p')
	stray=$(sed -n 's/^stray whiteouts in upper: \([0-9]*\)$/\1/p' "$out")
	c_cuts[$cls]=$((${c_cuts[$cls]:-0} + 1))
	case "$line" in
	*VIOLATION*) vio=$((vio + 1)); why="$why violation"
		c_vio[$cls]=$((${c_vio[$cls]:-0} + 1)) ;;
	*"state after S") after0=$((after0 + 1))
		c_before[$cls]=$((${c_before[$cls]:-0} + 1)) ;;
	*"state after S+1") after1=$((after1 + 1))
		c_after[$cls]=$((${c_after[$cls]:-0} + 1)) ;;
	*) errs=$((errs + 1)); why="$why no-check-line" ;;
	esac
	# where the cut fell: between two steps of op S+1?
	read -r k m d nsteps <<< "${where[$cut]:-0 0 0 -}"
	pos="at an unknown place (console: op $k, $m steps, returned $d)"
	if [ "$m" = - ]; then
		pos="(steps not traced)"
	elif [ -n "$seq" ] && [ "$k" = $((seq + 1)) ]; then
		if [ "$d" = 1 ]; then
			pos="after the op returned"
		elif [ "$m" = 0 ]; then
			pos="before its first step"
		elif [ "$nsteps" = - ]; then
			pos="after step $m (of an op whose steps are not known)"
		elif [ "$m" -lt "$nsteps" ]; then
			pos="between steps $m and $((m + 1)) of $nsteps"
			c_mid[$cls]=$((${c_mid[$cls]:-0} + 1))
		else
			pos="after its last step ($m), before the op returned"
		fi
	elif [ -n "$seq" ] && [ "$k" = "$seq" ]; then
		pos="between two ops"
	fi
	case ${fixes[$cut]:-0} in
	1) c_fix[$cls]=$((${c_fix[$cls]:-0} + 1)) ;;
	2) c_manual[$cls]=$((${c_manual[$cls]:-0} + 1)) ;;
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
	echo "cut $cut ${delays[$cut]}${targets[$cut]:+ (target ${targets[$cut]})}: ${line:-no check line}; cut $pos; ${fixlog[$cut]:-?}; leftovers ${n:-?} (whiteouts ${w:-?}); stray whiteouts ${stray:-?}${why:+ [${why# }]}" >> "$report"
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

# crash_fsck CUT: the images after cut CUT. ext4 upper: replay the
# journal (e2fsck -E journal_only), then e2fsck -fn must be clean. ext2
# upper: e2fsck -p (preen) on it first, and when preen gives up, e2fsck
# -fy (what it did is kept, and counted: fixes[CUT] 1 preen repaired, 2
# needed -fy); then e2fsck -fn must be clean on both images.
crash_fsck() {
	local cut=$1 img rc
	fixlog[$cut]="journal replay"
	if [ "$upperfs" = ext2 ]; then
		rc=0
		e2fsck -p "${imgs[1]}" > "$run/preen.out" 2>&1 || rc=$?
		# rc 1 also when the only change is marking it clean (a cut
		# leaves it mounted): a repair is a line of any other kind
		if [ "$rc" -ge 4 ]; then
			fixes[$cut]=2 fixlog[$cut]="e2fsck -p gave up (rc $rc), e2fsck -fy"
			manual=$((manual + 1))
			cp "$run/preen.out" "$logs/$test@cut$cut-preen.out"
			e2fsck -fy "${imgs[1]}" > "$logs/$test@cut$cut-fsck-y.out" 2>&1 || true
		elif grep -v -e 'was not cleanly unmounted' -e 'non-contiguous' "$run/preen.out" | grep -q .; then
			fixes[$cut]=1 fixlog[$cut]="e2fsck -p repaired (rc $rc)"
			repaired=$((repaired + 1))
			cp "$run/preen.out" "$logs/$test@cut$cut-preen.out"
		else
			fixlog[$cut]="e2fsck -p: nothing to repair"
		fi
	fi
	e2fsck -E journal_only -y "${imgs[0]}" > "$run/replay.out" 2>&1 || true
	for img in "${imgs[@]}"; do
		if ! e2fsck -fn "$img" > "$run/fsck.out" 2>&1; then
			fsckerr=$((fsckerr + 1))
			cp "$run/fsck.out" "$logs/$test@cut$cut-e2fsck.out"
			echo "cut $cut: e2fsck -fn of ${img##*/} is not clean after the ${fixlog[$cut]:-journal replay}" >> "$report"
			# go on from a new file system: the next boot finds no upper
			if [ "$img" = "${imgs[0]}" ]; then
				mke2fs -q -F -t ext4 -E lazy_itable_init=0 -L ul-ext4 "$img" "$IMG_SIZE" >/dev/null
			else
				mke2fs -q -F -t ext2 -L ul-ext2 "$img" "$IMG_SIZE" >/dev/null
			fi
		fi
	done
}

# crash_pick: the transition class the next boot aims at: among
# $CRASH_TARGETS, the one with the fewest cuts (judged ones, and the
# boots not judged yet by their target); once every one has
# $CRASH_MIN, one whose op has more than one step and that no cut has
# hit between two steps yet; else (a soak) the fewest cuts again
crash_pick() {
	local t best= bestn n
	for t in $CRASH_TARGETS; do
		n=$((${c_cuts[$t]:-0} + ${pending[$t]:-0}))
		if [ -z "$best" ] || [ "$n" -lt "$bestn" ]; then
			best=$t bestn=$n
		fi
	done
	if [ -n "${CRASH_MIN:-}" ] && [ "$bestn" -ge "$CRASH_MIN" ]; then
		for t in $CRASH_TARGETS; do
			if [ "${c_hi[$t]:-1}" -gt 1 ] && [ "${c_mid[$t]:-0}" = 0 ] &&
				[ "${pending[$t]:-0}" = 0 ]; then
				echo "$t"
				return
			fi
		done
	fi
	echo "$best"
}

# crash_aim_step CLASS: the step of CLASS's op after which an aimed cut
# falls: 1 while no op of CLASS has been seen to complete (c_lo), else a
# random one of the steps before the last of its shortest op seen
crash_aim_step() {
	local n=${c_lo[$1]:-1}
	if [ "$n" -gt 1 ]; then
		echo $((1 + RANDOM % (n - 1)))
	else
		echo 1
	fi
}

# crash_done: with $CRASH_MIN, whether every target class has that many
# cuts and, when its op has more than one step, one cut between two, and
# with $CRASH_NEED_LEFTOVERS, whether a cut has left something in work/
crash_done() {
	local t
	[ -n "${CRASH_MIN:-}" ] || return 1
	for t in $CRASH_TARGETS; do
		[ "${c_cuts[$t]:-0}" -ge "$CRASH_MIN" ] || return 1
		if [ "${c_hi[$t]:-1}" -gt 1 ] && [ "${c_mid[$t]:-0}" = 0 ]; then
			return 1
		fi
	done
	# crash_host's count: a cut must also have left something in work/
	if [ "${CRASH_NEED_LEFTOVERS:-0}" = 1 ] && [ "${leftcuts:-0}" = 0 ]; then
		return 1
	fi
}

# crash_times N: "once", "N times"
crash_times() {
	if [ "$1" = 1 ]; then
		echo once
	else
		echo "$1 times"
	fi
}

# crash_table: one line per transition class: the steps of its ops (as
# traced), cuts, the state seen (before: after S; after: after S+1),
# cuts between two steps, violations, and with an ext2 upper the cuts
# after which e2fsck -p repaired the image (preen-ok) and those after
# which it gave up and e2fsck -fy repaired it (fsck-fy)
crash_table() {
	local t l
	printf '%-30s %5s %5s %6s %5s %7s %10s' transition steps cuts before after between violations
	[ "$upperfs" = ext2 ] && printf ' %8s %7s' preen-ok fsck-fy
	printf '\n'
	for t in $({ echo "$CRASH_TARGETS" | tr ' ' '\n'; printf '%s\n' "${!c_cuts[@]}"; } | awk 'NF && !seen[$0]++'); do
		l=${c_lo[$t]:-?}
		[ "${c_hi[$t]:-$l}" = "$l" ] || l="$l-${c_hi[$t]}"
		printf '%-30s %5s %5d %6d %5d %7d %10d' "$t" "$l" "${c_cuts[$t]:-0}" \
			"${c_before[$t]:-0}" "${c_after[$t]:-0}" "${c_mid[$t]:-0}" "${c_vio[$t]:-0}"
		[ "$upperfs" = ext2 ] && printf ' %8d %7d' "${c_fix[$t]:-0}" "${c_manual[$t]:-0}"
		printf '\n'
	done
}

# crash_host MODE CUTS: MODE "atomic" (no cut may find anything wrong),
# "measure" (as atomic, but violations are counted, not failed: the ext2
# upper), "naive" (a broken recipe: at least one violation must be
# found), "nocleanup" (a broken mount: work/ not empty after a mount must
# be found). The broken modes stop at the first catch; CUTS is their
# budget, and the cap of the others.
# Each cut: boot guest.sh, cut it CRASH_DELAY_MS (default "200 3000": a
# random time between the two, in ms) into its loop, crash_fsck. The next
# boot (check.sh's after the last cut) checks the union. With
# CRASH_AIM=steps (and a target) the cut is aimed instead: the host
# watches the console and cuts CRASH_AIM_DELAY (default 0.1) seconds
# after step M of an op of the target class, whose steps then pause
# CRASH_AIM_PAUSE ms (default 200) each; M is 1 until the class's ops
# have been seen, then a random step before its last (crash_aim_step),
# so that one cut per class usually falls between two steps.
# With CRASH_TARGETS (transition classes; CRASH_TARGETS=all: every one
# that "ul-crash classes" names a kind for), each boot aims at one of them
# (crash_pick, passed as ul.crash=CLASS); with CRASH_MIN as well, the
# cuts stop once crash_done, and it is a failure not to get there within
# CUTS. With CRASH_NEED_LEFTOVERS=1 (unionlite with step_sync), at least
# one cut must also have left something in work/, or the states between
# the steps were not on the disk (with CRASH_MIN, said only when not).
# Standard output is deterministic (the golden file's); the per-cut lines,
# the numbers that vary and the table per class go to $logs/$test.cuts
# (and to standard output as well with CRASH_VERBOSE=1).
crash_host() {
	local mode=$1 cuts=$2 i=0 ms vio=0 fsckerr=0 errs=0 left=0 leftwh=0
	local leftcuts=0 notempty=0 after0=0 after1=0 caught=0 repaired=0 manual=0 cut step
	local report=$logs/$test.cuts start=$SECONDS cmdline=$CMDLINE t l
	local upperfs=${CRASH_UPPER_FS:-ext4} dmin dmax ok
	local -a delays targets fixes fixlog where
	local -A c_cuts c_before c_after c_mid c_vio c_fix c_manual c_lo c_hi pending
	read -r dmin dmax <<< "${CRASH_DELAY_MS:-200 3000}"
	if [ "${CRASH_TARGETS:-}" = all ]; then
		CRASH_TARGETS=$("$UL_BUILD/helpers/ul-crash" classes | awk '$2 != "-" { print $1 }' | tr '\n' ' ')
	fi
	: > "$report"
	while [ $i -lt "$cuts" ] && [ $caught = 0 ] && ! crash_done; do
		i=$((i + 1))
		ms=$((dmin + RANDOM % (dmax - dmin + 1)))
		cut=$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))
		delays[$i]="after ${cut}s"
		if [ -n "${CRASH_TARGETS:-}" ]; then
			targets[$i]=$(crash_pick)
			pending[${targets[$i]}]=$((${pending[${targets[$i]}]:-0} + 1))
			CMDLINE="${cmdline:+$cmdline }ul.crash=${targets[$i]}"
			if [ "${CRASH_AIM:-}" = steps ]; then
				step=$(crash_aim_step "${targets[$i]}")
				cut="aim:${targets[$i]}:$step:${CRASH_AIM_DELAY:-0.1}"
				delays[$i]="aimed at step $step"
				CMDLINE="$CMDLINE ul.crash_pause=${CRASH_AIM_PAUSE:-200}"
			fi
		fi
		crash_boot "$i" cycle guest.sh "$cut"
		# where the cut fell, and the steps of each class's ops
		{
			read -r l
			where[$i]=$l
			while read -r _ t l ms; do
				# fewest and most steps seen on any boot
				[ -z "${c_lo[$t]:-}" ] || [ "$l" -lt "${c_lo[$t]}" ] && c_lo[$t]=$l
				[ -z "${c_hi[$t]:-}" ] || [ "$ms" -gt "${c_hi[$t]}" ] && c_hi[$t]=$ms
			done
		} < <(crash_where "$logs/$test@cycle.log")
		if [ $i -gt 1 ]; then
			crash_judge $((i - 1)) "$logs/$test@cycle.out"
			[ -n "${targets[$((i - 1))]:-}" ] &&
				pending[${targets[$((i - 1))]}]=$((${pending[${targets[$((i - 1))]}]} - 1))
		fi
		if [ "$UL_BOOT_RC" != cut ]; then
			errs=$((errs + 1))
			echo "cut $i: the workload ended before the cut (rc $UL_BOOT_RC)" >> "$report"
		fi
		crash_fsck "$i"
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
	CMDLINE=$cmdline
	{
		echo "summary: $cuts cuts, $vio violations, $fsckerr e2fsck errors, $errs other errors"
		echo "  matched: state after S $after0, after S+1 $after1"
		[ "$upperfs" = ext2 ] &&
			echo "  ext2 upper: e2fsck -p repaired the image after $repaired cuts, gave up (then e2fsck -fy) after $manual"
		echo "  work/ leftovers found at mount: $left entries ($leftwh whiteouts) after $leftcuts cuts; work/ not empty after mount: $notempty"
		echo "  time: $((SECONDS - start)) s"
		[ -n "${CRASH_TARGETS:-}" ] && crash_table
	} >> "$report"
	[ "${CRASH_VERBOSE:-0}" = 1 ] && sed -n '/^summary: /,$p' "$report"
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
		ok=1
		if [ -n "${CRASH_MIN:-}" ]; then
			if crash_done; then
				echo "every transition cut at least $(crash_times "$CRASH_MIN"), and between two steps when it has several"
			else
				echo "NOT every transition cut $(crash_times "$CRASH_MIN") and between two steps (or nothing left in work/) within $cuts cuts"
				ok=0
			fi
		fi
		l="$vio violations, $fsckerr e2fsck errors, $errs other errors"
		[ -n "${CRASH_MIN:-}" ] || l="$cuts cuts: $l"
		if [ "$mode" = measure ]; then
			echo "$fsckerr e2fsck errors after the repairs, $errs other errors"
			echo "violations and repairs are counted, not judged: see ${report#"$UL_TOP"/}"
		else
			echo "$l"
			[ "$vio" = 0 ] || ok=0
		fi
		if [ "${CRASH_MIN:-}" = "" ] && [ "${CRASH_NEED_LEFTOVERS:-0}" = 1 ]; then
			[ "$leftcuts" -gt 0 ] && echo "cuts that fell between two steps of a recipe: at least one" ||
				{ echo "cuts that fell between two steps of a recipe: NONE"; ok=0; }
		elif [ "${CRASH_NEED_LEFTOVERS:-0}" = 1 ] && [ "$leftcuts" = 0 ]; then
			echo "no cut left anything in work/: the states between the steps were not on the disk"
			ok=0
		fi
		[ $ok = 1 ] && [ "$fsckerr" = 0 ] && [ "$errs" = 0 ] && [ "$notempty" = 0 ]
		;;
	esac
}

# crash_every_transition MODE: crash_host MODE (atomic, or measure for
# the ext2 upper) over every transition class, or the classes of
# UL_CRASH_TARGETS="CLASS...", until each has UL_CRASH_MIN (default 1)
# cuts and one between two steps when it has several, and (without
# UL_CRASH_TARGETS) some cut has left something in work/; UL_CRASH_CUTS
# (default 120) cuts at most. The cuts are aimed at steps, or fall at a
# random moment 0.15-0.9 s into the loop with UL_CRASH_AIM=random.
crash_every_transition() {
	CRASH_TARGETS=${UL_CRASH_TARGETS:-all}
	CRASH_MIN=${UL_CRASH_MIN:-1}
	CRASH_DELAY_MS="150 900"
	CRASH_AIM=${UL_CRASH_AIM:-steps}
	[ -n "${UL_CRASH_TARGETS:-}" ] || CRASH_NEED_LEFTOVERS=1
	crash_host "$1" "${UL_CRASH_CUTS:-120}"
}
