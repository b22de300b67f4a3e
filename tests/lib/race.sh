# Sourced by the race-* guest scripts (busybox sh): layers and runs of
# ul-race (tests/helpers/ul-race.c). The lower layer is on the ext2 disk
# (it needs one inode per transition of rename-over-whiteout-dir), the
# upper and work directories on the ext4 disk.
. /tests/lib/common.sh

RACE_LOWER=$UL_EXT2/lower
RACE_UPPER=$UL_EXT4/upper
RACE_WORK=$UL_EXT4/work
RACE_MNT=/mnt/union
RACE_RECIPES="rmdir-mkdir rename unlink-create rename-over-whiteout-dir"
RACE_OBSERVERS=3
RACE_TIMEOUT=600

# race_layers COUNT: mount the disks, fill the lower layer for COUNT
# transitions per recipe, empty upper and work directories
race_layers() {
	ul_mount_disks || return 1
	mkdir -p $RACE_LOWER $RACE_UPPER $RACE_WORK $RACE_MNT || return 1
	ul-race --prepare --lower $RACE_LOWER --count "$1"
}

# race_mount TYPE: the union of the layers at $RACE_MNT (overlay, unionlite)
race_mount() {
	mount -t "$1" -o "lowerdir=$RACE_LOWER,upperdir=$RACE_UPPER,workdir=$RACE_WORK" \
		none $RACE_MNT
}

# race_run RECIPE COUNT [ARGS...]: ul-race on the layers (at most
# $RACE_TIMEOUT seconds per recipe); its statistics
# (standard error: rates, sample counts) go to the console log, where the
# golden file does not see them
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
