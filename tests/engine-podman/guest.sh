# podman and buildah (Debian 12's) store images with containers/storage's
# overlay driver two ways: natively on the kernel's overlayfs, and with
# unionlite-mount as its mount program. Both import a small root
# tarball, build a Containerfile whose RUN steps delete, replace and
# rename files and directories of the image across steps (with chroot
# isolation; the kernel has no network, chroot isolation allows only
# the host's), then a buildah step; the tree of every image the steps
# made (each layer over those below) and of the last must be equal, and
# the archive unionlite saves, loaded by the native driver, the same.
. /tests/lib/common.sh
ul_mount_disks || exit 1
insmod /lib/modules/unionlite.ko || exit 1
rc=0
R=/mnt/root S=/mnt/sys

# the engine's system: the root tree read-only, a tmpfs over it
mkdir -p $R $S /mnt/sysup
mount -t ext4 -o ro /dev/vdc $R || exit 1
mount -t tmpfs tmpfs /mnt/sysup && mkdir /mnt/sysup/u /mnt/sysup/w || exit 1
mount -t overlay -o lowerdir=$R,upperdir=/mnt/sysup/u,workdir=/mnt/sysup/w none $S || exit 1
mount -t proc proc $S/proc && mount -t devtmpfs dev $S/dev &&
	mount -t sysfs sys $S/sys && mount -t tmpfs run $S/run &&
	mount -t tmpfs tmp $S/var/tmp && mkdir -p $S/dev/shm &&
	mount -t tmpfs shm $S/dev/shm || exit 1
cp /bin/unionlite-mount $S/usr/local/sbin/ || exit 1
mkdir -p $S/work $S/graph
mount --bind $UL_EXT4 $S/graph || exit 1

# inside CMD: CMD in the engine's system
inside() {
	chroot $S /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin sh -c "$1"
}

# the image's root: busybox and a few files and directories
B=$S/work/base
mkdir -p $B/bin $B/etc $B/opt/keep $B/opt/gone $B/srv/data || exit 1
cp /bin/busybox $B/bin/ && for a in sh rm mkdir mv echo cat ln touch; do ln -s busybox $B/bin/$a; done
echo a >$B/etc/a; echo b >$B/etc/b; echo c >$B/etc/c
echo k >$B/opt/keep/k; echo g >$B/opt/gone/g; echo 1 >$B/srv/data/1; echo 2 >$B/srv/data/2
(cd $B && tar -cf ../base.tar .) || exit 1
cat >$S/work/Containerfile <<'EOC'
FROM localhost/base
RUN rm /etc/a && mkdir /x && echo x1 >/x/f && rm -r /opt/gone
RUN rm -r /x && mv /etc/b /etc/bb && rm -r /srv/data && mkdir /srv/data && echo new >/srv/data/3
RUN echo again >/etc/a && rm /opt/keep/k && echo y >/opt/keep/y && ln -s /etc/c /etc/cl
EOC

# engine WHO [STORAGE-OPTS]: the steps with graph root /graph/WHO
engine() {
	local g=/graph/$1 o p b m l
	o="--root $g --runroot /run/$1 --storage-driver overlay $2"
	p="podman $o --cgroup-manager cgroupfs --events-backend file"
	b="buildah $o"
	inside "$p import /work/base.tar localhost/base" >/tmp/$1.log 2>&1 ||
		{ echo "$1: import failed"; tail -5 /tmp/$1.log; return 1; }
	inside "cd /work && $p build --isolation chroot --network host --security-opt seccomp=unconfined -t localhost/img ." >>/tmp/$1.log 2>&1 ||
		{ echo "$1: build failed"; tail -8 /tmp/$1.log; return 1; }
	# buildah: a working container from the image, one more step
	inside "$b from --security-opt seccomp=unconfined --name w localhost/img && $b run --isolation chroot --network host w -- sh -c 'rm /etc/c && mkdir /etc/new && echo z >/etc/new/z' && $b commit w localhost/img2" >>/tmp/$1.log 2>&1 ||
		{ echo "$1: buildah failed"; tail -4 /tmp/$1.log | cut -c1-200; return 1; }
	# every image the steps made, oldest first: each layer as a tree
	: >/tmp/$1.steps
	for m in $(inside "$p images -a --sort created --noheading --format '{{.ID}}'"); do
		echo "# an image" >>/tmp/$1.steps
		m=$(inside "$p image mount $m") && ul-tree -x $S$m >>/tmp/$1.steps ||
			{ echo "$1: image mount failed"; return 1; }
	done
	inside "$p image unmount --all" >/dev/null
	echo "## $1: $(grep -c '^# an image' /tmp/$1.steps) images"
	m=$(inside "$p image mount localhost/img2") || { echo "$1: image mount failed"; return 1; }
	echo "## $1: the image"
	ul-tree -x $S$m | tee /tmp/$1.tree
	inside "$p image unmount localhost/img2" >/dev/null
	echo "## $1: podman diff of the image"
	inside "$p diff localhost/img2" | sort >/tmp/$1.diff
	inside "$p save -o /work/$1.tar localhost/img2" >>/tmp/$1.log 2>&1 || { echo "$1: save failed"; return 1; }
	# the saved layers, as lists of names
	rm -rf /tmp/$1.save && mkdir -p /tmp/$1.save && tar -xf $S/work/$1.tar -C /tmp/$1.save
	for l in $(sed -n 's/.*"Layers":\[\([^]]*\)\].*/\1/p' /tmp/$1.save/manifest.json | tr -d '"' | tr , ' '); do
		tar -tf /tmp/$1.save/$l | sort | tr '\n' ' '
		echo
	done >/tmp/$1.layers
}

engine native "" || rc=1
engine unionlite "--storage-opt overlay.mount_program=/usr/local/sbin/unionlite-mount" || rc=1
cmp -s /tmp/native.steps /tmp/unionlite.steps || {
	echo "the images of the steps differ (- native, + unionlite):"
	diff -U0 /tmp/native.steps /tmp/unionlite.steps | sed -n 's/^[-+][^-+]/	&/p'
	rc=1
}
cmp -s /tmp/native.tree /tmp/unionlite.tree || {
	echo "the image differs (- native, + unionlite):"
	diff -U0 /tmp/native.tree /tmp/unionlite.tree | sed -n 's/^[-+][^-+]/	&/p'
	rc=1
}
# The layers' lists: the mount program's are naive diffs (the trees
# compared), so an opaque directory comes out as its former entries
# deleted and an unchanged directory is left out. What they make: the
# archive unionlite saved, loaded by the native driver, is the image.
p="podman --root /graph/native --runroot /run/native --storage-driver overlay --cgroup-manager cgroupfs --events-backend file"
inside "$p load -i /work/unionlite.tar" >>/tmp/native.log 2>&1 &&
	m=$(inside "$p image mount localhost/img2") && ul-tree -x $S$m >/tmp/loaded.tree || {
	echo "loading unionlite's archive failed"
	rc=1
}
cmp -s /tmp/native.tree /tmp/loaded.tree &&
	echo "unionlite's archive, loaded by the native driver: the same image" || {
	echo "unionlite's archive, loaded by the native driver, differs:"
	diff -U0 /tmp/native.tree /tmp/loaded.tree | sed -n 's/^[-+][^-+]/	&/p'
	rc=1
}
for f in layers diff; do
	echo "## the $f (unionlite-mount)"
	cat /tmp/unionlite.$f
	cmp -s /tmp/native.$f /tmp/unionlite.$f && continue
	echo "## the $f, native (- unionlite, + native):"
	diff -U0 /tmp/unionlite.$f /tmp/native.$f | sed -n 's/^[-+][^-+]/	&/p'
done
# what the engines left mounted, innermost first
grep -o " $S/graph/[^ ]*" /proc/mounts | sort -r | while read -r m; do umount $m; done
umount $S/graph; umount $S/dev/shm $S/var/tmp $S/run $S/sys $S/dev $S/proc
umount $S && umount /mnt/sysup && umount $R
ul_umount_disks || rc=1
exit $rc
