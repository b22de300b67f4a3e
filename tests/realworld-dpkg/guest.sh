# A real client, first part: dpkg on the Debian 12 root tree of
# qemu-boot/rootfs.sh (vdc, read-only) as a container's root, on
# unionlite and on overlayfs, each over its own upper: install the
# packages of /root/debs (maintainer scripts, alternatives, ldconfig
# triggers), purge one, install it again; dpkg --audit and --verify must
# be clean. Then the two unions' trees (ul-tree -x: names, types, modes,
# owners, sizes, content hashes, xattrs) must be equal but for the files
# of $VARY: dpkg's and update-alternatives' logs record times, ldconfig's
# aux-cache the inode numbers of the libraries (docs/overlayfs.md: the
# two unions number inodes apart). overlayfs mounted on the upper that
# unionlite left must read unionlite's tree.
. /tests/lib/common.sh
VARY='^var/log/dpkg.log: |^var/log/alternatives.log: |^var/cache/ldconfig/aux-cache: '
ul_mount_disks || exit 1
mkdir -p /mnt/root /mnt/u
mount -t ext4 -o ro /dev/vdc /mnt/root || exit 1
insmod /lib/modules/unionlite.ko || exit 1
rc=0
# in_root CMD: CMD by the tree's own shell in the chroot (never busybox's
# applets), with a clean environment
in_root() {
	chroot /mnt/u /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 /bin/sh -c "$1"
}
for fs in unionlite overlay; do
	echo "## $fs"
	mkdir -p /mnt/ext4/$fs/upper /mnt/ext4/$fs/work
	mount -t $fs -o lowerdir=/mnt/root,upperdir=/mnt/ext4/$fs/upper,workdir=/mnt/ext4/$fs/work \
		none /mnt/u || { rc=1; continue; }
	mount -t proc proc /mnt/u/proc && mount -t devtmpfs dev /mnt/u/dev || rc=1
	in_root 'dpkg -i /root/debs/*.deb' > /tmp/dpkg-$fs.log 2>&1 ||
		{ echo "dpkg -i failed"; tail -5 /tmp/dpkg-$fs.log; rc=1; }
	in_root 'dpkg --purge nano' > /tmp/purge-$fs.log 2>&1 || { echo "purge failed"; rc=1; }
	in_root 'dpkg -i /root/debs/nano_*.deb' >> /tmp/dpkg-$fs.log 2>&1 || { echo "reinstall failed"; rc=1; }
	in_root 'dpkg --audit' && echo "dpkg --audit: clean" || rc=1
	v=$(in_root 'dpkg --verify')
	[ -z "$v" ] && echo "dpkg --verify: clean" || { echo "dpkg --verify: $v" | head -5; rc=1; }
	in_root 'update-alternatives --query editor' | grep '^Value:'
	in_root 'nano --version | head -1; jq --version; echo "{\"a\":1}" | jq -M .a'
	umount /mnt/u/dev && umount /mnt/u/proc && umount /mnt/u || rc=1
done
# the two unions, mounted again, read the same; and overlayfs on the
# upper that unionlite left reads unionlite's tree
for fs in unionlite overlay overlay:unionlite; do
	u=${fs#*:}
	mount -t ${fs%:*} -o lowerdir=/mnt/root,upperdir=/mnt/ext4/$u/upper,workdir=/mnt/ext4/$u/work \
		none /mnt/u || { rc=1; continue; }
	ul-tree -x /mnt/u > /tmp/tree-$fs || rc=1
	umount /mnt/u
done
if cmp -s /tmp/tree-unionlite /tmp/tree-overlay:unionlite; then
	echo "overlayfs on unionlite's upper: the same tree"
else
	echo "overlayfs on unionlite's upper: another tree"
	diff /tmp/tree-unionlite /tmp/tree-overlay:unionlite | head -10
	rc=1
fi
echo "tree: $(wc -l < /tmp/tree-unionlite) lines"
grep -Ev "$VARY" /tmp/tree-overlay > /tmp/tree-overlay.f
if grep -Ev "$VARY" /tmp/tree-unionlite | diff /tmp/tree-overlay.f - > /tmp/tree.diff; then
	grep -E "$VARY" /tmp/tree-unionlite | cut -d: -f1 > /tmp/vary
	n=0
	while read -r f; do
		grep -q "^$f: .* $(grep "^$f: " /tmp/tree-unionlite | sed 's/.* hash=//')$" /tmp/tree-overlay || n=$((n + 1))
	done < /tmp/vary
	echo "trees: equal but for the listed files ($n of $(wc -l < /tmp/vary) differ)"
else
	echo "trees differ:"
	head -20 /tmp/tree.diff
	rc=1
fi
umount /mnt/root
ul_umount_disks || rc=1
exit $rc
