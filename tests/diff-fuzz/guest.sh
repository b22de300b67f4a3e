# make fuzz SEEDS=N OPS=M [FIRST=F]: the differential test of
# diff-overlayfs with seeds F..F+N-1 (F: 1000 unless given) of M
# operations each (the kernel command line's ul.diff_seeds, ul.diff_ops
# and ul.diff_first); one line per seed, then the totals.
. /tests/lib/diff.sh
n=20 ops=2000 first=1000
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	ul.diff_first=*) first=${arg#ul.diff_first=} ;;
	ul.diff_seeds=*) n=${arg#ul.diff_seeds=} ;;
	ul.diff_ops=*) ops=${arg#ul.diff_ops=} ;;
	esac
done
ul_mount_disks || exit 1
insmod /lib/modules/unionlite.ko || exit 1
rc=0 bad=0 t0=$(date +%s)
i=0
while [ $i -lt $n ]; do
	seed=$((first + i))
	if ! ul_diff_seed $seed $ops; then
		bad=$((bad + 1))
		rc=1
	fi
	ul_diff_clean $seed
	i=$((i + 1))
done
t=$(( $(date +%s) - t0 ))
echo "fuzz: $n seeds of $ops operations in $t s ($(( n * ops / (t > 0 ? t : 1) )) operations/s); $bad seeds diverged"
rmmod unionlite || rc=1
ul_umount_disks || rc=1
exit $rc
