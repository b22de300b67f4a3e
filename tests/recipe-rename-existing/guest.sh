# Whiteout recipes (docs/recipes.md): recipe 5, rename over a Q that
# exists in the union: in upper (rename-existing), or only in lower
# (rename-lower-q, rename-into-lower-dir), where recipe 3 would hide
# lower Q one step before P replaces it.
# Upper before/after, union view, errno and the exact trace (golden).
. /tests/union-lib/recipes.sh
ul_load trace=1 || exit 1
rc_main rename-existing rename-lower-q rename-into-lower-dir || exit 1
rmmod unionlite
