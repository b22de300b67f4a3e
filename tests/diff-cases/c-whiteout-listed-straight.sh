# The tester itself (ul-diff, make fuzz LAYERS=3, seed 4032, minimized
# to its first walk): in seed 4032's three layers the middle one holds
# a whiteout in né/né, a directory that nothing merges with (its parent
# is opaque there). overlayfs 6.1 reads such a directory straight, so
# readdir lists the whiteout and lookup finds nothing; unionlite does
# the same (docs/unionlite.md). ul-diff counted the listed name on
# unionlite's side only and called it a divergence; it now counts both.
. /tests/lib/diff.sh
ul_diff_case 4032 layers <<'OPS'
0 walk '' '' 0
OPS
