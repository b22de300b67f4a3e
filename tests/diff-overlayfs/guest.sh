# Differential test against the kernel's overlayfs (tests/lib/diff.sh,
# tests/helpers/ul-diff.c): the same seeded random operations (creates,
# writes, truncates, fallocate, mkdir, rmdir, unlink, rename with each
# flag, link, symlink, mkfifo, chmod, chown, utimes, user xattrs, ACLs,
# fcntl flags, renames under an open descriptor, a removed working
# directory, readdir while the directory changes, reads; as root and as
# uid 1000 and 1001) on overlayfs and on unionlite over one lower tree;
# each result and every 50 operations both trees must match; then each
# filesystem reads both uppers. One line per seed.
. /tests/lib/diff.sh
DIFF_OPS=1000
DIFF_SEEDS="1 2 3"
# shellcheck disable=SC2086
ul_diff_run $DIFF_OPS $DIFF_SEEDS
