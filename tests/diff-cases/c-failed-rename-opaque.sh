# An intended difference (ul-diff seed 1033, minimized by ul-diff min):
# a directory made in the union is renamed over a non-empty directory
# (ENOTEMPTY on both). overlayfs marks the moved directory opaque before
# the rename and leaves the mark when it fails; unionlite changes
# nothing. The lower layer has no directory at that path, so the mark
# hides nothing: ul-diff counts it as intended (docs/overlayfs.md)
# instead of a mismatch.
. /tests/lib/diff.sh
ul_diff_case 1033 <<'OPS'
1000 symlink 'd2/.hid/d2' 'f/d1/g' 56650
0 mkdir 'b/c/-dash/a' 'd0/.hid/L' 15642
0 mkdir 'c/L' 'd2/.hid/-dash' 430
0 link 'd2/.hid/d2' 'c/L/a' 56706
0 fd-rename 'b/c/-dash/a' 'c/L' 49310
OPS
