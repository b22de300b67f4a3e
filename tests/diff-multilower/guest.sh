# Differential test against the kernel's overlayfs over three lower
# layers (tests/lib/diff.sh, DIFF_LAYERS=3): three seeds' trees stacked,
# the middle one with whiteouts over names of the bottom one and some of
# its directories opaque; then the same seeded random operations as
# diff-overlayfs on both unions, each result and every 50 operations both
# trees compared, and each filesystem reading both uppers over the same
# layers. One line per seed.
. /tests/lib/diff.sh
DIFF_LAYERS=3
DIFF_OPS=1000
DIFF_SEEDS="1 2 3"
# shellcheck disable=SC2086
ul_diff_run $DIFF_OPS $DIFF_SEEDS
