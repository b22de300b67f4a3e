# Whiteout recipes (docs/recipes.md): exchange rename-noreplace noreplace-onto-whiteout rename-lower-dir.
# Upper before/after, union view, errno and the exact trace (golden).
. /tests/union-lib/recipes.sh
ul_load trace=1 || exit 1
rc_main exchange rename-noreplace noreplace-onto-whiteout rename-lower-dir || exit 1
rmmod unionlite
