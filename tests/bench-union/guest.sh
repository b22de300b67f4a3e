# Benchmark (make bench; numbers, not a pass/fail test): the same
# operations on unionlite and on the kernel's overlayfs, over the same
# lower layer on ext4, each union with its own upper and work directory
# and the same options. Each figure is the best of three runs with warm
# caches, except copy-up (three different cold files). The ratio is
# unionlite's time over overlayfs's: below 1.00 unionlite is faster.
. /tests/union-lib/union.sh
ul_load || exit 1
ul_mount_disks || exit 1
B=$UL_EXT4
mkdir -p $B/lower/d10k $B/lower/d100k $B/ul-upper $B/ul-work $B/ov-upper $B/ov-work /mnt/ul /mnt/ov
ul-bench mkfiles $B/lower/d10k 10000 || exit 1
ul-bench mkfiles $B/lower/d100k 100000 || exit 1
for f in read64 cu0 cu1 cu2; do
	dd if=/dev/zero of=$B/lower/$f bs=1M count=64 2>/dev/null || exit 1
done
sync
mount -t unionlite -o lowerdir=$B/lower,upperdir=$B/ul-upper,workdir=$B/ul-work none /mnt/ul || exit 1
mount -t overlay -o lowerdir=$B/lower,upperdir=$B/ov-upper,workdir=$B/ov-work none /mnt/ov || exit 1

# best CMD...: the highest rate of three runs of "ul-bench CMD"
best() {
	local i r b=0
	for i in 1 2 3; do
		r=$(ul-bench "$@" | awk '{ sub("/s", "", $4); print $4 }') || return 1
		b=$(echo "$r $b" | awk '{ print ($1 > $2) ? $1 : $2 }')
	done
	echo "$b"
}

# row LABEL UNIT UL_RATE OV_RATE
row() {
	printf '%-28s %12s %12s %8s\n' "$1" "$3" "$4" \
		"$(echo "$3 $4" | awk '{ printf "%.2f", ($1 > 0) ? $2 / $1 : 0 }')"
}

printf '%-28s %12s %12s %8s\n' "operation" "unionlite" "overlayfs" "ratio"
row "stat 10k names (ops/s)" ops "$(best stat /mnt/ul/d10k 10000)" "$(best stat /mnt/ov/d10k 10000)"
row "readdir 10k (entries/s)" ops "$(best readdir /mnt/ul/d10k)" "$(best readdir /mnt/ov/d10k)"
row "readdir 100k (entries/s)" ops "$(best readdir /mnt/ul/d100k)" "$(best readdir /mnt/ov/d100k)"
row "read 64 MiB (MiB/s)" mib "$(best read /mnt/ul/read64)" "$(best read /mnt/ov/read64)"
cu() { # cu MNT: best copy-up rate of cu0..cu2, caches dropped before each
	local f r b=0
	for f in cu0 cu1 cu2; do
		sync
		echo 3 > /proc/sys/vm/drop_caches
		r=$(ul-bench copyup "$1/$f" | awk '{ sub("/s", "", $4); print $4 }') || return 1
		b=$(echo "$r $b" | awk '{ print ($1 > $2) ? $1 : $2 }')
	done
	echo "$b"
}
row "copy-up 64 MiB (MiB/s)" mib "$(cu /mnt/ul)" "$(cu /mnt/ov)"

umount /mnt/ul && umount /mnt/ov || exit 1
ul_umount_disks || exit 1
rmmod unionlite
