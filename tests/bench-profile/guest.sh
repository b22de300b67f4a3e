# Profiles (make bench; not a pass/fail test): where the time of two
# operations goes on unionlite and on the kernel's overlayfs, over the
# same lower layer on ext4, each union with its own upper and work
# directory (the layout of bench-union). ul-prof (tests/helpers/ul-prof.c)
# samples the whole guest while the operation runs and prints, after the
# operation's own line (ul-bench's rate; for tar, objects and MiB a
# second from ul-prof's time), the symbols with the most samples and
# their share of the samples not idle, by the samples in the symbol
# itself and then by those with the symbol anywhere in their kernel call
# chain (-g), each table followed by every function of the union.
#
# 1. readdir of a directory of 100,000 lower files, $P passes, warm
#    caches (one untimed pass first); then $P / 2 passes on each union
#    in turns (ul-bench ab) in one profile, where the samples below
#    ul_iterate and below ovl_iterate are each union's (run to run, the
#    host's speed changes the rate of the same code by up to 25%).
# 2. readdir of a merged directory of 100,000 lower and 1,000 upper
#    names, each read after a file was made and removed in it (the
#    list built anew), $P / 2 passes on each union in turns.
# 3. "tar -cf /dev/null" of a lower tree of 24,000 files of 4 to 16 KiB
#    in 60 x 20 directories (270 MiB): once from cold caches (sync and
#    drop_caches first), then $T times warm. busybox tar sends each file
#    to /dev/null with sendfile(): its data is read through the page
#    cache (splice), not copied to user space.
# 4. chmod -R g+w of a tenth of that tree on each union mounted again
#    with metacopy=on (a metadata-only copy-up of every file), from
#    cold caches.
#
# The sampling clock is the tick (the test kernels have no
# high-resolution timers): about 250 samples a second; a sample of code
# that runs with interrupts off lands where they are turned on again,
# and under TCG one lands at the start of a translated block (after a
# branch), not inside one: a small function's own share is rough, the
# share below a function (incl.) is not.
# Each profile's samples, one line each with the call chain, are left in
# /prof/*.raw on the ext4 image (ul-prof -o; debugfs -R "dump ...").
. /tests/union-lib/union.sh
P=60
T=6
ul_start || exit 1
. /tests/lib/bench.sh
B=$UL_EXT4
mkdir -p $B/lower/d100k $B/lower/m100k $B/ul-upper/m100k $B/ul-work \
	$B/ov-upper/m100k $B/ov-work $B/prof /tmp/prof /mnt/ul /mnt/ov || exit 1
ul-bench mkfiles $B/lower/d100k 100000 || exit 1
ul-bench mkfiles $B/lower/m100k 100000 || exit 1
ul-bench mkfiles $B/ul-upper/m100k 1000 u || exit 1
ul-bench mkfiles $B/ov-upper/m100k 1000 u || exit 1
bench_tree $B/lower/tree 60
sync
mount -t unionlite -o lowerdir=$B/lower,upperdir=$B/ul-upper,workdir=$B/ul-work \
	none /mnt/ul || exit 1
mount -t overlay -o lowerdir=$B/lower,upperdir=$B/ov-upper,workdir=$B/ov-work \
	none /mnt/ov || exit 1

# prof RAW M WHAT CMD...: "### WHAT", the profile of CMD with union M's
# functions listed, its samples to /tmp/prof/RAW.raw; for tar (RAW
# tar-*-N: N runs) the rates from ul-prof's time
prof() {
	local raw=$1 m=$2 what=$3 name=overlayfs group='[overlay]' n
	shift 3
	[ $m = ul ] && name=unionlite group='[unionlite]'
	[ $m = ab ] && name="both unions" group='[unionlite],[overlay]'
	echo
	echo "### $name, $what: ul-prof -g -n 25 $*"
	sync
	ul-prof -g -n 25 -m "$group" -o /tmp/prof/$raw.raw "$@" >/tmp/prof.out ||
		{ cat /tmp/prof.out; exit 1; }
	case $raw in
	tar-*)
		n=${raw##*-}
		awk -v n=$((nobj * n)) -v kib=$((kib * n)) '/^ul-prof: / {
			s = $(NF - 6)
			printf "tar: %d objects %.2f s %.1f objects/s %.2f MiB/s\n",
				n, s, n / s, kib / 1024 / s }' /tmp/prof.out
		;;
	esac
	cat /tmp/prof.out
}

echo "## 1. readdir of 100,000 lower files, $P passes, warm"
for m in ul ov; do
	ul-bench readdir /mnt/$m/d100k >/dev/null || exit 1
done
for m in ul ov; do
	prof readdir-$m $m warm ul-bench readdir /mnt/$m/d100k $P
done
# the same moments of the host for both: their shares of one profile
# (below ul_iterate, below ovl_iterate) compare even when the host's
# speed changes from one profile to the next
prof readdir-ab ab "warm, interleaved (unionlite's line first)" \
	ul-bench ab readdir /mnt/ul/d100k /mnt/ov/d100k $((P / 2))

echo
echo "## 2. readdir of a merged directory of 100,000 + 1,000 names, after a change"
for m in ul ov; do
	ul-bench readdir /mnt/$m/m100k >/dev/null || exit 1
done
prof readdirc-ab ab "interleaved (unionlite's line first)" \
	ul-bench ab readdir-changed /mnt/ul/m100k /mnt/ov/m100k $((P / 2))

nobj=$(find $B/lower/tree | wc -l)
kib=$(du -sk $B/lower/tree | cut -f1)
echo
echo "## 3. tar -cf /dev/null of $nobj objects ($kib KiB on ext4)"
for m in ul ov; do
	sync
	echo 3 >/proc/sys/vm/drop_caches
	prof tar-cold-$m-1 $m cold tar -cf /dev/null -C /mnt/$m tree
	prof tar-warm-$m-$T $m "warm, $T times" sh -c \
		"for i in \$(seq $T); do tar -cf /dev/null -C /mnt/$m tree || exit 1; done"
done

echo
echo "## 4. chmod -R g+w of $((nobj / 6)) lower objects (tree/t0 .. t9), metacopy=on, cold"
for m in ul ov; do
	fs=unionlite
	[ $m = ov ] && fs=overlay
	mkdir -p $B/$m-m-upper $B/$m-m-work /mnt/$m-m || exit 1
	mount -t $fs -o lowerdir=$B/lower,upperdir=$B/$m-m-upper,workdir=$B/$m-m-work,metacopy=on \
		none /mnt/$m-m || exit 1
	sync
	echo 3 >/proc/sys/vm/drop_caches
	prof chmod-$m $m "cold, metacopy=on" sh -c "chmod -R g+w /mnt/$m-m/tree/t[0-9]"
	umount /mnt/$m-m || exit 1
done

cp /tmp/prof/*.raw $B/prof/ || exit 1
umount /mnt/ul && umount /mnt/ov || exit 1
ul_umount_disks || exit 1
rmmod unionlite
