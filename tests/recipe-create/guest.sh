# Whiteout recipes (docs/recipes.md): mkdir-over-whiteout create-over-whiteout symlink-over-whiteout mknod-over-whiteout link-over-whiteout.
# Upper before/after, union view, errno and the exact trace (golden).
. /tests/union-lib/recipes.sh
ul_load trace=1 || exit 1
rc_main mkdir-over-whiteout create-over-whiteout symlink-over-whiteout mknod-over-whiteout link-over-whiteout || exit 1
rmmod unionlite
