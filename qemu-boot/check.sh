#!/bin/bash
# check.sh: the kernel conventions. checkpatch --strict on the module, the
# test-only modules and every patch of the series; the modules built with
# W=1 and sparse (C=2), where any warning fails; fs/ext2 of the patched
# tree built with W=1 and sparse, against the same without the series.
# First, before anything builds: the documentation against the tree
# (tests/check-docs.sh), its meaning (tests/check-meaning.sh) and both
# failing on planted errors (tests/check-docs-selftest.sh).
. "$(dirname "$0")/lib.sh"

status=0
echo "docs: README.md and docs/*.md against the tree"
"$UL_TOP/tests/check-docs.sh" --linux "$UL_TREE" || status=1
echo "docs: what they say (step tables, differences, counts)"
"$UL_TOP/tests/check-meaning.sh" || status=1
echo "docs: each check failing on a planted error"
"$UL_TOP/tests/check-docs-selftest.sh" --linux "$UL_TREE" || status=1
"$UL_TOP/qemu-boot/prepare.sh" base
# checkpatch runs spdxcheck.py with python3: Debian's, which has ply and git.
export PATH=/usr/bin:$PATH
cp="$UL_TREE/scripts/checkpatch.pl --strict --quiet --no-summary --show-types"
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
# fs/ext2 with W=1 and sparse, with and without the series (each built
# as a module out of tree against the base kernel, from a copy): 6.1 has
# a few kernel-doc warnings of its own there; the series may add none.
echo "W=1 C=2: fs/ext2, the series against the pristine tree"
for v in pristine base; do
	src=$UL_TREE/fs/ext2
	[ $v = pristine ] && src=$UL_PRISTINE/fs/ext2
	out=$UL_BUILD/check/ext2-$v
	rm -rf "$out"
	ul_sync_dir "$src" "$out"
	ul_kmake -C "$(ul_kdir base)" M="$out" W=1 C=2 modules \
		>"$UL_BUILD/check-ext2-$v.log" 2>&1 || status=1
	grep -E 'warning:|error:' "$UL_BUILD/check-ext2-$v.log" |
		sed -E 's|^.*/ext2-[a-z]+/|fs/ext2/|; s|:[0-9]+(:[0-9]+)?:|:|' |
		sort -u > "$UL_BUILD/check-ext2-$v.txt" || true
done
new=$(comm -13 "$UL_BUILD/check-ext2-pristine.txt" "$UL_BUILD/check-ext2-base.txt")
echo "  $(wc -l < "$UL_BUILD/check-ext2-pristine.txt") warnings in pristine 6.1, new with the series: $(echo -n "$new" | grep -c . || true)"
if [ -n "$new" ]; then
	echo "$new"
	status=1
fi
[ $status = 0 ] && echo "check: clean" || echo "check: FAILED"
exit $status
