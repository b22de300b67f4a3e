# Sourced by the race-* guest scripts (busybox sh): layers and runs of
# ul-race (tests/helpers/ul-race.c) on two processors (CPUS=2 in each
# test.conf; ul_need_cpus prints "cpus: 2" and fails otherwise): the
# writer on CPU 0, two observers on CPU 1 and two beside the writer (at
# nice 19). The lower layer is on the ext2 disk (it needs one inode per
# transition of rename-over-whiteout-dir), the upper and work
# directories on the ext4 disk.
. /tests/lib/common.sh

RACE_LOWER=$UL_EXT2/lower
RACE_UPPER=$UL_EXT4/upper
RACE_WORK=$UL_EXT4/work
RACE_MNT=/mnt/union
RACE_RECIPES="rmdir-mkdir rename unlink-create rename-over-whiteout-dir
rename-whiteout rename-over-whiteout-dir-p-lower rename-dir metacopy"
RACE_OBSERVERS=4
RACE_TIMEOUT=600

# race_layers COUNT: mount the disks, fill the lower layer for COUNT
# transitions per recipe, empty upper and work directories
race_layers() {
	ul_mount_disks || return 1
	mkdir -p $RACE_LOWER $RACE_UPPER $RACE_WORK $RACE_MNT || return 1
	ul-race --prepare --lower $RACE_LOWER --count "$1"
}

# race_mount TYPE RECIPE: the union of the layers at $RACE_MNT (overlay,
# unionlite), with redirect_dir=on (rename-dir moves lower directories:
# recipe 6), and metacopy=on for the recipe metacopy
race_mount() {
	local o=redirect_dir=on
	[ "$2" = metacopy ] && o=$o,metacopy=on
	mount -t "$1" -o "lowerdir=$RACE_LOWER,upperdir=$RACE_UPPER,workdir=$RACE_WORK,$o" \
		none $RACE_MNT
}

# race_run RECIPE COUNT [ARGS...]: ul-race on the layers (at most
# $RACE_TIMEOUT seconds per recipe); its statistics
# (standard error: rates, sample counts, looks that overlapped a
# transition) go to the console log, where the golden file does not see
# them
race_run() {
	local r=$1 n=$2
	shift 2
	ul-race --upper $RACE_UPPER --lower $RACE_LOWER --recipe "$r" \
		--count "$n" --observers $RACE_OBSERVERS --timeout $RACE_TIMEOUT "$@" 2>/dev/console
}

# race_count BASE DEBUG: the count for this kernel variant
race_count() {
	if [ "$UL_VARIANT" = debug ]; then
		echo "$2"
	else
		echo "$1"
	fi
}

# race_atomic FS COUNT [PARAM...]: COUNT transitions of every recipe
# through a union of type FS (overlay, or unionlite loaded with the module
# parameters PARAM...); one line per recipe, each must find no violation,
# and looks on the other CPU must have overlapped transitions
# (--need-overlap)
race_atomic() {
	local fs=$1 n=$2 rc=0 r
	shift 2
	ul_need_cpus 2 || return 1
	if [ "$fs" = unionlite ]; then
		ul_insmod "$@" || return 1
	fi
	race_layers "$n" || return 1
	for r in $RACE_RECIPES; do
		race_mount "$fs" $r || return 1
		race_run $r "$n" --union $RACE_MNT --need-overlap || rc=1
		umount $RACE_MNT || rc=1
	done
	ul_umount_disks || rc=1
	if [ "$fs" = unionlite ]; then
		rmmod unionlite || rc=1
	fi
	return $rc
}

# race_caught BROKEN COUNT: a broken variant must be caught on every
# recipe within COUNT transitions (ul-race stops at the first violation).
# BROKEN: "upper" (ul-race --naive: the steps done by hand on the upper
# layer) or "unionlite" (the module's test parameter naive=1).
race_caught() {
	local broken=$1 n=$2 rc=0 r st
	ul_need_cpus 2 || return 1
	if [ "$broken" = unionlite ]; then
		ul_insmod naive=1 || return 1
	fi
	race_layers "$n" || return 1
	for r in $RACE_RECIPES; do
		if [ "$broken" = unionlite ]; then
			race_mount unionlite $r || return 1
			race_run $r "$n" --union $RACE_MNT --until-caught >/tmp/$r.out
		else
			race_run $r "$n" --naive --until-caught >/tmp/$r.out
		fi
		st=$?
		cat /tmp/$r.out >/dev/console
		if [ $st = 1 ] && grep -q "^$r: [0-9]* transitions, [0-9]* violations (" /tmp/$r.out; then
			echo "$r: non-atomic transitions caught"
		else
			echo "$r: NOT caught in $n transitions (exit $st)"
			cat /tmp/$r.out
			rc=1
		fi
		if [ "$broken" = unionlite ]; then
			umount $RACE_MNT || rc=1
		fi
	done
	ul_umount_disks || rc=1
	if [ "$broken" = unionlite ]; then
		rmmod unionlite || rc=1
	fi
	return $rc
}
