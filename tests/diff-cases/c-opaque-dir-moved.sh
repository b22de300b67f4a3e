# The upper layer's format (ul-diff seed 2, reduced by hand to seed
# 1000's merged directory 'd0'): a directory made in the union and then
# moved into a directory that has a lower layer. overlayfs marks it
# opaque, so that a name the lower layer gains later does not merge
# into it; unionlite did so only over a lower name. The union views
# were the same; the uppers differed in trusted.overlay.opaque.
. /tests/lib/diff.sh
ul_diff_case 1000 <<'OPS'
0 mkdir 'zz' '' 0
0 creat 'zz/f' '' 0
0 rename 'zz' 'd0/zz' 0
OPS
