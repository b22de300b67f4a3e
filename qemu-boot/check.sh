#!/bin/bash
# check.sh: the kernel conventions, for each tree of LINUX. checkpatch
# --strict on the module, the test-only modules and every patch of the
# tree's series; the modules built with W=1 and sparse (C=2), where any
# warning fails; fs/ext2 of the patched tree built with W=1 and sparse,
# against the same without the series.
# First, before anything builds: the documentation against the trees
# (tests/check-docs.sh), its meaning (tests/check-meaning.sh) and both
# failing on planted errors (tests/check-docs-selftest.sh).
. "$(dirname "$0")/lib.sh"

# checkpatch runs spdxcheck.py with python3: Debian's, which has ply and git.
export PATH=/usr/bin:$PATH
status=0
for k in $UL_LINUXES; do
	LINUX=$k "$UL_TOP/qemu-boot/tree.sh"
done
echo "docs: README.md and docs/*.md against the trees"
"$UL_TOP/tests/check-docs.sh" || status=1
echo "docs: what they say (step tables, differences, counts)"
"$UL_TOP/tests/check-meaning.sh" || status=1
echo "docs: each check failing on a planted error"
"$UL_TOP/tests/check-docs-selftest.sh" || status=1
# each tree of LINUX: its checkpatch, its series, the module against it
for k in $LINUX; do
	ul_use_linux "$k"
	"$UL_TOP/qemu-boot/prepare.sh" "$k-base"
	cp="$UL_TREE/scripts/checkpatch.pl --strict --quiet --no-summary --show-types"
	srcs=$(ls "$UL_TOP"/unionfs-lite/*.[ch] "$UL_TOP"/unionfs-lite/mount/*.c \
		"$UL_TOP"/tests/kmod/*.c 2>/dev/null |
		grep -v /compat.h)
	echo "checkpatch --strict ($k): module sources"
	# shellcheck disable=SC2086
	(cd "$UL_TREE" && $cp --no-tree -f $srcs) || status=1
	# compat.h is where the module tells the trees apart, by version
	(cd "$UL_TREE" && $cp --no-tree --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON \
		-f "$UL_TOP/unionfs-lite/compat.h") || status=1
	for p in $(sed 's/#.*//' "$UL_SERIES/series"); do
		echo "checkpatch --strict ($k): kernel-series/$k/$p"
		(cd "$UL_TREE" && $cp "$UL_SERIES/$p") || status=1
	done
	echo "W=1 C=2 ($k): modules"
	"$UL_TOP/qemu-boot/modules.sh" "$k-base" C=2 || status=1
	# fs/ext2 with W=1 and sparse, with and without the series (each
	# built as a module out of tree against the base kernel, from a
	# copy): the tree may have warnings of its own there; the series
	# may add none.
	echo "W=1 C=2 ($k): fs/ext2, the series against the pristine tree"
	chk=$UL_BUILD/check/$k
	for v in pristine base; do
		src=$UL_TREE/fs/ext2
		[ $v = pristine ] && src=$UL_PRISTINE/fs/ext2
		out=$chk/ext2-$v
		rm -rf "$out"
		ul_sync_dir "$src" "$out"
		ul_kmake -C "$(ul_kdir base)" M="$out" W=1 C=2 modules \
			>"$chk/ext2-$v.log" 2>&1 || status=1
		grep -E 'warning:|error:' "$chk/ext2-$v.log" |
			sed -E 's|^.*/ext2-[a-z]+/|fs/ext2/|; s|:[0-9]+(:[0-9]+)?:|:|' |
			sort -u > "$chk/ext2-$v.txt" || true
	done
	new=$(comm -13 "$chk/ext2-pristine.txt" "$chk/ext2-base.txt")
	echo "  $(wc -l < "$chk/ext2-pristine.txt") warnings in pristine $k, new with the series: $(echo -n "$new" | grep -c . || true)"
	if [ -n "$new" ]; then
		echo "$new"
		status=1
	fi
done
[ $status = 0 ] && echo "check: clean" || echo "check: FAILED"
exit $status
