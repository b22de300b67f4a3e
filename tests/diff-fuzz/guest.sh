# make fuzz SEEDS=N OPS=M: the differential test of diff-overlayfs with
# seeds 1000..1000+N-1 of M operations each (the kernel command line's
# ul.diff_seeds and ul.diff_ops); one line per seed, then the totals.
. /tests/lib/common.sh
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
	L=$UL_EXT4/l$seed
	mkdir -p $L $UL_EXT4/ua$seed $UL_EXT4/wa$seed $UL_EXT4/ub$seed $UL_EXT4/wb$seed /mnt/a /mnt/b
	ul-diff lower $L $seed || rc=1
	mount -t overlay -o lowerdir=$L,upperdir=$UL_EXT4/ua$seed,workdir=$UL_EXT4/wa$seed none /mnt/a || rc=1
	mount -t unionlite -o lowerdir=$L,upperdir=$UL_EXT4/ub$seed,workdir=$UL_EXT4/wb$seed none /mnt/b || rc=1
	if ! ul-diff run /mnt/a /mnt/b $seed $ops 2>/tmp/replay.$seed; then
		bad=$((bad + 1))
		rc=1
		grep '^# first' /tmp/replay.$seed
	fi
	umount /mnt/a /mnt/b || rc=1
	rm -rf $L $UL_EXT4/ua$seed $UL_EXT4/wa$seed $UL_EXT4/ub$seed $UL_EXT4/wb$seed
	i=$((i + 1))
done
t=$(( $(date +%s) - t0 ))
echo "fuzz: $n seeds of $ops operations in $t s ($(( n * ops / (t > 0 ? t : 1) )) operations/s); $bad seeds diverged"
rmmod unionlite || rc=1
ul_umount_disks || rc=1
exit $rc
