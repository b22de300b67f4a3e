# shellcheck shell=bash
# Common settings for the qemu-boot scripts. Sourced, never run.

set -euo pipefail

UL_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UL_BUILD=${UL_BUILD:-$UL_TOP/build}
UL_TREE=$UL_BUILD/linux
UL_SRC_TARBALL=${UL_SRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
UL_JOBS=${UL_JOBS:-$(nproc)}
# base: fast kernel with the series; debug: the same with KASAN, lockdep
# and friends; pristine: the base kernel running the ext2 module of the
# 6.1 tree without the series (to show that the tests catch the series'
# absence; fs/ext2 is all the series changes). Tests run on base and
# debug unless their test.conf says otherwise.
UL_VARIANTS="base debug pristine"
UL_DEFAULT_VARIANTS="base debug"
UL_PRISTINE=$UL_BUILD/linux-pristine

ul_say() { printf '%s\n' "$*" >&2; }
ul_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# ul_kernel VARIANT: the kernel a variant boots (pristine: base's).
ul_kernel() {
	if [ "$1" = pristine ]; then
		echo base
	else
		echo "$1"
	fi
}

# ul_kdir VARIANT: the O= build directory of the kernel a variant boots.
ul_kdir() { echo "$UL_BUILD/kbuild-$(ul_kernel "$1")"; }

ul_check_variant() {
	case " $UL_VARIANTS " in
	*" $1 "*) ;;
	*) ul_die "unknown kernel variant '$1' (known: $UL_VARIANTS)" ;;
	esac
}

# ul_sync_dir SRC DST: make DST hold SRC's regular files, copying only the
# files whose content differs, so that kbuild sees unchanged files as old.
ul_sync_dir() {
	local src=$1 dst=$2 f
	mkdir -p "$dst"
	for f in "$src"/*; do
		[ -f "$f" ] || continue
		cmp -s "$f" "$dst/${f##*/}" || cp "$f" "$dst/"
	done
}
