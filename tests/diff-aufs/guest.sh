# The differential test of diff-multilower with unionlite reading its
# three lower layers in the AUFS form (tests/lib/diff.sh, DIFF_AUFS=1):
# the middle layer's whiteouts as .wh.NAME files and its opaque marks
# as .wh..wh..opq files, mounted with aufs_whiteouts; overlayfs reads
# the layers as made. The same seeded operations on both, the trees
# compared, then the two uppers read by each union over the layers in
# its own form. One line per seed.
. /tests/lib/diff.sh
DIFF_LAYERS=3
DIFF_AUFS=1
DIFF_OPS=1000
# shellcheck disable=SC2086
ul_diff_run $DIFF_OPS 1 2
