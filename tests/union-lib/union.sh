# Sourced by the union-* guest scripts (busybox sh): layers, mounts and
# filesystem-independent listings of the union and of the upper layer.
. /tests/lib/common.sh

UL_MNT=/mnt/union

# ul_load [PARAMS...]: load the module (ul_insmod)
ul_load() {
	ul_insmod "$@"
}

# ul_start [PARAMS...]: the module loaded with PARAMS, the disks mounted
ul_start() {
	ul_load "$@" && ul_mount_disks
}

# ul_fstype BASE: the filesystem type mounted at BASE
ul_fstype() {
	awk -v m="$1" '$2 == m { print $3 }' /proc/mounts
}

# ul_layers BASE: fresh, empty BASE/lower, BASE/upper and BASE/work
ul_layers() {
	rm -rf "$1/lower" "$1/upper" "$1/work"
	mkdir -p "$1/lower" "$1/upper" "$1/work" $UL_MNT
}

# ul_fresh BASE: a heading naming BASE's filesystem, then fresh layers
ul_fresh() {
	echo "### upper on $(ul_fstype "$1")"
	ul_layers "$1"
}

# ul_mount BASE: the union of BASE/lower and BASE/upper at $UL_MNT, with
# the options in $UL_OPTS added when set
ul_mount() {
	mount -t unionlite -o "lowerdir=$1/lower,upperdir=$1/upper,workdir=$1/work${UL_OPTS:+,$UL_OPTS}" none $UL_MNT
}

ul_umount() {
	umount $UL_MNT
}

# ul_try_mount BASE OPTIONS: mount the union with OPTIONS, expecting a
# refusal; print the options (BASE shown as B, $UL_EXT2 as E2), the
# errno, the kernel message and what is left in BASE/work. Returns 1 if
# the mount succeeded (it is then unmounted again).
ul_try_mount() {
	local rc=0
	echo "\$ mount -o $2" | sed "s|$1|B|g; s|$UL_EXT2|E2|g"
	dmesg -c >/dev/null
	if mount -t unionlite -o "$2" none $UL_MNT 2>/tmp/err; then
		echo "mounted (unexpected)"
		umount $UL_MNT
		rc=1
	else
		sed 's/.*failed: //' /tmp/err
	fi
	dmesg -c | sed -n 's/^\[[^]]*\] //; /^unionlite/p'
	echo "workdir: [$(ls -A "$1/work" | tr '\n' ' ')]"
	return $rc
}

# ul_tree DIR: every object below DIR, sorted by path, one line each
# without inode numbers or times (tests/helpers/ul-tree.c: one process,
# where a shell loop forked several per object)
ul_tree() {
	ul-tree "$1"
}

# ul_work BASE: what is left in the work dir
ul_work() {
	echo "work: [$(ls -A "$1/work/work" 2>/dev/null | tr '\n' ' ')]"
}

# ul_trace_lines: the trace lines logged since the last call
ul_trace_lines() {
	dmesg -c | sed -n 's/^\[[^]]*\] //; /^unionlite: /p'
}

# ul_finish RC: unmount the disks and unload the module, then exit with
# RC (1 when either of these fails)
ul_finish() {
	local rc=$1
	ul_umount_disks || rc=1
	rmmod unionlite || rc=1
	exit $rc
}

# ul_mask_origin: getfattr -d lines with the file handle of
# trusted.overlay.origin cut after its first bytes (version 0, magic 0xfb,
# length, flags: "0sAPsdAA" for a 2-word ext2/ext4 handle), since the rest
# (UUID, inode, generation) differs from run to run
ul_mask_origin() {
	sed 's/\(trusted\.overlay\.origin=0s......\)[^ ]*/\1.../'
}

# ul_mount_fs FS BASE [OPTIONS]: mount FS (unionlite or overlay) over
# BASE/lower, BASE/upper and BASE/work at $UL_MNT, OPTIONS appended
ul_mount_fs() {
	mount -t "$1" -o "lowerdir=$2/lower,upperdir=$2/upper,workdir=$2/work${3:+,$3}" none $UL_MNT
}

# ul_against_overlay FN [ARGS...]: the same scenario on both unions:
# "FN unionlite ARGS" and "FN overlay ARGS", each printing a transcript
# that must not name its filesystem. Prints unionlite's; when
# overlayfs's differs, also the difference, and returns 1. Lines that
# match the extended regular expression $UL_INTENDED (a row of the
# intended differences in docs/overlayfs.md) are left out of the
# comparison on both sides; where those lines differ, they are printed
# after the transcript, "intended: unionlite: LINE" for unionlite's and
# "intended: overlayfs: LINE" for overlayfs's.
ul_against_overlay() {
	local fn=$1 f
	shift
	"$fn" unionlite "$@" >/tmp/against.unionlite 2>&1
	"$fn" overlay "$@" >/tmp/against.overlay 2>&1
	cat /tmp/against.unionlite
	for f in unionlite overlay; do
		if [ -n "$UL_INTENDED" ]; then
			grep -v -E "$UL_INTENDED" /tmp/against.$f >/tmp/against.$f.cmp
			grep -E "$UL_INTENDED" /tmp/against.$f >/tmp/against.$f.int
		else
			cp /tmp/against.$f /tmp/against.$f.cmp
			: >/tmp/against.$f.int
		fi
	done
	diff -U0 /tmp/against.unionlite.int /tmp/against.overlay.int |
		awk 'NR <= 2 || /^@@/ { next }
			/^-/ { print "intended: unionlite: " substr($0, 2) }
			/^\+/ { print "intended: overlayfs: " substr($0, 2) }'
	cmp -s /tmp/against.unionlite.cmp /tmp/against.overlay.cmp && return 0
	echo "overlayfs differs (- unionlite, + overlayfs):"
	diff -U0 /tmp/against.unionlite.cmp /tmp/against.overlay.cmp | sed -n 's/^[-+][^-+]/	&/p'
	return 1
}

# ul_errno CMD...: run CMD, print "ok" or the error text busybox gives
# (the part after the last ": ")
ul_errno() {
	if "$@" >/tmp/errno.out 2>&1; then
		echo ok
	else
		sed -n '$s/.*: //p' /tmp/errno.out
	fi
}

# ul_umount_if: unmount $UL_MNT if something is mounted there
ul_umount_if() {
	if grep -q " $UL_MNT " /proc/mounts; then
		umount $UL_MNT
	fi
}
