# Copy-up racing the operations that read where an object is: the
# copy-up of a lower-only file, slowed down with step pauses (or held at
# one point with tests/kmod/ul_test_probe.ko), and beside it:
#  1. rm of the file before the copy is in place: rm succeeds, and the
#     copy-up, finding the name whited out, fails the open with ENOENT
#     (the file is gone; it must not come back);
#  2. rm of the file after the copy is in place but before the copy-up
#     has finished: rm must see the copy, and the open succeeds on the
#     file it removed. A union that finds the copy on disk but not in its
#     inode answers ESTALE, which the VFS retries once (the probe counts
#     the calls of unionlite's unlink: one, not two), and which reaches
#     rm when the retry loses the same race;
#  3. a hard link made while the copy-up (of an open for write, which
#     holds no union lock) is held after the copy is in place: both names
#     must be one union inode, so that a chmod through one name is what a
#     permission check through the other sees (uid 1000 must not read
#     through the old name a file made 600);
#  4. an open with O_TRUNC (the copy-up of the parent first, then the
#     file without its data) while the file is renamed into another
#     directory and its old directory removed: the open ends on the
#     moved file, which it empties. (The parent is held by a reference
#     across the two copy-ups; the window in which an unreferenced one
#     could be freed holds no sleep, so only a preemption there, by
#     chance, would open it: this case shows the outcome.)
#  5. on overlayfs, rm of the file while the copy-up of an open for
#     write copies its data (a lower file of 128 MiB, no pauses): the
#     copy-up holds the overlay inode's lock (ovl_copy_up_start()),
#     which the unlink takes too (ovl_nlink_start()), so rm waits for
#     the copy-up, the open succeeds, and rm then removes the copy;
#     unionlite's rm goes first and its open fails with ENOENT (case 1;
#     an intended difference: docs/overlayfs.md).
#     From /proc/vmstat's nr_dirtied (the copy dirties every page of
#     it): rm starts once 1 MiB is copied, and the test fails unless rm
#     started before the copy was whole; then whether rm returned after
#     it was, but for its last MiB (each CPU's share of the counter
#     reaches /proc/vmstat in batches).
# In cases 1 to 4 the steps of each copy-up are traced, and the race is
# started from the trace: it is the same every run. Each case prints
# what both sides got and what the union and the upper layer hold after
# it.
. /tests/union-lib/union.sh
ul_need_cpus 2 || exit 1
ul_start trace=1 step_pause_ms=0 || exit 1
B=$UL_EXT4
P=/sys/module/unionlite/parameters
rc=0

# wait_trace PATTERN: until a trace line matches PATTERN (10 s at most)
wait_trace() {
	local i=0
	while ! dmesg | grep -q "$1"; do
		i=$((i + 1))
		[ $i -gt 500 ] && { echo "no trace line '$1'"; return 1; }
		usleep 20000
	done
}

# layers: fresh layers, a lower file f of 64 KiB, the union mounted
layers() {
	ul_layers $B
	mkdir -p $B/lower/d1 $B/lower/d2
	dd if=/dev/zero of=$B/lower/f bs=64k count=1 2>/dev/null
	echo moving >$B/lower/d1/m
	ul_mount $B || exit 1
	dmesg -c >/dev/null
}

# after: the union's f and the upper layer
after() {
	echo "union f: $(ul-union-sys stat $UL_MNT/f)"
	ul_umount
	ul_tree $B/upper | grep -v '^\.:'
}

# rm_during_copyup PATTERN: the copy-up of an open for write, each step
# paused; rm of the file once a trace line matches PATTERN
rm_during_copyup() {
	echo 400 >$P/step_pause_ms
	ul-union-sys open $UL_MNT/f w >/tmp/open.out &
	wait_trace "$1" || rc=1
	echo "rm: $(ul-union-sys unlink $UL_MNT/f)"
	wait
	echo 0 >$P/step_pause_ms
	echo "open: $(cat /tmp/open.out)"
}

echo "## 1. rm before the copy is in place"
layers
rm_during_copyup 'copydata work/'
after

echo "## 2. rm after the copy is in place"
layers
insmod /lib/modules/test/ul_test_probe.ko syms=ul_unlink || exit 1
rm_during_copyup 'link work/(tmpfile) upper/f = 0'
echo "calls of unlink: $(cat /sys/module/ul_test_probe/parameters/hits | cut -d, -f1)"
rmmod ul_test_probe
after

echo "## 3. link while the copy-up is held after the copy is in place"
layers
chmod 644 $B/lower/f
insmod /lib/modules/test/ul_test_probe.ko hold=ul_rehash_inode hold_ms=1500 || exit 1
ul-union-sys open $UL_MNT/f w >/tmp/open.out &
wait_trace 'ul_test_probe: holding' || rc=1
echo "link f g: $(ul-union-sys link $UL_MNT/f $UL_MNT/g)"
wait
rmmod ul_test_probe
echo "open f: $(cat /tmp/open.out)"
echo "chmod g 600: $(ul-union-sys chmod $UL_MNT/g 600)"
echo "uid 1000 reads f: $(ul-union-sys as 1000 1000 cat $UL_MNT/f | cut -c1-20)"
echo "f and g: $(stat -c '%i %h %a' $UL_MNT/f $UL_MNT/g | sort -u | wc -l) inode(s), $(stat -c '%a' $UL_MNT/f $UL_MNT/g | tr '\n' ' ')"
after

echo "## 4. O_TRUNC open while the file moves and its directory goes"
layers
echo 400 >$P/step_pause_ms
ul-union-sys open $UL_MNT/d1/m wt >/tmp/open.out &
wait_trace 'mkdir work/' || rc=1
echo "mv d1/m d2/m: $(ul-union-sys rename $UL_MNT/d1/m $UL_MNT/d2/m)"
echo "rmdir d1: $(ul-union-sys rmdir $UL_MNT/d1)"
echo 2 >/proc/sys/vm/drop_caches
wait
echo 0 >$P/step_pause_ms
echo "open: $(cat /tmp/open.out)"
echo "d2/m: '$(cat $UL_MNT/d2/m)'"
after

# dirtied: N = the pages dirtied since boot (no fork)
dirtied() {
	local k v
	while read k v; do
		[ "$k" = nr_dirtied ] && break
	done </proc/vmstat
	N=$v
}

echo "## 5. overlayfs: rm while the copy-up copies the data"
ul_layers $B
dd if=/dev/zero of=$B/lower/f bs=1M count=128 2>/dev/null
sync
echo 3 >/proc/sys/vm/drop_caches
ul_mount_fs overlay $B || exit 1
dirtied
d=$((N + 256)) all=$((N + 32768)) most=$((N + 32768 - 256))
ul-union-sys open $UL_MNT/f w >/tmp/open.out &
pid=$!
dirtied
while [ $N -lt $d ] && kill -0 $pid 2>/dev/null; do
	dirtied
done
s=$N
echo "rm: $(ul-union-sys unlink $UL_MNT/f)"
dirtied
e=$N
wait
if [ $s -ge $d ] && [ $s -lt $all ]; then
	echo "rm started during the data copy"
else
	echo "rm started after the data copy: no race"
	rc=1
fi
if [ $e -ge $most ]; then
	echo "rm returned after the data copy"
else
	echo "rm returned during the data copy"
fi
echo "open: $(cat /tmp/open.out)"
after
ul_finish $rc
