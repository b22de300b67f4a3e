# Whiteout recipes (docs/recipes.md): rename-dir-over-whiteouts.
# Upper before/after, union view, errno and the exact trace (golden).
. /tests/union-lib/recipes.sh
ul_load trace=1 || exit 1
rc_main rename-dir-over-whiteouts || exit 1
rmmod unionlite
