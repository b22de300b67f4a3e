# Sourced by the diff-* guest scripts (busybox sh): one seed of the
# differential tester (tests/helpers/ul-diff.c), overlayfs at /mnt/a,
# unionlite at /mnt/b, over one lower tree (DIFF_LAYERS=3: three lower
# layers, ul_diff_layers), both uppers on the ext4 disk. DIFF_AUFS=1
# (with DIFF_LAYERS=3): unionlite, mounted with aufs_whiteouts, reads a
# copy of the layers with the whiteouts and opaque marks in the AUFS
# form (ul_diff_aufs); overlayfs reads them as made. DIFF_EXTRA=1:
# the extra operations (ul-diff run -x: chattr and move-in), inode flags
# on the lower objects (ul-diff flags), and after the operations the
# layer changes of ul_diff_changes.
. /tests/lib/common.sh

# ul_diff_layers DIR SEED: three lower layers DIR/top, DIR/mid, DIR/bot,
# the trees of seeds SEED+1000, SEED+500 and SEED (one pool of names:
# they overlap, directories merge, files cover directories). The middle
# layer also gets a whiteout over every fifth name of the bottom one it
# does not have (where its parent is a directory in the middle layer),
# and every fourth of its directories that the bottom layer has too is
# made opaque. Sets L to the lowerdir= value.
ul_diff_layers() {
	local d=$1 s=$2 i=0 p
	mkdir -p $d/top $d/mid $d/bot
	ul-diff lower $d/bot $s && ul-diff lower $d/mid $((s + 500)) &&
		ul-diff lower $d/top $((s + 1000)) || return 1
	(cd $d/bot && find . -mindepth 1 | sort) > /tmp/bot.names
	while read -r p; do
		i=$((i + 1))
		[ $((i % 5)) = 0 ] || continue
		[ -d "$d/mid/${p%/*}" ] && [ ! -e "$d/mid/$p" ] && [ ! -L "$d/mid/$p" ] &&
			mknod "$d/mid/$p" c 0 0
	done < /tmp/bot.names
	i=0
	(cd $d/mid && find . -mindepth 1 -type d | sort) | while read -r p; do
		i=$((i + 1))
		[ $((i % 4)) = 0 ] && [ -d "$d/bot/$p" ] &&
			setfattr -n trusted.overlay.opaque -v y "$d/mid/$p"
	done
	L=$d/top:$d/mid:$d/bot
	echo "seed $s: layers: $(find $d/mid -type c | wc -l) whiteouts and $(getfattr -R -n trusted.overlay.opaque $d/mid 2>/dev/null | grep -c opaque) opaque directories in the middle one"
}

# ul_diff_aufs DIR: a copy of the layers of $L in DIR (top, mid, bot),
# each whiteout replaced by a file .wh.NAME and each opaque mark by a
# file .wh..wh..opq, as containers/storage writes them for a mount
# program. Sets L to the copy's lowerdir= value.
ul_diff_aufs() {
	local d=$1 l p
	mkdir -p $d
	for l in top mid bot; do
		# busybox cp keeps no xattrs: they follow by getfattr's dump
		cp -a ${L%%:*}/../$l $d/ &&
			(cd ${L%%:*}/../$l && getfattr -R -h -d -m - -e hex . 2>/dev/null) >/tmp/aufs.xattrs &&
			(cd $d/$l && setfattr -h --restore=/tmp/aufs.xattrs) || return 1
		(cd $d/$l && find . -type c) | while read -r p; do
			[ "$(stat -c %t:%T "$d/$l/$p")" = 0:0 ] || continue
			rm "$d/$l/$p" && : >"$d/$l/${p%/*}/.wh.${p##*/}" || return 1
		done
		getfattr -R --absolute-names -n trusted.overlay.opaque $d/$l 2>/dev/null |
			sed -n 's/^# file: //p' | while read -r p; do
			setfattr -x trusted.overlay.opaque "$p" && : >"$p/.wh..wh..opq" || return 1
		done
	done
	L=$d/top:$d/mid:$d/bot
	echo "aufs copy: $(find $d -name '.wh.*' ! -name .wh..wh..opq | wc -l) .wh. whiteouts, $(find $d -name .wh..wh..opq | wc -l) opaque marks"
}

# ul_diff_run OPS SEED...: the disks mounted and the module loaded, each
# SEED's OPS operations (ul_diff_seed), its files removed after it, then
# both undone; UL_DIFF_BAD counts the seeds that diverged. Returns 1 on
# any mismatch.
ul_diff_run() {
	local ops=$1 seed rc=0
	shift
	UL_DIFF_BAD=0
	ul_mount_disks || return 1
	insmod /lib/modules/unionlite.ko || return 1
	for seed in "$@"; do
		if ! ul_diff_seed $seed $ops; then
			UL_DIFF_BAD=$((UL_DIFF_BAD + 1))
			rc=1
		fi
		ul_diff_clean $seed
	done
	rmmod unionlite || rc=1
	ul_umount_disks || rc=1
	return $rc
}

# ul_diff_layers13 OPS "SEEDS" "SEEDS3": ul_diff_run of the SEEDS over
# one lower layer, then of the SEEDS3 over three (DIFF_LAYERS=3), each
# under a heading. Returns 1 on any mismatch.
ul_diff_layers13() {
	local rc=0
	echo "## one lower layer"
	# shellcheck disable=SC2086
	ul_diff_run $1 $2 || rc=1
	echo "## three lower layers"
	DIFF_LAYERS=3
	# shellcheck disable=SC2086
	ul_diff_run $1 $3 || rc=1
	return $rc
}

# ul_diff_mount FS UPPER WORK MNT [LOWER]: FS over LOWER, a lowerdir=
# value (default the seed's lower tree $L), with the options $DIFF_OPTS
# (both unions: e.g. redirect_dir=on, under which ul-diff's renames of
# directories move them)
ul_diff_mount() {
	local o=$DIFF_OPTS
	[ "$1" = unionlite ] && [ "$DIFF_AUFS" = 1 ] && o=${o:+$o,}aufs_whiteouts
	mkdir -p "$3"
	mount -t $1 -o lowerdir=${5:-$L},upperdir=$2,workdir=$3${o:+,$o} none $4
}

# ul_diff_lower DIR SEED LAYERS: the lower layer(s) of SEED in DIR, one
# tree (LAYERS 1) or ul_diff_layers' three (LAYERS 3, their merged view
# mounted read-only at /mnt/lv). Sets L to the lowerdir= value and VIEW
# to what the lower layers show together (for the intended differences
# of cmp -u).
# DIFF_EXTRA=1: then the inode flags of ul-diff flags, on each layer.
ul_diff_lower() {
	if [ "$3" = 3 ]; then
		ul_diff_layers $1 $2 || return 1
		if [ "$DIFF_EXTRA" = 1 ]; then
			ul-diff flags $1/top $(($2 + 1000)) &&
				ul-diff flags $1/mid $(($2 + 500)) &&
				ul-diff flags $1/bot $2 || return 1
		fi
		VIEW=/mnt/lv
		mkdir -p $VIEW
		mount -t overlay -o lowerdir=$L none $VIEW
	else
		L=$1 VIEW=$1
		mkdir -p $L
		ul-diff lower $L $2 || return 1
		[ "$DIFF_EXTRA" != 1 ] || ul-diff flags $L $2
	fi
}

# ul_diff_view LOWER: VIEW, what the lowerdir= value LOWER shows: the
# directory itself, or the merged view of several, a read-only
# overlayfs at /mnt/lv (ul_diff_unview unmounts it)
ul_diff_view() {
	case $1 in
	*:*)
		VIEW=/mnt/lv
		mkdir -p $VIEW
		mount -t overlay -o lowerdir=$1 none $VIEW
		;;
	*) VIEW=$1 ;;
	esac
}

ul_diff_unview() {
	[ "$VIEW" != /mnt/lv ] || umount $VIEW
}

# ul_diff_phase SEED OPS N: the unions mounted again (A: upper $UA, work
# $WA, over $LA; B: $UB, $WB, $LB), OPS more operations drawn for phase
# N, then the uppers compared raw as ul_diff_seed compares them (the
# intended differences judged against what A's lower layers show; over
# different lower layers an origin counts only as there or not).
# Returns 1 on any mismatch.
ul_diff_phase() {
	local s=$1 rc=0 o=
	[ "$LA" = "$LB" ] || o=-o
	ul_diff_mount overlay $UA $WA /mnt/a $LA || return 1
	ul_diff_mount unionlite $UB $WB /mnt/b $LB || return 1
	ul-diff run -x -n $3 /mnt/a /mnt/b $s $2 2>/tmp/replay.$s.$3 || rc=1
	sed -n "s/^# first mismatch at op /# first mismatch at phase $3, op /p" /tmp/replay.$s.$3
	umount /mnt/a /mnt/b || return 1
	ul_diff_view $LA || return 1
	# shellcheck disable=SC2086
	ul_diff_cmp -x $o -u $UA $UB "the uppers after phase $3" $VIEW || rc=1
	ul_diff_unview || rc=1
	return $rc
}

# ul_diff_drop SEED: a lower layer goes, between mounts (both unions
# share the lower layers): over three layers, L loses the middle one
# (odd seeds) or the bottom one (even seeds); over one, the lower
# directory that holds the most whiteouts of A's upper (directly; the
# first in the order of paths of those A's upper has, else the first)
# is removed with all it holds. The uppers' whiteouts, origins and
# opaque marks there then name what is gone.
ul_diff_drop() {
	local s=$1 p best= n bestn=-1
	if [ "${DIFF_LAYERS:-1}" = 3 ]; then
		if [ $((s % 2)) = 1 ]; then
			L=${L%%:*}:${L##*:}
			echo "seed $s: the middle lower layer dropped"
		else
			L=${L%:*}
			echo "seed $s: the bottom lower layer dropped"
		fi
		return 0
	fi
	(cd $L && find . -mindepth 1 -type d | sort) >/tmp/ldirs
	while read -r p; do
		[ -d "$UA/$p" ] || continue
		n=$(find "$UA/$p" -maxdepth 1 -type c | wc -l)
		[ $n -gt $bestn ] && best=$p bestn=$n
	done </tmp/ldirs
	[ -n "$best" ] || best=$(head -n 1 /tmp/ldirs)
	[ -n "$best" ] || return 0
	echo "seed $s: lower directory ${best#./} removed (A's upper: $((bestn < 0 ? 0 : bestn)) whiteouts in it)"
	# an append-only or immutable parent would keep it
	p=${best%/*}
	ul-union-sys setflags "$L/$p" -a >/dev/null
	ul-union-sys setflags "$L/$p" -i >/dev/null
	ul-diff unflag "$L/$best" && rm -rf "$L/$best"
}

# ul_diff_changes SEED OPS: after ul_diff_seed's operations, the layers
# change twice, with OPS operations after each (ul_diff_phase): a lower
# layer goes (ul_diff_drop), then each union's upper becomes the top
# lower layer of a new union over the remaining lower layers, with a
# fresh upper and work directory (overlayfs over its own old upper,
# unionlite over its own). Sets ua and ub to the last uppers, LA and LB
# to their lower layers. Returns 1 on any mismatch.
ul_diff_changes() {
	local s=$1 d=$UL_EXT4 rc=0
	UA=$ua UB=$ub WA=$d/wa$s WB=$d/wb$s
	ul_diff_drop $s || rc=1
	LA=$L LB=$L
	ul_diff_phase $s $2 2 || rc=1
	LA=$UA:$L LB=$UB:$L
	UA=$d/ra$s UB=$d/rb$s WA=$d/rwa$s WB=$d/rwb$s
	mkdir -p $UA $UB
	echo "seed $s: each upper made the top lower layer of a new union"
	ul_diff_phase $s $2 3 || rc=1
	ua=$UA ub=$UB
	return $rc
}

# ul_diff_seed SEED OPS: run SEED's OPS operations on both unions; then
# the two uppers, compared raw (with their trusted.overlay.* xattrs),
# must hold the same objects; then each upper is read by the other
# filesystem: overlayfs over both uppers, unionlite over both, and the
# first pair again, each with fresh work dirs, must show one view.
# Prints the run's line, then one line per mismatching comparison; the
# replay lines go to /tmp/replay.SEED. When the run or the uppers
# differ, the minimizer prints the shortest list of the run's
# operations that still diverges, as a script in the form of
# tests/diff-cases. DIFF_EXTRA=1: the extra operations, and
# ul_diff_changes before the uppers are read by the other filesystem
# (only the operations before the first change are minimized). Returns
# 1 on any mismatch.
ul_diff_seed() {
	local s=$1 ops=$2 d=$UL_EXT4 rc=0 ua ub layers= x= la lb o
	ua=$d/ua$s ub=$d/ub$s
	[ "$DIFF_EXTRA" = 1 ] && x=-x
	export DIFF_OPTS	# for ul-diff min
	mkdir -p $ua $ub /mnt/a /mnt/b
	ul_diff_lower $d/l$s $s "${DIFF_LAYERS:-1}" || return 1
	LA=$L LB=$L
	# the minimizer reuses several layers, and rebuilds one from the seed
	[ "${DIFF_LAYERS:-1}" = 3 ] && layers="$L $VIEW"
	if [ "$DIFF_AUFS" = 1 ]; then
		ul_diff_aufs $d/aufs$s || return 1
		LB=$L L=$LA
	fi
	ul_diff_mount overlay $ua $d/wa$s /mnt/a $LA || return 1
	ul_diff_mount unionlite $ub $d/wb$s /mnt/b $LB || return 1
	# shellcheck disable=SC2086
	ul-diff run $x /mnt/a /mnt/b $s $ops 2>/tmp/replay.$s || rc=1
	grep '^# first' /tmp/replay.$s
	umount /mnt/a /mnt/b || return 1
	# over other copies of the layers an origin counts as there or not
	o=
	[ "$LA" = "$LB" ] || o=-o
	# shellcheck disable=SC2086
	ul_diff_cmp $x $o -u $ua $ub "the uppers" $VIEW || rc=1
	# shellcheck disable=SC2086
	[ $rc = 0 ] || ul-diff min $x $d/min$s $s /tmp/replay.$s $layers
	[ -n "$layers" ] && { umount $VIEW || rc=1; }
	if [ "$DIFF_EXTRA" = 1 ]; then
		ul_diff_changes $s $ops || rc=1
	fi
	for fs in overlay unionlite; do
		la=$LA lb=$LB
		# each union reads the layers in its own form
		[ "$DIFF_AUFS" = 1 ] && { [ $fs = overlay ] && lb=$LA || la=$LB; }
		ul_diff_mount $fs $ua $d/xa$fs$s /mnt/a $la || return 1
		ul_diff_mount $fs $ub $d/xb$fs$s /mnt/b $lb || return 1
		ul_diff_cmp /mnt/a /mnt/b "$fs over both uppers" || rc=1
		umount /mnt/a /mnt/b || return 1
	done
	ul_diff_mount overlay $ua $d/ya$s /mnt/a $LA || return 1
	ul_diff_mount unionlite $ub $d/yb$s /mnt/b $LB || return 1
	ul_diff_cmp /mnt/a /mnt/b "remounted" || rc=1
	umount /mnt/a /mnt/b || return 1
	return $rc
}

# ul_diff_cmp [-u] A B LABEL: ul-diff cmp, silent when nothing differs
ul_diff_cmp() {
	ul-diff cmp "$@" >/tmp/cmp.out && return 0
	cat /tmp/cmp.out
	return 1
}

# ul_diff_clean SEED: remove the seed's layers and work dirs (their
# append-only and immutable flags cleared first)
ul_diff_clean() {
	local x
	for x in $UL_EXT4/*$1; do
		[ ! -e "$x" ] || ul-diff unflag "$x"
	done
	rm -rf $UL_EXT4/*$1
}

# ul_diff_case SEED [layers] [flags]: the operations on standard input
# (ul-diff op lines) on overlayfs (/mnt/a) and unionlite (/mnt/b) over
# SEED's lower tree (with "layers": the three layers of ul_diff_layers;
# with "flags": with the inode flags of DIFF_EXTRA=1), each with its
# results, then the trees compared, then the two uppers (unmounted,
# raw). The module must be loaded and the disks mounted. The scripts
# ul-diff min prints call it.
ul_diff_case() {
	local d=$UL_EXT4/case rc=0 n=1 x= DIFF_EXTRA= a
	for a in "$@"; do
		case $a in
		layers) n=3 ;;
		flags) DIFF_EXTRA=1 x=-x ;;
		esac
	done
	[ ! -e $d ] || ul-diff unflag $d
	rm -rf $d
	mkdir -p $d/ua $d/ub /mnt/a /mnt/b
	ul_diff_lower $d/l $1 $n || return 1
	ul_diff_mount overlay $d/ua $d/wa /mnt/a || return 1
	ul_diff_mount unionlite $d/ub $d/wb /mnt/b || return 1
	ul-diff replay /mnt/a /mnt/b - || rc=1
	umount /mnt/a /mnt/b || rc=1
	# shellcheck disable=SC2086
	ul-diff cmp $x -u $d/ua $d/ub "the uppers" $VIEW || rc=1
	[ $n = 3 ] && { umount $VIEW || rc=1; }
	ul-diff unflag $d
	rm -rf $d
	return $rc
}
