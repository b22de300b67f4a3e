# POSIX ACLs on a symlink (ul-diff seed 1, reduced by hand to seed
# 1000's symlink '.hid/a'): overlayfs says EOPNOTSUPP, since the real
# inode has no ->set_acl, before any other check; unionlite said EACCES
# for a default ACL and removed a default ACL that could not exist.
. /tests/lib/diff.sh
ul_diff_case 1000 <<'OPS'
0 acl '.hid/a' '' 0
0 acl '.hid/a' '' 1
0 acl '.hid/a' '' 2
1000 acl '.hid/a' '' 5
0 walk '' '' 0
OPS
