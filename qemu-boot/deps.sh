#!/bin/bash
# Install the Debian packages the pipeline needs, only those missing.
# Quiet when everything is present; names the missing packages when it
# cannot install them (not root). ccache is optional: installed when
# missing and root, else the builds run without it (prepare.sh says so).
# Run with sudo, it also makes what needs root for the user who ran
# sudo: the Debian root trees of the real-client and engine tests
# (rootfs.sh), in that user's store, owned by them: ~/.cache/unionlite,
# or the UL_STORE given on sudo's command line (sudo UL_STORE=DIR
# qemu-boot/deps.sh), as lib.sh takes it from the user's environment.
given_store=${UL_STORE:-}
. "$(dirname "$0")/lib.sh"

pkgs="linux-source-6.1 linux-source-6.12 gcc make libc6-dev qemu-system-x86 e2fsprogs
      busybox-static attr dmsetup mmdebstrap bc bison flex libelf-dev libssl-dev lz4 cpio sparse
      xz-utils git perl python3 python3-ply python3-git fuse-overlayfs
      containers-storage"

[ "$(id -u)" = 0 ] && pkgs="$pkgs ccache"

missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		ul_die "missing packages:$missing (run as root: apt-get install$missing)"
	fi
	ul_say "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		ul_die "apt-get install failed for:$missing"
fi

# As root under sudo: the root trees (the real client's, the container
# engines') for the user who ran it (rootfs.sh needs root), in their
# store, theirs.
user=${SUDO_USER:-}
if [ "$(id -u)" = 0 ] && [ -n "$user" ] && [ "$user" != root ]; then
	home=$(getent passwd "$user" | cut -d: -f6)
	[ -d "$home" ] || ul_die "no home directory for $user"
	store=${given_store:-$home/.cache/unionlite}
	for d in "$home/.cache" "$store"; do
		[ -d "$d" ] || install -d -o "$user" -g "$(id -gn "$user")" "$d"
	done
	for kind in "" engine; do
		img=$(UL_STORE=$store "$(dirname "$0")/rootfs.sh" $kind) || exit 1
		chown "$user:$(id -gn "$user")" "$img" "$img.lock"
	done
fi
