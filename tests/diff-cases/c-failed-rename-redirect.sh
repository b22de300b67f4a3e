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
DIFF_OPTS=
