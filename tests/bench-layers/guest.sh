# Benchmark (make bench; numbers, not a pass/fail test): lookup and
# readdir through 1 and through 5 lower layers, unionlite against the
# kernel's overlayfs over the same layers on ext4, each union with its
# own upper and work directory.
#
# The 100,000 names (d/n<i>) are in the bottom layer, L5; in the 5-layer
# unions L1 to L4 each hold a directory d with the same 100 other names
# (subdirectories d/d<i>, merged), so every lookup of a name asks five
# layers, and readdir merges five directories (100,100 entries). Each
# union's upper holds d with 10,000 files of its own (d/u<i>): the
# lookup of an upper file needs no lower layer (the lower layers are
# asked whether they have the name only when an unlink or rename needs
# to know). A lookup sample is 10,000 names, a readdir sample the whole
# directory. The 1-layer unions have L5 alone. All
# operations run from cold caches (drop_caches=2 before each sample:
# the union's and the layers' dentries and inodes go, the directory
# blocks stay in the page cache), interleaved on the two unions as in
# bench-union ("ul-bench ab"). Ratio: unionlite's time over overlayfs's.
. /tests/union-lib/union.sh
. /tests/lib/bench.sh
R=10
ul_start || exit 1
B=$UL_EXT4
for i in 1 2 3 4 5; do
	mkdir -p $B/l$i/d || exit 1
done
ul-bench mkfiles $B/l5/d 100000 || exit 1
for i in 1 2 3 4; do
	ul-bench mkdirs $B/l$i/d 100 || exit 1
done
for n in 1 5; do
	lowers=$B/l5
	[ $n = 5 ] && lowers=$B/l1:$B/l2:$B/l3:$B/l4:$B/l5
	for u in ul ov; do
		mkdir -p $B/$u$n-upper/d $B/$u$n-work /mnt/$u$n || exit 1
		ul-bench mkfiles $B/$u$n-upper/d 10000 u || exit 1
	done
	mount -t unionlite -o lowerdir=$lowers,upperdir=$B/ul$n-upper,workdir=$B/ul$n-work none /mnt/ul$n || exit 1
	mount -t overlay -o lowerdir=$lowers,upperdir=$B/ov$n-upper,workdir=$B/ov$n-work none /mnt/ov$n || exit 1
	for u in ul ov; do	# the names are all there: one untimed pass
		[ "$(ls /mnt/$u$n/d | wc -l)" = $(( n == 5 ? 110100 : 110000 )) ] || exit 1
		ul-bench stat /mnt/$u$n/d 10000 >/dev/null || exit 1
		ul-bench ab ustat /mnt/$u$n/d /mnt/$u$n/d 10000 >/dev/null || exit 1
	done
done
sync

for k in $(seq $R); do
	for n in 1 5; do
		BENCH_A=/mnt/ul$n BENCH_B=/mnt/ov$n
		echo 2 >/proc/sys/vm/drop_caches
		ab lookup$n $k stat d 10000 1
		echo 2 >/proc/sys/vm/drop_caches
		ab ulookup$n $k ustat d 10000 1
		echo 2 >/proc/sys/vm/drop_caches
		ab readdir$n $k readdir d 1
	done
done
sed 's/^/bench: /' $RATES >/dev/console

table_head
echo "$R rounds, each sample from cold dentry and inode caches"
row "lookup, 1 layer (ops/s)" ul-lookup1 ov-lookup1
row "lookup, 5 layers (ops/s)" ul-lookup5 ov-lookup5
row "lookup of upper files, 1 layer (ops/s)" ul-ulookup1 ov-ulookup1
row "lookup of upper files, 5 layers (ops/s)" ul-ulookup5 ov-ulookup5
row "readdir, 1 layer (entries/s)" ul-readdir1 ov-readdir1
row "readdir, 5 layers (entries/s)" ul-readdir5 ov-readdir5
for n in 1 5; do
	umount /mnt/ul$n && umount /mnt/ov$n || exit 1
done
ul_umount_disks || exit 1
rmmod unionlite
