#!/bin/bash
# prepare.sh [TREE-]VARIANT...: everything a guest run needs, built only
# where something changed: packages, trees + series, kernels, static
# helpers, modules, initramfs. A bare VARIANT is of the first tree of
# LINUX (lib.sh).
. "$(dirname "$0")/lib.sh"

here=$UL_TOP/qemu-boot
"$here/deps.sh"
ul_pick_cc

# One build at a time: two make runs in one kernel build dir corrupt it.
mkdir -p "$UL_BUILD"
exec 9>"$UL_BUILD/.prepare.lock"
flock 9
if [ "$UL_CC" = gcc ] && [ "${UL_CCACHE:-1}" != 0 ]; then
	ul_say "note: ccache is not installed; kernel builds are not cached (apt-get install ccache)"
fi
read -r hits0 misses0 < <(ul_ccache_stats)
# what the layout before the trees kept at the top of build/
rm -rf "$UL_BUILD"/linux "$UL_BUILD"/linux-pristine "$UL_BUILD"/kbuild-* \
	"$UL_BUILD"/mod-* "$UL_BUILD"/initramfs-* "$UL_BUILD"/helpers/ext2-rename-selftest
runs=()
for r in "${@:-base}"; do
	ul_kv "$r"
	runs+=("$UL_KV")
done
trees=$(printf '%s\n' "${runs[@]%-*}" | sort -uV)
for t in $trees; do
	LINUX=$t "$here/tree.sh"
done

# The static C helpers of tests/helpers and the mount program
# (unionfs-lite/mount), for the guest, UL_JOBS at a time.
mkdir -p "$UL_BUILD/helpers"
for c in "$UL_TOP"/tests/helpers/*.c "$UL_TOP"/unionfs-lite/mount/*.c; do
	[ -f "$c" ] || continue
	bin=$UL_BUILD/helpers/$(basename "$c" .c)
	if [ ! -x "$bin" ] || [ "$c" -nt "$bin" ]; then
		echo "$c"
	fi
done | xargs -r -P "$UL_JOBS" -I{} sh -c \
	'gcc -static -O2 -Wall -Wextra -Werror -pthread -DUL_VERSION="\"$1\"" -o "$0/$(basename "$2" .c)" "$2"' \
	"$UL_BUILD/helpers" "$(ul_version)" {} || ul_die "a helper of tests/helpers failed to build"

# The ext2 selftest that each tree's series adds.
for t in $trees; do
	ul_use_linux "$t"
	st=$UL_TREE/tools/testing/selftests/filesystems/ext2/rename_test.c
	bin=$UL_TB/helpers/ext2-rename-selftest
	mkdir -p "$UL_TB/helpers"
	if [ -f "$st" ] && { [ ! -x "$bin" ] || [ "$st" -nt "$bin" ]; }; then
		gcc -static -O2 -Wall -I"$UL_TREE/tools/testing/selftests" -o "$bin" "$st" ||
			ul_die "the ext2 selftest of $t failed to build"
	fi
done

# The kernels one after the other (each build uses every core), then
# each variant's modules and initramfs, UL_JOBS variants at a time (a
# module build is one make job; each variant builds in its own copy).
for r in "${runs[@]}"; do
	LINUX=${r%-*} "$here/kernel.sh" "$(ul_kernel "${r##*-}")"
done
pids=() failed=
for v in "${runs[@]}"; do
	if [ ${#pids[@]} -ge "$UL_JOBS" ]; then
		ul_wait "${pids[0]}" || failed=1
		pids=("${pids[@]:1}")
	fi
	("$here/modules.sh" "$v" && "$here/initramfs.sh" "$v") &
	pids+=($!)
done
ul_wait "${pids[@]}" || failed=1
[ -z "$failed" ] || ul_die "the modules or an initramfs failed to build"

read -r hits misses < <(ul_ccache_stats)
hits=$((hits - hits0)) misses=$((misses - misses0))
if [ $((hits + misses)) -gt 0 ]; then
	ul_say "ccache: $hits hits, $misses misses ($((100 * hits / (hits + misses)))% hit rate), cache in $(ccache -k cache_dir)"
fi
