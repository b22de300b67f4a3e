# rename(P, Q), with or without RENAME_EXCHANGE, where P and Q are hard
# links of one file (upper-only).
# rename(2) does nothing then: both names have one union inode (one per
# real object), so the VFS sees the same inode and returns 0 without
# calling the union. Both names stay, and the union and the upper layer
# agree afterwards. Before the union inodes were shared, each name had
# its own, and the union moved P's dentry onto Q while the upper kept
# both; the unlink of Q then removed upper/P.
. /tests/union-lib/union.sh
ul_start trace=1 || exit 1
rc=0
for base in $UL_EXT4 $UL_EXT2; do
	ul_fresh $base
	ul_mount $base || { rc=1; continue; }
	echo data >$UL_MNT/P
	echo "## link P Q: $(ul-union-sys link $UL_MNT/P $UL_MNT/Q)"
	dmesg -c >/dev/null
	echo "## rename P Q: $(ul-union-sys rename $UL_MNT/P $UL_MNT/Q)"
	echo "## rename -x P Q: $(ul-union-sys rename -x $UL_MNT/P $UL_MNT/Q)"
	ul_trace_lines
	echo "## unlink Q: $(ul-union-sys unlink $UL_MNT/Q)"
	echo "union: [$(ls -A $UL_MNT | tr '\n' ' ')]"
	echo "upper: [$(ls -A $base/upper | tr '\n' ' ')]"
	echo "P: $(cat $UL_MNT/P 2>&1)"
	[ -e $UL_MNT/Q ] && echo "Q: still in the union" || echo "Q: gone from the union"
	ul_umount || rc=1
	ul_work $base
done
ul_finish $rc
