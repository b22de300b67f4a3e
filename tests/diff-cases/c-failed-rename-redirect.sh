# An intended difference (ul-diff seed 11 with redirect_dir=on, from
# diff-redirect, minimized by ul-diff min, then d1 copied up first): a
# merged directory is renamed over a non-empty upper directory in
# another parent (ENOTEMPTY on both). overlayfs sets the moved
# directory's redirect (its own path) before the rename and leaves it
# when the rename fails; unionlite checks the target first and changes
# nothing. A redirect to where the directory is changes no view: ul-diff
# counts it as intended (docs/overlayfs.md) instead of a mismatch.
# Without the first op, d1 is copied up by the rename on both, with the
# same redirect (recipe 6 puts it on the copy): no difference at all.
# Third (make fuzz REDIRECT=1, seeds 2004 and 3000): d1's parent was
# moved first, so overlayfs's leftover redirect names d1's origin by
# the parent's old name, not d1's path; the copies' origins are the
# same, and that counts as intended too. Fourth (seed 3007 over three
# layers): d1 then moves within its parent; overlayfs keeps the
# absolute redirect it left, unionlite writes d1's name: two redirects
# to one origin, intended as well.
. /tests/lib/diff.sh
DIFF_OPTS=redirect_dir=on
ul_diff_case 11 <<'OPS'
0 mkdir '-dash/c/d1/new' '' 0
0 mkdir 'sub/g/sub' 'b/d1' 48493
0 symlink 'sub/g/sub/né' 'f' 35004
0 rename '-dash/c/d1' 'sub/g/sub' 35449
OPS
ul_diff_case 11 <<'OPS'
0 mkdir 'sub/g/sub' 'b/d1' 48493
0 symlink 'sub/g/sub/né' 'f' 35004
0 rename '-dash/c/d1' 'sub/g/sub' 35449
OPS
ul_diff_case 11 <<'OPS'
0 rename '-dash/c' '-dash/c2' 0
0 mkdir '-dash/c2/d1/new' '' 0
0 mkdir 'sub/g/sub' 'b/d1' 48493
0 symlink 'sub/g/sub/né' 'f' 35004
0 rename '-dash/c2/d1' 'sub/g/sub' 35449
OPS
ul_diff_case 11 <<'OPS'
0 mkdir '-dash/c/d1/new' '' 0
0 mkdir 'sub/g/sub' 'b/d1' 48493
0 symlink 'sub/g/sub/né' 'f' 35004
0 rename '-dash/c/d1' 'sub/g/sub' 35449
0 rename '-dash/c/d1' '-dash/c/d9' 0
OPS
DIFF_OPTS=
