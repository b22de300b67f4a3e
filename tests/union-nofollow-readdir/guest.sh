# redirect_dir=nofollow and an upper-only directory marked impure that
# holds a moved directory with an absolute redirect. With redirect_dir=on
# a lower directory x is moved into a new directory P: P/x gets the
# redirect "/x" and P the impure mark. Mounted again with
# redirect_dir=nofollow, a lookup of P/x does not read the redirect (P
# has no lower directory), so P/x shows its upper directory alone. Then
# a readdir of P (as root and as uid 1000), its entries, a stat of P/x, and whether P keeps its
# impure mark. On unionlite and on overlayfs; the transcripts must be
# the same.
. /tests/union-lib/union.sh
ul_start || exit 1
B=$UL_EXT4
rc=0

nofollow() {
	ul_layers $B
	mkdir $B/lower/x && echo a >$B/lower/x/a
	ul_mount_fs $1 $B redirect_dir=on || return 1
	echo "mkdir P: $(ul-union-sys mkdir $UL_MNT/P 755)"
	echo "mv x P/x: $(ul-union-sys rename $UL_MNT/x $UL_MNT/P/x)"
	umount $UL_MNT
	echo "P/x's redirect: $(ul-union-sys getxattr $B/upper/P/x trusted.overlay.redirect)"
	echo "P's impure mark: $(ul-union-sys getxattr $B/upper/P trusted.overlay.impure)"
	ul_mount_fs $1 $B redirect_dir=nofollow || return 1
	echo "readdir P: $(ul-union-sys readdir $UL_MNT/P)"
	echo "readdir P as uid 1000: $(ul-union-sys as 1000 1000 readdir $UL_MNT/P)"
	echo "ls P: [$(ls -A $UL_MNT/P 2>/dev/null | tr '\n' ' ')]"
	echo "stat P/x: $(ul-union-sys stat $UL_MNT/P/x)"
	echo "ls P/x: [$(ls -A $UL_MNT/P/x 2>/dev/null | tr '\n' ' ')]"
	umount $UL_MNT
	echo "P's impure mark: $(ul-union-sys getxattr $B/upper/P trusted.overlay.impure)"
}

ul_against_overlay nofollow || rc=1
ul_finish $rc
