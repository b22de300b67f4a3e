# What inode numbers tell tools through a union whose layers are two
# fresh ext4 filesystems (both hand out the same inode numbers): every
# object's (st_dev, st_ino) is its own, readdir's d_ino is st_ino, and
# st_ino stays the same across copy-up (chmod, append, truncate, rename
# and link of copied-up files) and a remount. ul-identity counts each
# (tests/helpers/ul-identity.c). Then diff -r, du -s and find -samefile
# through the union, which decide by (st_dev, st_ino). overlayfs over
# the same kind of layers is the reference: with xino=on it must also
# count 0 everywhere; its xino=off counts are shown as zero or not.
# Last, with an upper and without one, the highest bit of a lower file's
# st_ino on each: where each puts the filesystem's fsid (an intended
# difference: docs/overlayfs.md).
. /tests/lib/common.sh
mkdir -p /mnt/upperfs /mnt/lowerfs /mnt/u
mount -t ext4 /dev/vda /mnt/upperfs || exit 1
mount -t ext4 -o ro /dev/vdb /mnt/lowerfs 2>/dev/null || {
	mount -t ext4 /dev/vdb /mnt/lowerfs || exit 1
}
rc=0
# the shared dirs: d00..d19; d10..d19 on the debug kernel (KASAN makes
# the walks about five times slower)
DIRS=$(seq -w 0 19)
[ "$UL_VARIANT" = debug ] && DIRS=$(seq 10 19)

# fill LAYERDIR TAG: the same tree in each layer: 40 dirs d00..d39 of
# 50 files (content TAG d f), a hard link of each tenth file, a symlink
# and a fifo per dir; the lower also has lower-only dirs l10..l19, the
# upper upper-only dirs u10..u19
fill() {
	local top=$1 tag=$2 d f
	for d in $DIRS; do
		mkdir -p $top/d$d
		for f in $(seq -w 0 49); do
			echo "$tag d$d f$f" >$top/d$d/f$f
		done
		for f in 0 1 2 3 4; do
			ln $top/d$d/f${f}0 $top/d$d/h${f}0
		done
		ln -s f00 $top/d$d/s
		mkfifo $top/d$d/p
	done
	for d in $(seq 10 19); do
		mkdir -p $top/${3}$d
		for f in $(seq -w 0 19); do
			echo "$tag $3$d f$f" >$top/${3}$d/f$f
		done
	done
}

# layers: fresh lower and upper trees on the two filesystems
layers() {
	umount /mnt/lowerfs
	mount -t ext4 /dev/vdb /mnt/lowerfs || return 1
	rm -rf /mnt/lowerfs/l /mnt/upperfs/u /mnt/upperfs/w
	mkdir -p /mnt/lowerfs/l /mnt/upperfs/u
	fill /mnt/lowerfs/l lower l
	fill /mnt/upperfs/u upper u
	mkdir /mnt/upperfs/w
	# merged dirs: f00..f09 only in lower, the other files upper over lower
	for d in $DIRS; do
		rm /mnt/upperfs/u/d$d/f0*
	done
	umount /mnt/lowerfs
	mount -t ext4 -o ro /dev/vdb /mnt/lowerfs
}

# mnt FS [OPTS]
mnt() {
	mount -t "$1" -o "lowerdir=/mnt/lowerfs/l,upperdir=/mnt/upperfs/u,workdir=/mnt/upperfs/w${2:+,$2}" none /mnt/u
}

# scan NAME: ul-identity's counts, its listing in /tmp/NAME sorted by path
scan() {
	ul-identity scan /mnt/u /mnt/upperfs/u /mnt/lowerfs/l /tmp/$1.raw || return 1
	LC_ALL=C sort -k4 /tmp/$1.raw >/tmp/$1
}

# copyups: copy up through the union: chmod, append, truncate, and
# rename and link copied-up files into other directories
copyups() {
	local d f
	for d in $DIRS; do
		chmod 600 /mnt/u/d$d/f01 /mnt/u/d$d/f02
		echo more >>/mnt/u/d$d/f03
		: >/mnt/u/d$d/f05
		chmod 700 /mnt/u/d$d
	done
	for d in $(seq 10 19); do
		chmod 600 /mnt/u/l$d/f00
		mv /mnt/u/d$d/f01 /mnt/u/u$d/moved
		ln /mnt/u/d$d/f02 /mnt/u/u$d/linked
		mv /mnt/u/l$d/f01 /mnt/u/l$d/renamed
	done
}

# run FS [OPTS]: the whole sequence on one kind of union; with a label
# for overlayfs's counts
run() {
	local fs=$1 opts=$2 n
	layers || return 1
	mnt "$fs" "$opts" || return 1
	echo "## $fs${opts:+ $opts}: fresh"
	scan a | filter "$fs$opts"
	[ "$fs$opts" != overlay ] && tools
	copyups
	echo "## after copy-ups"
	scan b | filter "$fs$opts"
	ul-identity compare /tmp/a /tmp/b | filter "$fs$opts"
	umount /mnt/u
	mnt "$fs" "$opts" || return 1
	echo "## after a remount"
	scan c | filter "$fs$opts"
	ul-identity compare /tmp/b /tmp/c | filter "$fs$opts"
}

# filter LABEL: unionlite's and overlayfs xino=on's counts as they are;
# overlayfs xino=off's as 0 or "some"
filter() {
	if [ "$1" = overlay ]; then
		sed -E 's/ ([1-9][0-9]*)( of|;|$)/ some\2/g; s/objects some/objects N/'
	else
		cat
	fi
}

# tools: diff -r, du -s and find -samefile through the fresh union, which
# decide by (st_dev, st_ino): lower-only l10 and upper-only u10 hold
# different files at the same names f00..f19, made in the same order on
# two fresh filesystems; d10/h10 is a hard link of d10/f10 in upper
tools() {
	local a b
	echo "diff -r l10 u10: $(diff -r /mnt/u/l10 /mnt/u/u10 | grep -c '^--- /mnt/u/l10/f') of 20 files differ"
	echo "find -samefile l10/f07: $(find /mnt/u -samefile /mnt/u/l10/f07 | LC_ALL=C sort | tr '\n' ' ')"
	echo "find -samefile d10/h10: $(find /mnt/u -samefile /mnt/u/d10/h10 | LC_ALL=C sort | tr '\n' ' ')"
	# du counts an inode once
	a=$(du -s /mnt/u/l10 /mnt/u/u10 | awk '{ s += $1 } END { print s }')
	b=$(du -s /mnt/lowerfs/l/l10 /mnt/upperfs/u/u10 | awk '{ s += $1 } END { print s }')
	echo "du -s l10 u10: $([ "$a" = "$b" ] && echo "as the layers" || echo "$a KiB, the layers hold $b")"
	# where the lower filesystem's number goes: unionlite puts it in the
	# top bits, overlayfs xino=on above the 32 bits ext4's numbers take
	# (an intended difference: docs/overlayfs.md)
	echo "st_ino of l10/f07: highest bit $(stat -c %i /mnt/u/l10/f07 |
		awk '{ n = $1; b = -1; while (n >= 1) { n /= 2; b++ } print b }')"
}

# noupper FS [OPTS]: a union of the two filesystems' trees as lower
# layers, without upper: the highest bit of the second one's l10/f07
noupper() {
	mount -t "$1" -o "lowerdir=/mnt/upperfs/u:/mnt/lowerfs/l${2:+,$2}" none /mnt/u || return 1
	echo "## $1${2:+ $2} without upper: st_ino of l10/f07: highest bit $(stat -c %i /mnt/u/l10/f07 |
		awk '{ n = $1; b = -1; while (n >= 1) { n /= 2; b++ } print b }')"
	umount /mnt/u
}

insmod /lib/modules/unionlite.ko || exit 1
run unionlite || rc=1
umount /mnt/u || rc=1
noupper unionlite || rc=1
rmmod unionlite || rc=1
# overlayfs's counts, the reference: on the base kernel only (the debug
# kernel's checkers are for unionlite)
if [ "$UL_VARIANT" != debug ]; then
	run overlay || rc=1
	umount /mnt/u || rc=1
	run overlay xino=on || rc=1
	umount /mnt/u || rc=1
	noupper overlay xino=on || rc=1
fi
umount /mnt/lowerfs /mnt/upperfs || rc=1
exit $rc
