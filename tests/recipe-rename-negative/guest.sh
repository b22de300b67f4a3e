# Whiteout recipes (docs/recipes.md): rename-negative rename-onto-whiteout rename-upper-onto-whiteout rename-file-onto-whiteout.
# Upper before/after, union view, errno and the exact trace (golden).
. /tests/union-lib/recipes.sh
ul_load trace=1 || exit 1
rc_main rename-negative rename-onto-whiteout rename-upper-onto-whiteout rename-file-onto-whiteout || exit 1
rmmod unionlite
