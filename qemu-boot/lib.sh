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
# absence; fs/ext2 is all the series changes); mutant: the base kernel
# running the series' ext2 with its exchange broken (modules.sh), to
# show that the tests look at the disk. Tests run on base and debug
# unless their test.conf says otherwise.
UL_VARIANTS="base debug pristine mutant"
UL_DEFAULT_VARIANTS="base debug"
UL_PRISTINE=$UL_BUILD/linux-pristine

ul_say() { printf '%s\n' "$*" >&2; }
ul_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Kernel and module builds go through ccache when it is installed, so
# that a second clone (CI's, a reviewer's) compiles nothing the first
# one compiled. The cache lives outside the clone: ccache's default
# (~/.cache/ccache) or UL_CCACHE_DIR. base_dir makes the absolute paths
# of the clone relative in what ccache hashes; the build stamps are
# fixed so that init/version.c and the modules' vermagic hit too.
# UL_CCACHE=0 builds without it.
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
export KBUILD_BUILD_USER=unionlite KBUILD_BUILD_HOST=unionlite
UL_CC=gcc
if [ "${UL_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
	UL_CC="ccache gcc"
	[ -n "${UL_CCACHE_DIR:-}" ] && export CCACHE_DIR=$UL_CCACHE_DIR
	export CCACHE_BASEDIR=$UL_TOP CCACHE_NOHASHDIR=1
	# three kernel configurations (base, debug with KASAN, pristine ext2)
	# take about 1 GiB; ccache's own default cap is 5 GiB
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
fi

# ul_kmake ARGS...: make for the kernel tree and out-of-tree modules,
# with the project's compiler (ccache or not).
ul_kmake() { make -s CC="$UL_CC" HOSTCC="$UL_CC" "$@"; }

# ul_ccache_stats: "hits misses" of the cache so far (0 0 without it).
ul_ccache_stats() {
	if [ "$UL_CC" = gcc ]; then
		echo 0 0
		return
	fi
	ccache --print-stats 2>/dev/null | awk '
		$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
		$1 == "cache_miss" { m += $2 }
		END { print h + 0, m + 0 }'
}

# ul_kernel VARIANT: the kernel a variant boots (pristine, mutant: base's).
ul_kernel() {
	case $1 in
	pristine|mutant) echo base ;;
	*) echo "$1" ;;
	esac
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
