#!/bin/bash
# check.sh: the kernel conventions. checkpatch --strict on the module, the
# test-only modules and every patch of the series; the modules built with
# W=1 and sparse (C=2), where any warning fails; fs/ext2 of the patched
# tree built with W=1 and sparse.
. "$(dirname "$0")/lib.sh"

"$UL_TOP/qemu-boot/prepare.sh" base
cp="$UL_TREE/scripts/checkpatch.pl --strict --quiet --no-summary --show-types"
status=0
srcs=$(ls "$UL_TOP"/unionfs-lite/*.[ch] "$UL_TOP"/tests/kmod/*.c 2>/dev/null)
echo "checkpatch --strict: module sources"
# shellcheck disable=SC2086
(cd "$UL_TREE" && $cp --no-tree -f $srcs) || status=1
for p in "$UL_TOP"/kernel-series/*.patch; do
	[ -f "$p" ] || continue
	echo "checkpatch --strict: kernel-series/${p##*/}"
	(cd "$UL_TREE" && $cp "$p") || status=1
done
echo "W=1 C=2: modules"
"$UL_TOP/qemu-boot/modules.sh" base C=2 || status=1
echo "W=1 C=2: fs/ext2 of the patched tree"
log=$UL_BUILD/check-ext2.log
make -s -C "$UL_TREE" O="$(ul_kdir base)" ARCH=x86_64 W=1 C=2 fs/ext2/ >"$log" 2>&1 || status=1
if grep -E 'warning:|error:' "$log"; then
	status=1
fi
[ $status = 0 ] && echo "check: clean" || echo "check: FAILED"
exit $status
