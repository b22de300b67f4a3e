#!/bin/bash
# kernel.sh KERNEL: configure and build one kernel (base, debug, kcsan) out of
# the tree build/TREE/linux (LINUX selects it: lib.sh), in the store,
# linked as build/TREE/kbuild-KERNEL.
#
# The config is tinyconfig + common.config + VARIANT.config (+
# linux-TREE.config where the tree has one), merged with the tree's
# merge_config.sh. merge_config silently drops options whose
# dependencies are not met, so every option the fragments set is checked
# in the final .config afterwards. The build directory is beside the
# tree (tree.sh) and named after the fragments and this script: when one
# with that name is complete (a second clone, or the inputs changed
# back), nothing is built.
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: kernel.sh KERNEL}
case $variant in
base|debug|kcsan) ;;
*) ul_die "kernel.sh: no kernel '$variant' (base, debug, kcsan)" ;;
esac
here=$UL_TOP/qemu-boot
frags=("$here/common.config" "$here/$variant.config")
[ -f "$here/linux-$UL_LINUX.config" ] && frags+=("$here/linux-$UL_LINUX.config")
tree=$(readlink -f "$UL_TREE")
[ -f "$tree/.unionlite-done" ] || ul_die "the tree is not made (tree.sh)"
kmake() { ul_kmake -C "$tree" O="$kdir" ARCH=x86_64 "$@"; }

want=$( (cat "${frags[@]}" "$0") | sha256sum | cut -c1-12)
kdir=$(dirname "$tree")/kbuild-$variant-$want
stamp=$kdir/.unionlite-stamp
mkdir -p "$UL_STORE"
# one build per directory, whichever clone runs it
exec 7>"$kdir.lock"
flock 7
if [ -f "$stamp" ] && [ -f "$kdir/arch/x86/boot/bzImage" ]; then
	ul_store_link "kbuild-$variant" "$kdir"
	exit 0
fi

mkdir -p "$kdir"
ul_say "kernel($variant): configuring"
kmake tinyconfig >"$kdir/merge_config.log" 2>&1
(cd "$tree" && scripts/kconfig/merge_config.sh -m -O "$kdir" \
	"$kdir/.config" "${frags[@]}") >>"$kdir/merge_config.log" 2>&1 ||
	ul_die "merge_config.sh failed, see $kdir/merge_config.log"
kmake olddefconfig >>"$kdir/merge_config.log" 2>&1

# Every option a fragment sets (=value or "is not set") must hold.
dropped=
while read -r line; do
	case "$line" in
	CONFIG_*=*)
		opt=${line%%=*}
		grep -qxF "$line" "$kdir/.config" || dropped="$dropped $opt"
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		grep -q "^$opt=" "$kdir/.config" && dropped="$dropped $opt"
		;;
	esac
done < <(cat "${frags[@]}")
[ -z "$dropped" ] || ul_die "kernel($variant): options dropped by kconfig (unmet dependencies?):$dropped"

ul_say "kernel($variant): building bzImage and modules (-j$UL_JOBS)"
start=$(date +%s)
kmake -j"$UL_JOBS" bzImage modules >"$kdir/build.log" 2>&1 || {
	tail -30 "$kdir/build.log" >&2
	ul_die "kernel($variant): build failed, see $kdir/build.log"
}
ul_say "kernel($variant): built in $(($(date +%s) - start)) s"
echo "$want" > "$stamp"
ul_store_link "kbuild-$variant" "$kdir"
