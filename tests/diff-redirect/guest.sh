# The differential test of diff-overlayfs and diff-multilower with both
# unions mounted with redirect_dir=on: ul-diff's renames of directories
# that exist in a lower layer move them (recipe 6 on unionlite,
# ovl_set_redirect() on overlayfs) instead of failing with EXDEV on
# both; the results, the trees and then the two uppers read by each
# union must match, over one lower layer and over three (whose middle
# one holds whiteouts and opaque directories). One line per seed;
# make fuzz REDIRECT=1 runs more.
. /tests/lib/diff.sh
DIFF_OPTS=redirect_dir=on
ul_diff_layers13 1000 "11 12" "14"
