# A real client, first part: dpkg and git on the Debian 12 root tree of
# qemu-boot/rootfs.sh (vdc, read-only) as a container's root, on
# unionlite and on overlayfs, each over its own upper: install the
# packages of /root/debs (maintainer scripts, alternatives, ldconfig
# triggers), purge one, install it again; dpkg --audit and --verify must
# be clean. A git repository of a tree from the image: commits, a
# branch, a merge, a rebase, gc --prune=now; fsck --strict clean. Then
# the two unions' trees (ul-tree -x: names, types, modes, owners, sizes,
# content hashes, xattrs) must be equal but for the files of $VARY:
# dpkg's and update-alternatives' logs record times, ldconfig's
# aux-cache and git's index inode numbers and times (docs/overlayfs.md:
# the two unions number inodes apart). overlayfs mounted on the upper
# that unionlite left must read unionlite's tree.
. /tests/lib/common.sh
VARY='^var/log/dpkg.log: |^var/log/alternatives.log: |^var/cache/ldconfig/aux-cache: |^root/repo/.git/index: '
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
	# git: a repository of a tree from the image, fixed dates and one
	# pack thread, so that both unions make the same objects
	in_root 'export GIT_AUTHOR_NAME=ul GIT_AUTHOR_EMAIL=ul@example.org \
		GIT_COMMITTER_NAME=ul GIT_COMMITTER_EMAIL=ul@example.org \
		GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
		set -e
		git config --global init.defaultBranch main
		git config --global pack.threads 1
		mkdir /root/repo && cd /root/repo && git init -q
		cp -a /usr/share/doc/git/RelNotes . && git add -A && git commit -qm base
		git checkout -qb topic && rm RelNotes/1.5*.txt && git commit -qam "drop 1.5"
		git checkout -q main && echo x >> RelNotes/2.0.0.txt && git commit -qam "touch 2.0.0"
		git merge -q --no-edit topic && git checkout -q topic && git rebase -q main
		git gc -q --prune=now && git fsck --strict --no-progress && git rev-list --count --all' \
		> /tmp/git-$fs.log 2>&1 && echo "git: $(tail -1 /tmp/git-$fs.log) commits, fsck clean" ||
		{ echo "git failed"; tail -5 /tmp/git-$fs.log; rc=1; }
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
		h=$(grep "^$f: " /tmp/tree-unionlite | sed 's/.* hash=//')
		grep -q "^$f: .* hash=$h$" /tmp/tree-overlay || n=$((n + 1))
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
