# Sourced by the diff-* guest scripts (busybox sh): one seed of the
# differential tester (tests/helpers/ul-diff.c), overlayfs at /mnt/a,
# unionlite at /mnt/b, over one lower tree, both uppers on the ext4 disk.
. /tests/lib/common.sh

# ul_diff_mount FS UPPER WORK MNT: FS over the seed's lower tree $L
ul_diff_mount() {
	mkdir -p "$3"
	mount -t $1 -o lowerdir=$L,upperdir=$2,workdir=$3 none $4
}

# ul_diff_seed SEED OPS: run SEED's OPS operations on both unions; then
# the two uppers, compared raw (with their trusted.overlay.* xattrs),
# must hold the same objects; then each upper is read by the other
# filesystem: overlayfs over both uppers, unionlite over both, and the
# first pair again, each with fresh work dirs, must show one view.
# Prints the run's line, then one line per mismatching comparison; the
# replay lines go to /tmp/replay.SEED. When the run or the uppers
# differ, the minimizer prints the shortest list of the run's
# operations that still diverges, as a script in the form of
# tests/diff-cases. Returns 1 on any mismatch.
ul_diff_seed() {
	local s=$1 ops=$2 d=$UL_EXT4 rc=0 ua ub
	L=$d/l$s ua=$d/ua$s ub=$d/ub$s
	mkdir -p $L $ua $ub /mnt/a /mnt/b
	ul-diff lower $L $s || return 1
	ul_diff_mount overlay $ua $d/wa$s /mnt/a || return 1
	ul_diff_mount unionlite $ub $d/wb$s /mnt/b || return 1
	ul-diff run /mnt/a /mnt/b $s $ops 2>/tmp/replay.$s || rc=1
	grep '^# first' /tmp/replay.$s
	umount /mnt/a /mnt/b || return 1
	ul_diff_cmp -u $ua $ub "the uppers" $L || rc=1
	[ $rc = 0 ] || ul-diff min $d/min$s $s /tmp/replay.$s
	for fs in overlay unionlite; do
		ul_diff_mount $fs $ua $d/xa$fs$s /mnt/a || return 1
		ul_diff_mount $fs $ub $d/xb$fs$s /mnt/b || return 1
		ul_diff_cmp /mnt/a /mnt/b "$fs over both uppers" || rc=1
		umount /mnt/a /mnt/b || return 1
	done
	ul_diff_mount overlay $ua $d/ya$s /mnt/a || return 1
	ul_diff_mount unionlite $ub $d/yb$s /mnt/b || return 1
	ul_diff_cmp /mnt/a /mnt/b "remounted" || rc=1
	umount /mnt/a /mnt/b || return 1
	return $rc
}

# ul_diff_cmp [-u] A B LABEL: ul-diff cmp, silent when nothing differs
ul_diff_cmp() {
	ul-diff cmp "$@" >/tmp/cmp.out && return 0
	cat /tmp/cmp.out
	return 1
}

# ul_diff_clean SEED: remove the seed's layers and work dirs
ul_diff_clean() {
	rm -rf $UL_EXT4/*$1
}

# ul_diff_case SEED: the operations on standard input (ul-diff op lines)
# on overlayfs (/mnt/a) and unionlite (/mnt/b) over SEED's lower tree,
# each with its results, then the trees compared, then the two uppers
# (unmounted, raw). The module must be loaded and the disks mounted. The
# scripts ul-diff min prints call it.
ul_diff_case() {
	local d=$UL_EXT4/case rc=0
	rm -rf $d
	L=$d/l
	mkdir -p $L $d/ua $d/ub /mnt/a /mnt/b
	ul-diff lower $L $1 || return 1
	ul_diff_mount overlay $d/ua $d/wa /mnt/a || return 1
	ul_diff_mount unionlite $d/ub $d/wb /mnt/b || return 1
	ul-diff replay /mnt/a /mnt/b - || rc=1
	umount /mnt/a /mnt/b || rc=1
	ul-diff cmp -u $d/ua $d/ub "the uppers" $L || rc=1
	rm -rf $d
	return $rc
}
