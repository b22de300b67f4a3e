# Whiteout recipes (docs/recipes.md): rmdir-merged rmdir-lower.
# Upper before/after, union view, errno and the exact trace (golden).
. /tests/union-lib/recipes.sh
ul_load trace=1 || exit 1
rc_main rmdir-merged rmdir-lower || exit 1
rmmod unionlite
