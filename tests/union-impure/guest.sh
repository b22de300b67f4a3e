# The impure mark (xfstests overlay/038): a copied-up file, which keeps
# its lower inode number, moved into a directory of the upper layer alone
# marks that directory impure (its readdir must look that entry up for
# its d_ino); once the entries that needed it are gone, the next listing
# drops the mark. Before and after, d_ino is st_ino for ".", "..", a
# subdirectory and the moved file, and a listing no longer shows a
# removed entry. On unionlite and on overlayfs, transcripts compared.
. /tests/union-lib/union.sh
ul_start || exit 1
B=$UL_EXT4
rc=0

# mark: the impure xattr of upper/pure
mark() {
	echo "impure: $(ul-union-sys getxattr $B/upper/pure trusted.overlay.impure)"
}

# ino NAME: is the d_ino of pure/NAME its st_ino?
ino() {
	ul-union-sys inos $UL_MNT/pure/$1 |
		awk -v n=$1 '{ split($3, s, "="); split($4, d, "="); print n ": d_ino " (s[2] == d[2] ? "= st_ino" : "!= st_ino") }'
}

impure() {
	local fs=$1
	ul_layers $B
	echo lower >$B/lower/f && echo lower >$B/lower/g
	ul_mount_fs $fs $B || return 1
	mkdir $UL_MNT/pure $UL_MNT/pure/sub
	mark
	echo "mv f g pure/: $(ul-union-sys rename $UL_MNT/f $UL_MNT/pure/f) $(ul-union-sys rename $UL_MNT/g $UL_MNT/pure/g)"
	mark
	echo "ls pure: [$(ls $UL_MNT/pure | tr '\n' ' ')]"
	echo "readdir pure: $(ul-union-sys readdir $UL_MNT/pure)"
	ino sub; ino f
	echo "rm pure/f: $(ul-union-sys unlink $UL_MNT/pure/f)"
	echo "ls pure: [$(ls $UL_MNT/pure | tr '\n' ' ')]"
	mark
	echo "rm pure/g: $(ul-union-sys unlink $UL_MNT/pure/g)"
	echo "ls pure: [$(ls $UL_MNT/pure | tr '\n' ' ')]"
	mark
	echo "readdir pure: $(ul-union-sys readdir $UL_MNT/pure)"
	ino sub
	umount $UL_MNT
	ul_mount_fs $fs $B || return 1
	echo "after a remount: $(ul-union-sys readdir $UL_MNT/pure)"
	ino sub
	mark
	umount $UL_MNT
}

ul_against_overlay impure || rc=1
ul_finish $rc
