# The first step towards a real client: the Debian 12 root tree of
# qemu-boot/rootfs.sh (vdc, read-only) as the lower layer, the union on
# it as a container's root (/proc and /dev inside), and a few programs
# of the tree run in a chroot, on unionlite and on overlayfs: dpkg's
# view of its database, git, python3, a file written and read back.
. /tests/lib/common.sh
ul_mount_disks || exit 1
mkdir -p /mnt/root /mnt/u
mount -t ext4 -o ro /dev/vdc /mnt/root || exit 1
insmod /lib/modules/unionlite.ko || exit 1
rc=0
for fs in unionlite overlay; do
	echo "## $fs"
	mkdir -p /mnt/ext4/$fs/upper /mnt/ext4/$fs/work
	mount -t $fs -o lowerdir=/mnt/root,upperdir=/mnt/ext4/$fs/upper,workdir=/mnt/ext4/$fs/work \
		none /mnt/u || { rc=1; continue; }
	mount -t proc proc /mnt/u/proc && mount -t devtmpfs dev /mnt/u/dev || rc=1
	chroot /mnt/u /usr/bin/dpkg --audit && echo "dpkg --audit: clean" || rc=1
	chroot /mnt/u /usr/bin/dpkg-query -W -f='${Package}\n' git python3 || rc=1
	chroot /mnt/u /usr/bin/git --version | cut -d' ' -f1-2 || rc=1
	chroot /mnt/u /usr/bin/python3 -c 'import sys; print("python", sys.version_info[0])' || rc=1
	echo hello > /mnt/u/root/hello && chroot /mnt/u /bin/cat /root/hello || rc=1
	umount /mnt/u/dev && umount /mnt/u/proc && umount /mnt/u || rc=1
	find /mnt/ext4/$fs/upper | sort | sed "s|/mnt/ext4/$fs/upper||"
done
umount /mnt/root
ul_umount_disks || rc=1
exit $rc
