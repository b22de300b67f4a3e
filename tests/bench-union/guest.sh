# Benchmark (make bench; numbers, not a pass/fail test): the same
# operations on unionlite and on the kernel's overlayfs, over the same
# lower layer on ext4, each union with its own upper and work directory
# and the same options. Each figure is the best of three runs with warm
# caches, except copy-up (three different cold files). The ratio is
# unionlite's time over overlayfs's: below 1.00 unionlite is faster.
#
# The whiteout transitions (the recipes of docs/recipes.md) take 2,000
# names per run; a name can be removed only once, so each of the three
# runs has its own names (wh/r1..r3) and the best run is kept. Both
# uppers already hold, before mount, the directories wh/rK/{u,r,d}, an
# empty directory over each lower wh/rK/d/d<i> (rmdir removes a merged
# directory: recipe 1's exchange, on both unions) and a copy of each lower
# wh/rK/r/n<i> (rename times the whiteout, not a copy-up). unlink removes
# lower-only files; mkdir makes the directories again over the whiteouts
# rmdir left. The raw floor is recipe 1's three steps done directly on
# the ext4 directories raw/rK/d/d<i>, with raw/rK/w as the work dir
# (ul-bench rmdir-raw); its ratios are the union's time over the floor's.
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
N=2000
for k in 1 2 3; do
	mkdir -p $B/raw/r$k/d $B/raw/r$k/w || exit 1
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

wh() { # wh KEY CMD...: one run of "ul-bench CMD", "KEY RATE" kept
	local key=$1 out
	shift
	out=$(ul-bench "$@") || exit 1
	set -- $out
	echo "$key ${4%/s}" >>/tmp/wh.rates
}
# each operation on both unions back to back, the first one alternating,
# so that a change of the machine's load falls on both alike
for k in 1 2 3; do
	ms="ul ov"
	[ $k = 2 ] && ms="ov ul"
	# warm caches: every real object of this run looked up once, so that
	# neither union pays for the lower names the other one read first
	ls -la $B/lower/wh/r$k/* $B/ul-upper/wh/r$k/* $B/ov-upper/wh/r$k/* \
		$B/raw/r$k/d >/dev/null || exit 1
	for op in unlink:u rmdir:d mkdir:d rename:r; do
		for m in $ms; do
			wh $m-${op%:*} ${op%:*} /mnt/$m/wh/r$k/${op#*:} $N
		done
	done
	wh raw rmdir-raw $B/raw/r$k/d $N $B/raw/r$k/w
done
top() { # top KEY: the best rate kept for KEY
	awk -v k=$1 '$1 == k && $2 > b { b = $2 } END { printf "%.1f", b }' /tmp/wh.rates
}
# every run, for the console log
sed 's/^/bench: /' /tmp/wh.rates >/dev/console
row "unlink-with-whiteout (ops/s)" ops "$(top ul-unlink)" "$(top ov-unlink)"
row "rmdir-with-whiteout (ops/s)" ops "$(top ul-rmdir)" "$(top ov-rmdir)"
row "mkdir-over-whiteout (ops/s)" ops "$(top ul-mkdir)" "$(top ov-mkdir)"
row "rename-with-whiteout (ops/s)" ops "$(top ul-rename)" "$(top ov-rename)"
printf '%-28s %12s\n' "raw ext4 recipe 1 (ops/s)" "$(top raw)"
printf '%-28s %12s %12s\n' "rmdir-wh / raw floor (time)" \
	$(echo "$(top raw) $(top ul-rmdir) $(top ov-rmdir)" |
	  awk '{ printf "%.2f %.2f", $1 / $2, $1 / $3 }')

umount /mnt/ul && umount /mnt/ov || exit 1
# the runs did what they say: a whiteout per unlink and per rename in each
# upper (rmdir's were replaced by mkdir), one per rmdir-raw
for d in ul-upper/wh ov-upper/wh raw; do
	w=$(find $B/$d -type c | wc -l)
	echo "whiteouts in $d: $w"
	[ $w = $((3 * N * 2)) ] || [ $d = raw -a $w = $((3 * N)) ] || exit 1
done
ul_umount_disks || exit 1
rmmod unionlite
