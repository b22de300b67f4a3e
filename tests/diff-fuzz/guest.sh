# make fuzz SEEDS=N OPS=M: the differential test of diff-overlayfs with
# seeds 1000..1000+N-1 of M operations each (the kernel command line's
# ul.diff_seeds and ul.diff_ops); one line per seed, then the totals.
. /tests/lib/diff.sh
n=20 ops=2000
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	ul.diff_seeds=*) n=${arg#ul.diff_seeds=} ;;
	ul.diff_ops=*) ops=${arg#ul.diff_ops=} ;;
	esac
done
ul_mount_disks || exit 1
insmod /lib/modules/unionlite.ko || exit 1
rc=0 bad=0 t0=$(date +%s)
i=0
while [ $i -lt $n ]; do
	seed=$((1000 + i))
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
