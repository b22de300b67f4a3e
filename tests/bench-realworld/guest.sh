# Benchmark (make bench; numbers, not a pass/fail test): the phases of
# the real client's workload (tests/lib/realworld.sh: dpkg, git,
# compile, tar, move, removal, user) on unionlite, on overlayfs, and on a
# plain copy of the merged layers on the upper's filesystem (the floor:
# no union). $R rounds in one boot, the three kinds in a different order
# each round, each run on a fresh upper or copy, after a sync and with
# the caches dropped. Per phase: the median
# seconds of each kind, and the ratios of the medians. The plain copy is
# made with busybox cp -a (modes, owners, times; no xattrs).
. /tests/lib/common.sh
. /tests/lib/realworld.sh
R=3
ul_mount_disks || exit 1
rw_root || exit 1
insmod /lib/modules/unionlite.ko || exit 1
rw_layers >/dev/null || exit 1
mkdir -p /mnt/merged
mount -t overlay -o lowerdir=$RW_LOWER none /mnt/merged || exit 1
for k in $(seq 1 $R); do
	case $k in
	1) order="unionlite overlay plain" ;;
	2) order="plain overlay unionlite" ;;
	*) order="overlay unionlite plain" ;;
	esac
	for fs in $order; do
		up=$UL_EXT4/r$k-$fs
		if [ $fs = plain ]; then
			cp -a /mnt/merged $up && mount -o bind $up $RW_MNT &&
				mount -t proc proc $RW_MNT/proc &&
				mount -t devtmpfs dev $RW_MNT/dev || exit 1
		else
			rw_enter $fs $RW_LOWER $up || exit 1
		fi
		# every run from the same state: what the last one wrote and
		# freed on disk, no cached objects
		sync
		echo 3 >/proc/sys/vm/drop_caches
		n=$(wc -l <$RW_TIMES)
		rw_workload $fs >/tmp/rw-$fs-$k.out || { cat /tmp/rw-$fs-$k.out; exit 1; }
		tail -n +$((n + 1)) $RW_TIMES | awk -v f=$fs '{ s += $3 } END { print f, "total", s }' >>/tmp/totals
		tail -n +$((n + 1)) $RW_TIMES | awk -v f=$fs -v k=$k '{ s = s " " $2 "=" $3 } END { print "round " k " " f ":" s }' >>/tmp/rounds
		rw_leave || exit 1
		rm -rf $up $up.work
	done
done
umount /mnt/merged
cat /tmp/totals >>$RW_TIMES
echo "the workload's phases: median seconds of $R rounds, and the ratios of the medians"
printf '%-8s %9s %9s %9s %8s %8s\n' phase unionlite overlayfs plain ul/ov ul/plain
for p in dpkg git compile tar move removal user total; do
	for fs in unionlite overlay plain; do
		awk -v f=$fs -v p=$p '$1 == f && $2 == p { print $3 }' $RW_TIMES | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f\n", v[int((NR + 1) / 2)] }' >/tmp/med-$fs
	done
	echo "$p $(cat /tmp/med-unionlite) $(cat /tmp/med-overlay) $(cat /tmp/med-plain)" |
		awk '{ printf "%-8s %9.2f %9.2f %9.2f %8.2f %8.2f\n", $1, $2, $3, $4,
			($3 > 0) ? $2 / $3 : 0, ($4 > 0) ? $2 / $4 : 0 }'
done
echo "the runs, seconds per phase:"
cat /tmp/rounds
umount $RW_ROOT
ul_umount_disks
