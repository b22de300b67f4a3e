# shellcheck shell=bash
# Common settings for the qemu-boot scripts. Sourced, never run.

set -euo pipefail

# mke2fs, e2fsck and debugfs are in /sbin: not on an ordinary user's PATH
# on Debian
case ":$PATH:" in
*:/usr/sbin:*) ;;
*) PATH=$PATH:/usr/sbin:/sbin ;;
esac
export PATH

UL_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UL_BUILD=${UL_BUILD:-$UL_TOP/build}
UL_JOBS=${UL_JOBS:-$(nproc)}
# base: fast kernel with the series; debug: the same with KASAN, lockdep
# and friends; kcsan: the same with the data-race detector; pristine: the base kernel running the ext2 module of the
# 6.1 tree without the series (to show that the tests catch the series'
# absence; fs/ext2 is all the series changes); mutant: the base kernel
# running the series' ext2 with its exchange broken (modules.sh), to
# show that the tests look at the disk. Tests run on base and debug
# unless their test.conf says otherwise.
UL_VARIANTS="base debug kcsan pristine mutant"
UL_DEFAULT_VARIANTS="base debug"
# make test runs these on each tree; the debug and kcsan variants' tests
# run with make debug and make kcsan (their kernels would take the cold
# run past its budget: docs/harness.md)
UL_TEST_VARIANTS="base pristine mutant"
# Where the runs keep their logs and verdicts (logs/VARIANT/TEST.*) and
# their images (run/VARIANT/TEST/); a harness self-test moves them aside.
UL_LOGS=${UL_LOGS:-$UL_BUILD/logs}
UL_RUNS=${UL_RUNS:-$UL_BUILD/run}

# ul_sentinel_rc LINE: the rc of a UNIONLITE-RESULT line. The console
# can print a kernel message into the line right after the digits
# ("rc=0input: ..."): that is not part of it.
ul_sentinel_rc() {
	local rc=${1##*rc=}

	echo "${rc%%[!0-9]*}"
}

# The store: the extracted trees and the kernel build directories, shared
# by every clone of the project on the machine and kept outside them,
# each under a name made from its inputs (tree: the tarball and the
# series; kernel build: the tree, the config fragments and kernel.sh),
# so that a second clone finds them built. build/TREE/linux,
# build/TREE/linux-pristine and build/TREE/kbuild-KERNEL are links into
# it. UL_STORE=DIR moves it; removing the directory clears it.
UL_STORE=${UL_STORE:-${XDG_CACHE_HOME:-$HOME/.cache}/unionlite}

# The Linux trees: Debian's linux-source-N packages, each with its own
# series (kernel-series/N/). LINUX="6.1 6.12" names those a command
# uses (test.sh: each; the others: the first). A tree's kernels,
# modules and initramfs are under build/N/; its runs' logs under
# logs/N-VARIANT/.
UL_LINUXES="6.1 6.12"
LINUX=${LINUX:-6.1 6.12}
# ul_use_linux N: select tree N for the settings below.
ul_use_linux() {
	case " $UL_LINUXES " in
	*" $1 "*) ;;
	*) ul_die "unknown Linux tree '$1' (known: $UL_LINUXES)" ;;
	esac
	UL_LINUX=$1
	UL_SRC_TARBALL=/usr/src/linux-source-$1.tar.xz
	UL_SERIES=$UL_TOP/kernel-series/$1
	UL_TB=$UL_BUILD/$1
	UL_TREE=$UL_TB/linux
	UL_PRISTINE=$UL_TB/linux-pristine
}
# ul_kv RUN: select the tree of RUN ("6.12-base", or "base" for the
# first tree of LINUX) and set UL_V to its variant and UL_KV to both.
ul_kv() {
	case $1 in
	*-*) ul_use_linux "${1%-*}"; UL_V=${1##*-} ;;
	*) ul_use_linux "${LINUX%% *}"; UL_V=$1 ;;
	esac
	ul_check_variant "$UL_V"
	UL_KV=$UL_LINUX-$UL_V
}

ul_say() { printf '%s\n' "$*" >&2; }
# ul_version: what unionlite-mount --version names: the clone's commit
ul_version() { git -C "$UL_TOP" describe --always --dirty 2>/dev/null || echo unknown; }
ul_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# ul_wait PID...: wait for each; returns 1 if any of them failed
ul_wait() {
	local p rc=0
	for p in "$@"; do
		wait "$p" || rc=1
	done
	return $rc
}

# Kernel and module builds go through ccache when it is installed, so
# that a kernel the store does not hold yet (a new series or config)
# compiles only what changed. The cache lives outside the clone:
# ccache's default (~/.cache/ccache) or UL_CCACHE_DIR. base_dir (the
# store) makes the paths of a tree relative in what ccache hashes
# ("../linux" from every kernel build); the build stamps are fixed so
# that init/version.c and the modules' vermagic hit too. The modules are
# built in the store too, beside their kernel (modules.sh).
# UL_CCACHE=0 builds without it.
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
export KBUILD_BUILD_USER=unionlite KBUILD_BUILD_HOST=unionlite
# ul_pick_cc: UL_CC, and ccache's settings when it is installed (again
# after deps.sh, which may just have installed it)
ul_pick_cc() {
	UL_CC=gcc
	if [ "${UL_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
		UL_CC="ccache gcc"
		[ -n "${UL_CCACHE_DIR:-}" ] && export CCACHE_DIR=$UL_CCACHE_DIR
		export CCACHE_BASEDIR=$UL_STORE CCACHE_NOHASHDIR=1
		# three kernel configurations (base, debug with KASAN, pristine
		# ext2) take about 1 GiB; ccache's own default cap is 5 GiB
		export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
	fi
}
ul_pick_cc

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

# ul_kdir VARIANT: the O= build directory of the kernel a variant boots
# (its path in the store: kbuild records the paths it is given).
ul_kdir() { readlink -f "$UL_TB/kbuild-$(ul_kernel "$1")"; }

# ul_store_link NAME TARGET: make build/TREE/NAME a symbolic link to
# TARGET in the store, replacing what an older layout left there (a
# directory).
ul_store_link() {
	local link=$UL_TB/$1
	mkdir -p "$UL_TB"
	[ "$(readlink "$link" 2>/dev/null)" = "$2" ] && return 0
	if [ -e "$link" ] && [ ! -L "$link" ]; then
		ul_say "build/$UL_LINUX/$1: now in the store ($UL_STORE); removing the old copy"
		rm -rf "$link"
	fi
	ln -sfn "$2" "$link"
}

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

ul_use_linux "${LINUX%% *}"
