# Whiteout recipes (docs/recipes.md): rename-dir-over-whiteouts, and
# rename-dir-over-empty-merged, where Q's upper holds no whiteouts and
# recipe 4 does not run (P made opaque, then one rename).
# Upper before/after, union view, errno and the exact trace (golden).
. /tests/union-lib/recipes.sh
ul_load trace=1 || exit 1
rc_main rename-dir-over-whiteouts rename-dir-over-empty-merged || exit 1
rmmod unionlite
