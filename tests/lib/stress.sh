# Sourced by the stress-* guest scripts (busybox sh): random namespace
# operations from several processes on one unionlite mount (ul-stress,
# tests/helpers/ul-stress.c), on two processors (CPUS=2 in each
# test.conf; ul_need_cpus prints "cpus: 2" and fails otherwise). The lower on the ext2 disk, upper and work
# on the ext4 disk.
. /tests/lib/common.sh

# stress_run SECONDS [PARAM...]: the run (the module loaded with the
# parameters PARAM...; with UL_STRESS_FAULT="FUNC N", the Nth call of
# that fault-injection point fails: ul_fault), then umount (work/ must
# be empty after it) and
# module unload
stress_run() {
	local rc=0 l=$UL_EXT2/lower u=$UL_EXT4/upper w=$UL_EXT4/work s=$1
	shift
	ul_need_cpus 2 || return 1
	ul_mount_disks || return 1
	mkdir -p $l $u $w /mnt/union || return 1
	ul-stress lower $l || return 1
	ul_insmod "$@" || return 1
	if [ -n "$UL_STRESS_FAULT" ]; then
		# shellcheck disable=SC2086
		ul_fault $UL_STRESS_FAULT || return 1
	fi
	mount -t unionlite -o "lowerdir=$l,upperdir=$u,workdir=$w" none /mnt/union || return 1
	# per-operation counts (they vary) go to the console log
	ul-stress run --union /mnt/union --procs 4 --seconds "$s" 2>/dev/console || rc=1
	umount /mnt/union || rc=1
	if [ -z "$(ls -A $w/work)" ]; then
		echo "work/ after umount: empty"
	else
		echo "work/ after umount: $(ls -A $w/work | tr '\n' ' ')"
		rc=1
	fi
	rmmod unionlite || rc=1
	ul_umount_disks || rc=1
	return $rc
}
