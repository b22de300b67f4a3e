# d_ino after the copy-up of a lower hard link (ul-diff seed 1000): 'a'
# is one of two names of a lower file; a walk fills the root's readdir
# list, then a setxattr copies 'a' up, which gives it the upper inode's
# number. unionlite kept listing the lower number as its d_ino until
# the copy-up renumbered the parent's list.
. /tests/lib/diff.sh
ul_diff_case 1000 <<'OPS'
0 walk '' '' 0
1001 setxattr 'a' 'g/c/d0' 6763
OPS
