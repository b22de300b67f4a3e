#!/bin/bash
# initramfs.sh [TREE-]VARIANT: pack the guest's root filesystem into
# build/TREE/initramfs-VARIANT.cpio with the kernel's gen_init_cpio (device
# nodes need no root that way). Contents: busybox-static, getfattr,
# setfattr, e2fsck and debugfs with the libraries they load (the recipe
# tests check the images after every scenario), mke2fs and dmsetup (the
# crash-state tests make an upper behind dm-log-writes), fuse-overlayfs
# (the oracle of tests/union-aufs), containers-storage (the container
# engines' layer store, tests/union-containers-storage), the static C
# helpers built from tests/helpers, the mount program and the tree's
# ext2 selftest, the modules built for VARIANT, the guest scripts
# (tests/) and /init.
. "$(dirname "$0")/lib.sh"

ul_kv "${1:?usage: initramfs.sh [TREE-]VARIANT}"
variant=$UL_V
out=$UL_TB/initramfs-$variant.cpio
gen=$UL_BUILD/host/gen_init_cpio
list=$UL_TB/initramfs-$variant.list

mkdir -p "$UL_BUILD/host"
if [ ! -x "$gen" ] || [ "$UL_TREE/usr/gen_init_cpio.c" -nt "$gen" ]; then
	gcc -O2 -o "$gen" "$UL_TREE/usr/gen_init_cpio.c"
fi

# the dynamic tools of the guest (packages of deps.sh)
fa="/usr/bin/getfattr /usr/bin/setfattr /usr/sbin/e2fsck /usr/sbin/debugfs
    /usr/sbin/mke2fs /usr/sbin/dmsetup /usr/bin/fuse-overlayfs
    /usr/bin/containers-storage"
for b in $fa; do
	[ -x "$b" ] || ul_die "$b not found: run 'sudo qemu-boot/deps.sh' (it installs what the guest needs)"
done

bb=/bin/busybox
ldd "$bb" >/dev/null 2>&1 && ul_die "$bb is not static (package busybox-static)"
[ -x "$bb" ] || ul_die "$bb not found (package busybox-static)"

{
	for d in /bin /sbin /usr /usr/bin /usr/sbin /lib /lib64 /lib/modules \
		/lib/modules/test /lib/x86_64-linux-gnu /proc /sys /dev /tmp \
		/mnt /tests /root; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	echo "file /init $UL_TOP/qemu-boot/init 0755 0 0"
	echo "file /bin/busybox $bb 0755 0 0"
	# the dynamic tools and the shared objects they load
	for b in $fa; do
		echo "file $b $b 0755 0 0"
	done
	# shellcheck disable=SC2086
	ldd $fa | awk '/=>/ { print $3 } /^[[:space:]]+\// { print $1 }' |
		sort -u | while read -r f; do
			echo "file $f $(readlink -f "$f") 0755 0 0"
		done
	for h in "$UL_BUILD"/helpers/* "$UL_TB"/helpers/*; do
		[ -x "$h" ] && echo "file /bin/${h##*/} $h 0755 0 0"
	done
	for k in "$UL_TB/mod-$variant"/ext2/ext2.ko "$UL_TB/mod-$variant"/unionfs-lite/*.ko; do
		[ -f "$k" ] && echo "file /lib/modules/${k##*/} $k 0644 0 0"
	done
	for k in "$UL_TB/mod-$variant"/unionlite-m*/unionlite.ko \
		"$UL_TB/mod-$variant"/unionlite-test/unionlite.ko; do
		[ -f "$k" ] || continue
		m=${k%/unionlite.ko}
		echo "file /lib/modules/${m##*/}.ko $k 0644 0 0"
	done
	for k in "$UL_TB/mod-$variant"/kmod/*.ko; do
		[ -f "$k" ] && echo "file /lib/modules/test/${k##*/} $k 0644 0 0"
	done
	# the guest side of the tests: scripts, golden files are not needed
	(cd "$UL_TOP" && find tests -path tests/helpers -prune -o \
		-path tests/kmod -prune -o -type d -print) | while read -r d; do
		echo "dir /$d 0755 0 0"
	done
	(cd "$UL_TOP" && find tests -path tests/helpers -prune -o \
		-path tests/kmod -prune -o -type f \( -name '*.sh' -o -name '*.conf' \) -print) |
		while read -r f; do
			echo "file /$f $UL_TOP/$f 0644 0 0"
		done
} > "$list"
"$gen" "$list" > "$out.tmp"
mv "$out.tmp" "$out"
