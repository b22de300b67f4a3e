# Recipe 4 with recipe 5 (docs/recipes.md): rename(P, Q) where Q is a
# directory empty in the union holding only whiteouts in upper, and P (an
# opaque upper directory over a lower P) needs a whiteout. With
# RENAME_WHITEOUT (ext4, and ext2 with the kernel-series): recipe 4's
# first steps, then one rename-whiteout. With no_rename_whiteout=1: EXDEV
# before any step, both names as they were. Exact trace (golden).
. /tests/union-lib/recipes.sh
ul_load trace=1 no_rename_whiteout=0 || exit 1
rc_main rename-dir-over-whiteouts-p-lower || exit 1
echo "### no_rename_whiteout=1"
echo 1 >/sys/module/unionlite/parameters/no_rename_whiteout
rc_main rename-dir-over-whiteouts-p-lower || exit 1
echo 0 >/sys/module/unionlite/parameters/no_rename_whiteout
rmmod unionlite
