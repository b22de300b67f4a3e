# Benchmark (make bench; numbers, not a pass/fail test): the phases of
# the real client's workload (tests/lib/realworld.sh), then a chmod -R
# and a chown -R of image trees, on five kinds of root: unionlite and
# overlayfs with their default options (ul, ov) and with metacopy=on
# (ulm, ovm; it turns redirect_dir=on on, so the move phase renames
# image directories where the others copy them), and a plain copy of the
# merged layers on the upper's filesystem (the floor: no union). $R
# rounds in one boot, the kinds in a different order each round (a
# rotation, reversed every other round); each run on a fresh upper or
# copy, after a sync and with the caches dropped. Per phase: each kind's
# median seconds, then the median and range of the per-round ratios
# (a round's ratio compares two runs of the same round). The plain copy
# is made with busybox cp -a (modes, owners, times; no xattrs). A sync
# before each phase (RW_SYNC) keeps the write-back of one phase out of
# the next one's time; the syncs add up in phase "sync".
. /tests/lib/common.sh
. /tests/lib/realworld.sh
R=7
KINDS="ul ov ulm ovm plain"
RUNS=/tmp/runs
RW_SYNC=1
# image trees no phase before them writes to
CHMOD_TREES="/usr/share/perl /usr/lib/x86_64-linux-gnu/perl"
CHOWN_TREES="/usr/lib/x86_64-linux-gnu/perl-base /usr/share/zoneinfo"
: >$RUNS
ul_mount_disks || exit 1
rw_root || exit 1
insmod /lib/modules/unionlite.ko || exit 1
rw_layers >/dev/null || exit 1
mkdir -p /mnt/merged
mount -t overlay -o lowerdir=$RW_LOWER none /mnt/merged || exit 1

# run KIND ROUND: the workload and the bench's phases on a fresh KIND
run() {
	local up=$UL_EXT4/r$2-$1 n
	case $1 in
	plain) cp -a /mnt/merged $up && mount -o bind $up $RW_MNT &&
		mount -t proc proc $RW_MNT/proc &&
		mount -t devtmpfs dev $RW_MNT/dev || return 1 ;;
	ul) rw_enter unionlite $RW_LOWER $up || return 1 ;;
	ov) rw_enter overlay $RW_LOWER $up || return 1 ;;
	ulm) rw_enter unionlite $RW_LOWER $up metacopy=on || return 1 ;;
	ovm) rw_enter overlay $RW_LOWER $up metacopy=on || return 1 ;;
	esac
	# every run from the same state: what the last one wrote and
	# freed on disk, no cached objects
	sync
	echo 3 >/proc/sys/vm/drop_caches
	n=$(wc -l <$RW_TIMES)
	rw_workload $1 >/tmp/rw-$1-$2.out || { cat /tmp/rw-$1-$2.out; return 1; }
	rw_time chmod-R "chmod -R g+w $CHMOD_TREES" ||
		rw_fail chmod-R || return 1
	rw_time chown-R "chown -R 1000:1000 $CHOWN_TREES" ||
		rw_fail chown-R || return 1
	tail -n +$((n + 1)) $RW_TIMES | awk -v k=$2 '$2 != "sync" { print $1, $2, k, $3 }
		$2 == "sync" { y += $3 } { f = $1; s += $3 }
		END { print f, "sync", k, y; print f, "total", k, s }' >>$RUNS
	rw_leave && rm -rf $up $up.work
}

for k in $(seq $R); do
	order=$(echo $KINDS | awk -v k=$k '{ for (i = 0; i < NF; i++)
		o[i] = $((i + k - 1) % NF + 1)
		for (i = 0; i < NF; i++) printf "%s ", (k % 2) ? o[i] : o[NF - 1 - i] }')
	echo "round $k: $order" >/dev/console
	for kind in $order; do
		run $kind $k || exit 1
	done
done
umount /mnt/merged
echo "trees of chmod-R and chown-R: $(for t in $CHMOD_TREES; do find $RW_ROOT$t; done | wc -l)" \
	"and $(for t in $CHOWN_TREES; do find $RW_ROOT$t; done | wc -l) entries"

PHASES="dpkg git compile tar-c tar-x cp-a move removal user chmod-R chown-R sync total"
# med KIND PHASE: the median seconds of KIND's runs of PHASE
med() {
	awk -v f=$1 -v p=$2 '$1 == f && $2 == p { print $4 }' $RUNS | sort -n |
		awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] :
			(v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# spread A B PHASE: "median min-max" of the rounds' A/B time ratios
spread() {
	awk -v a=$1 -v b=$2 -v p=$3 '$2 == p && $1 == a { ta[$3] = $4 }
		$2 == p && $1 == b { tb[$3] = $4 }
		END { for (k in ta) if (tb[k] > 0) print ta[k] / tb[k] }' $RUNS | sort -n |
		awk '{ v[NR] = $1 } END { printf "%5.2f %.2f-%.2f", (NR % 2) ? v[(NR + 1) / 2] :
			(v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
}
echo "the phases, median seconds of $R rounds"
printf '%-8s %7s %7s %7s %7s %7s\n' phase $KINDS
for p in $PHASES; do
	printf '%-8s' $p
	for f in $KINDS; do
		printf ' %7s' $(med $f $p)
	done
	echo
done
echo "ratios of times in the same round: median and range of $R"
printf '%-8s %-16s %-16s %-16s %-16s\n' phase ul/ov ulm/ovm ov/plain ovm/plain
for p in $PHASES; do
	printf '%-8s %-16s %-16s %-16s %-16s\n' $p "$(spread ul ov $p)" \
		"$(spread ulm ovm $p)" "$(spread ov plain $p)" "$(spread ovm plain $p)"
done
echo "the runs, seconds per phase:"
awk '{ r[$1 " " $3] = r[$1 " " $3] " " $2 "=" $4 }
	END { for (k in r) print k ":" r[k] }' $RUNS | sort -k2n -k1
umount $RW_ROOT
ul_umount_disks
