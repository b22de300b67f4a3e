#!/bin/bash
# rootfs.sh [engine]: the Debian 12 root tree of the real-client tests
# (tests/realworld-*), as an ext4 image in the store, made once for its
# package list: mmdebstrap's minbase variant from the machine's Debian
# archive, plus the packages of $pkgs below, and the .deb files of $debs
# in /root/debs. With "engine", the tree of the container engine tests
# (tests/engine-*): podman and buildah with what they run. Prints the
# image's path.
# Needs root (the tree's files keep their owners) and the package
# mmdebstrap: qemu-boot/deps.sh, run with sudo, installs the package and
# runs this for the user who ran sudo; as root (CI) the first make test
# does.
. "$(dirname "$0")/lib.sh"

suite=bookworm
pkgs="git python3 dpkg-dev make rsync"
case ${1:-} in
"") ;;
engine) pkgs="$pkgs podman buildah crun conmon golang-github-containers-common" ;;
*) ul_die "usage: rootfs.sh [engine]" ;;
esac
# fetched, not installed, into /root/debs with what they need: packages
# whose maintainer scripts and triggers the workload runs (alternatives,
# ldconfig)
debs="nano less jq"
key=$(printf '%s\n' "rootfs 3" "$suite" minbase $pkgs "debs:" $debs | sha256sum | cut -c1-12)
img=$UL_STORE/rootfs-$key.img
if [ -f "$img" ]; then
	echo "$img"
	exit 0
fi

[ "$(id -u)" = 0 ] ||
	ul_die "the real-client root tree needs root (its files keep their owners): run 'sudo qemu-boot/deps.sh' once, it makes the tree in your store"
command -v mmdebstrap >/dev/null || ul_die "mmdebstrap not found (qemu-boot/deps.sh installs it)"
mkdir -p "$UL_STORE"
exec 9>"$img.lock"
flock 9
if [ ! -f "$img" ]; then
	tmp=$img.tmp
	rm -rf "$tmp" "$tmp.tar" "$tmp.img"
	ul_say "rootfs: mmdebstrap $suite minbase + $pkgs"
	mmdebstrap --quiet --variant=minbase --include="${pkgs// /,}" \
		--customize-hook='rm -f "$1"/var/cache/apt/archives/*.deb' \
		--customize-hook="chroot \"\$1\" apt-get install -qq --download-only -y $debs" \
		--customize-hook='mkdir -p "$1/root/debs" && mv "$1"/var/cache/apt/archives/*.deb "$1/root/debs/"' \
		"$suite" "$tmp.tar" || ul_die "mmdebstrap failed"
	mkdir "$tmp"
	tar -C "$tmp" --numeric-owner --xattrs --xattrs-include='*' -xpf "$tmp.tar" ||
		ul_die "cannot unpack $tmp.tar"
	# the tree, a quarter free, in an ext4 image that mke2fs fills
	kib=$(du -sk "$tmp" | cut -f1)
	mke2fs -q -F -t ext4 -L ul-rootfs -d "$tmp" "$tmp.img" "$((kib * 5 / 4 + 65536))k" >/dev/null ||
		ul_die "mke2fs -d failed"
	mv "$tmp.img" "$img"
	rm -rf "$tmp" "$tmp.tar"
	ul_say "rootfs: $img ($(du -h "$img" | cut -f1) used)"
fi
echo "$img"
