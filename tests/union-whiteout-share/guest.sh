# Whiteouts share one inode (unionfs-lite/upper.c, ul_do_whiteout()): each
# is a hard link of work/#whiteout, made at the first whiteout the work
# dir is locked for, replaced there when full, removed at umount. Here
# whiteout_links=3 makes it full at 3 links. The unlinks go through the
# work dir; the renames (recipe 3) make the whiteout in the upper dir,
# where a full shared whiteout cannot be replaced: a new inode instead.
# Each upper whiteout is shown with its link count and a letter per
# inode (A: the first inode seen, B: the next one...).
. /tests/union-lib/union.sh
ul_start trace=1 whiteout_links=3 || exit 1
rc=0
# ul_wh_inodes BASE: every whiteout in work/ and upper/, one line each,
# "where/name: WHITEOUT nlink=N inode=X", X a letter per inode
ul_wh_inodes() {
	(cd "$1" && { find work/work -type c | sort; find upper -type c | sort; } |
		xargs -r stat -c '%n %h %i') |
		awk '{ if (!($3 in id)) id[$3] = sprintf("%c", 65 + n++)
		       sub("^work/work/", "work/", $1)
		       print $1 ": WHITEOUT nlink=" $2 " inode=" id[$3] }'
}
for base in $UL_EXT4 $UL_EXT2; do
	ul_fresh $base
	for f in f1 f2 f3 f4 f5 g1 g2; do echo $f >$base/lower/$f; done
	echo upper-g1 >$base/upper/g1
	echo upper-g2 >$base/upper/g2
	ul_mount $base || { rc=1; continue; }
	dmesg -c >/dev/null
	for f in f1 f2 f3 f4 f5; do
		echo "## unlink $f: $(ul-union-sys unlink $UL_MNT/$f)"
		ul_trace_lines
	done
	echo "## work while mounted: [$(ls -A $base/work/work | tr '\n' ' ')]"
	for g in g1 g2; do
		echo "## rename $g ${g}x: $(ul-union-sys rename $UL_MNT/$g $UL_MNT/${g}x)"
		ul_trace_lines
	done
	ul_wh_inodes $base
	ul_umount || rc=1
	echo "## umount"
	ul_trace_lines
	ul_work $base
	ul_wh_inodes $base
	ul_mount $base || { rc=1; continue; }
	echo "union after mounting again: [$(ls -A $UL_MNT | tr '\n' ' ')]"
	ul_umount || rc=1
done
ul_finish $rc
