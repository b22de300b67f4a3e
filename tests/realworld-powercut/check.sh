# Boot "check" of realworld-powercut: after the cut, the upper's ext4
# recovers (journal replay) and e2fsck -fn is clean; the union mounts
# over the layers and the upper the cut left (unionlite: work/ empty
# after the mount); in the container, dpkg --audit says what the cut
# left half done (printed, any state: dpkg's promise is that it can
# finish), dpkg --configure -a and the package phase run again bring
# dpkg --audit and dpkg --verify to clean; git fsck --strict is clean
# (git commits with core.fsync=all). The same checks on both unions.
. /tests/lib/common.sh
. /tests/lib/realworld.sh
fs=$(ul_arg fs)
i=$(ul_arg round)
rc=0
ul_mount_disks || exit 1
ul_fsck_disk $UL_EXT4 "the cut" || rc=1
rw_root || exit 1
insmod /lib/modules/unionlite.ko || exit 1
up=$UL_EXT4/p$i-$fs
rw_enter $fs $RW_LOWER $up || { echo "the union does not mount"; exit 1; }
if [ $fs = unionlite ] && [ -n "$(ls -A $up.work/work 2>/dev/null)" ]; then
	echo "work/ not empty after the mount: $(ls -A $up.work/work)"
	rc=1
fi
a=$(rw_in_root 'dpkg --audit' 2>&1 | grep -c '^ [a-z]')
echo "audit: $a packages half done"
rw_in_root 'dpkg --configure -a && dpkg -i /root/debs/jq_*.deb /root/debs/nano_*.deb' \
	>/tmp/recover.log 2>&1 || { echo "dpkg recovery failed"; tail -5 /tmp/recover.log; rc=1; }
v=$(rw_in_root 'dpkg --audit; dpkg --verify' 2>&1)
[ -z "$v" ] || { echo "after the recovery: $v" | head -5; rc=1; }
rw_in_root 'cd /root/repo && git fsck --strict --no-progress' >/tmp/fsck.log 2>&1 ||
	{ echo "git fsck:"; head -5 /tmp/fsck.log; rc=1; }
rw_leave || rc=1
umount $RW_ROOT
ul_umount_disks || rc=1
exit $rc
