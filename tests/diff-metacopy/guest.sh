# The differential test of diff-overlayfs and diff-multilower with both
# unions mounted with metacopy=on (which turns redirect_dir=on on): a
# chmod, chown, utimes, xattr change or link of a lower file copies its
# metadata only, a rename gives the copy a redirect to its data, a write
# or truncate copies the data. The results, the trees and then the two
# uppers (raw: the metacopy and redirect marks count) read by each union
# must match, over one lower layer and over three (whose middle one holds
# whiteouts and opaque directories). One line per seed; make fuzz
# METACOPY=1 runs more.
. /tests/lib/diff.sh
DIFF_OPTS=metacopy=on
ul_diff_layers13 1000 "21" "24"
