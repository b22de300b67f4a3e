# Benchmark (make bench; numbers, not a pass/fail test): the same
# operations on unionlite and on the kernel's overlayfs, over the same
# lower layer on ext4, each union with its own upper and work directory
# and the same options.
#
# The read side and copy-up run in $R rounds, the whiteout transitions
# in the first $W. In a round, "ul-bench ab" times an operation on both
# unions interleaved (in turns of 100 names, pass by pass for readdir and
# read, file by file for copy-up), so that both see the same moments of a
# host whose speed varies. Per operation the table shows each union's
# best rate, the ratio of the two bests, the ratio of the two unions'
# times summed over all rounds ("all"), and the median and range of the
# per-round ratios. A ratio is unionlite's time over overlayfs's: below
# 1.00 unionlite is faster. Every single rate goes to the console
# log ("bench: KEY ROUND RATE"). The clock is the TSC (tsc=reliable in
# test.conf): under TCG on a loaded host the kernel's clocksource
# watchdog would otherwise fall back to 4 ms jiffies.
#
# stat, readdir and read run with warm caches (one untimed pass on each
# union at the start of every round), several passes per timed sample
# (stat 10k names 10 times, readdir 10k 40 times, 100k 15 times, read
# 64 MiB 24 times: 1-5 s per sample); the
# 100k directory is lower-only (read straight through), or merged with
# an upper directory of 1,000 names (a merged listing, kept between
# reads; then each read after a file made and removed there, so that
# both unions list it anew); "tar -cf /dev/null" of a lower tree of 8,000
# files of 4 to 16 KiB in 20 x 20 directories from cold caches, twice
# on each union per round in balanced order (busybox tar sends the data
# to /dev/null with sendfile()); a
# round copies up $C lower files of 64 MiB (cu/rK/c<i>) on each union,
# each from cold caches (sync and drop_caches before every copy-up).
#
# The whiteout transitions (the recipes of docs/recipes.md) take $N names
# per round; a name can be removed only once, so each round has its own
# names (wh/rK). Both uppers already hold, before mount, the directories
# wh/rK/{u,r,d}, an empty directory over each lower wh/rK/d/d<i> (rmdir
# removes a merged directory: recipe 1's exchange, on both unions) and a
# copy of each lower wh/rK/r/n<i> (rename times the whiteout, not a
# copy-up). unlink removes lower-only files; mkdir makes the directories
# again over the whiteouts rmdir left. The raw floors are the steps done
# directly on ext4 with ul-bench: recipe 1 (rmdir-raw: mknod a whiteout
# in a work dir, exchange, rmdir) and the unlink (unlink-raw: mknod,
# rename onto the name); the last rows are each union's time over them,
# and then the cost of whiteouts with their own inode against hard links
# of one (ul-bench whiteouts: $N of each, in turns).
. /tests/union-lib/union.sh
R=12
W=6
N=3000
C=2
ul_start || exit 1
. /tests/lib/bench.sh
B=$UL_EXT4
mkdir -p $B/lower/d10k $B/lower/d100k $B/lower/m100k $B/ul-upper $B/ul-work $B/ov-upper $B/ov-work /mnt/ul /mnt/ov
ul-bench mkfiles $B/lower/d10k 10000 || exit 1
ul-bench mkfiles $B/lower/d100k 100000 || exit 1
ul-bench mkfiles $B/lower/m100k 100000 || exit 1
for d in ul-upper ov-upper; do
	mkdir -p $B/$d/m100k && ul-bench mkfiles $B/$d/m100k 1000 u || exit 1
done
dd if=/dev/zero of=$B/lower/read64 bs=1M count=64 2>/dev/null || exit 1
bench_tree $B/lower/tree 20
NTREE=$(find $B/lower/tree | wc -l)
for k in $(seq $R); do
	mkdir -p $B/lower/cu/r$k || exit 1
	for i in $(seq 0 $((C - 1))); do
		dd if=/dev/zero of=$B/lower/cu/r$k/c$i bs=1M count=64 2>/dev/null || exit 1
	done
	[ $k -le $W ] || continue
	mkdir -p $B/raw/r$k/d $B/raw/r$k/w $B/rawu/r$k/n $B/rawu/r$k/w || exit 1
	ul-bench mkdirs $B/raw/r$k/d $N || exit 1
	for d in lower ul-upper ov-upper; do
		mkdir -p $B/$d/wh/r$k/u $B/$d/wh/r$k/r $B/$d/wh/r$k/d || exit 1
		ul-bench mkdirs $B/$d/wh/r$k/d $N || exit 1
		ul-bench mkfiles $B/$d/wh/r$k/r $N || exit 1
	done
	ul-bench mkfiles $B/lower/wh/r$k/u $N || exit 1
done
sync
mount -t unionlite -o lowerdir=$B/lower,upperdir=$B/ul-upper,workdir=$B/ul-work none /mnt/ul || exit 1
mount -t overlay -o lowerdir=$B/lower,upperdir=$B/ov-upper,workdir=$B/ov-work none /mnt/ov || exit 1


# tar_ab ROUND: tar -c of the lower tree from cold caches, twice on each
# union in the order ul ov ov ul (ov ul ul ov in even rounds): whoever
# goes first in a pair is not favoured; kept as ul-tar and ov-tar
# (objects/s over both runs)
tar_ab() {
	local m t0 t1 order="ul ov ov ul"
	[ $(($1 % 2)) = 0 ] && order="ov ul ul ov"
	: >/tmp/tar.times
	for m in $order; do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		t0=$(cut -d' ' -f1 /proc/uptime)
		tar -cf /dev/null -C /mnt/$m tree || exit 1
		t1=$(cut -d' ' -f1 /proc/uptime)
		echo "$m $t0 $t1" >>/tmp/tar.times
	done
	awk -v n=$NTREE -v k=$1 '{ t[$1] += $3 - $2 }
		END { print "ul-tar", k, 2 * n / t["ul"]; print "ov-tar", k, 2 * n / t["ov"] }' \
		/tmp/tar.times >>$RATES
}

# warm: one untimed pass of the warm-cache operations on each union, at
# every round's start. The unions share the lower layer's cache: after
# the round before dropped it (tar -c, copy-ups), the first timed pass,
# always unionlite's, would read the lower from disk for both.
warm() {
	local m
	for m in ul ov; do
		ul-bench stat /mnt/$m/d10k 10000 >/dev/null &&
		ul-bench readdir /mnt/$m/d10k >/dev/null &&
		ul-bench readdir /mnt/$m/d100k >/dev/null &&
		ul-bench readdir /mnt/$m/m100k >/dev/null &&
		ul-bench read /mnt/$m/read64 >/dev/null || exit 1
	done
}
for m in ul ov; do
	ls -la $B/lower/wh/r*/* $B/$m-upper/wh/r*/* >/dev/null || exit 1
done
ls -la $B/raw/r*/d $B/rawu/r*/n >/dev/null || exit 1

for k in $(seq $R); do
	warm
	ab stat $k stat d10k 10000 10
	ab readdir $k readdir d10k 40
	ab readdir100k $k readdir d100k 15
	ab readdirm $k readdir m100k 15
	ab readdirc $k readdir-changed m100k 4
	ab read $k read read64 24
	ab copyup $k copyup cu/r$k $C
	tar_ab $k
	[ $k -le $W ] || continue
	for op in unlink:u rmdir:d mkdir:d rename:r; do
		ab ${op%:*} $k ${op%:*} wh/r$k/${op#*:} $N
	done
	rec raw-rmdir $k rmdir-raw $B/raw/r$k/d $N $B/raw/r$k/w
	rec raw-unlink $k unlink-raw $B/rawu/r$k/n $N $B/rawu/r$k/w
done
sed 's/^/bench: /' $RATES >/dev/console

echo "$R rounds for the read side and copy-up, $W for the whiteout transitions"
table_head
row "stat 10k names (ops/s)" ul-stat ov-stat
row "readdir 10k (entries/s)" ul-readdir ov-readdir
row "readdir 100k (entries/s)" ul-readdir100k ov-readdir100k
row "readdir 100k merged (entries/s)" ul-readdirm ov-readdirm
row "  after a change (entries/s)" ul-readdirc ov-readdirc
row "read 64 MiB (MiB/s)" ul-read ov-read
row "tar -c of a lower tree (obj/s)" ul-tar ov-tar
row "copy-up 64 MiB (MiB/s)" ul-copyup ov-copyup
row "unlink-with-whiteout (ops/s)" ul-unlink ov-unlink
row "rmdir-with-whiteout (ops/s)" ul-rmdir ov-rmdir
row "mkdir-over-whiteout (ops/s)" ul-mkdir ov-mkdir
row "rename-with-whiteout (ops/s)" ul-rename ov-rename
echo "raw ext4 floors (ops/s): recipe 1 $(best raw-rmdir), unlink $(best raw-unlink)"
printf '%-30s %10s %10s\n' "time over the raw floor" unionlite overlayfs
for op in rmdir unlink; do
	printf '%-30s %10s %10s\n' "  $op-with-whiteout, median" \
		"$(ratios raw-$op ul-$op | cut -d' ' -f1)" \
		"$(ratios raw-$op ov-$op | cut -d' ' -f1)"
done

# why whiteouts are hard links of one (docs/recipes.md, "Shared
# whiteouts"): own inodes against links, made and removed, on ext4
mkdir -p $B/whc/a $B/whc/b || exit 1
sync
ul-bench whiteouts $B/whc/a $B/whc/b $N | awk '
	{ sub("/s", "", $4); r[$1] = $4 }
	END { printf "whiteouts on ext4 (ops/s): made by mknod %s, as links %s; removed with their own inode %s, links %s\n",
	      r["whiteout-mknod"], r["whiteout-link"], r["unlink-own-inode"], r["unlink-link"] }'
[ -z "$(find $B/whc -mindepth 2)" ] || exit 1

umount /mnt/ul && umount /mnt/ov || exit 1
# the runs did what they say: a whiteout per unlink and per rename in each
# upper (rmdir's were replaced by mkdir), one per raw step
for d in ul-upper/wh ov-upper/wh raw rawu; do
	w=$(find $B/$d -type c | wc -l)
	echo "whiteouts in $d: $w"
	case $d in
	raw*) [ $w = $((W * N)) ] ;;
	*) [ $w = $((W * N * 2)) ] ;;
	esac || exit 1
done
ul_umount_disks || exit 1
rmmod unionlite
