# Whiteout recipes (docs/recipes.md): unlink-lower unlink-upper.
# Upper before/after, union view, errno and the exact trace (golden).
. /tests/union-lib/recipes.sh
ul_load trace=1 || exit 1
rc_main unlink-lower unlink-upper || exit 1
rmmod unionlite
