# Merged readdir of a large directory on ext4 and ext2 uppers: 10000
# lower names, 1000 of them also in upper, 1000 upper-only names, 500
# lower names whited out. Each name once, whiteouts not listed, telldir/
# seekdir positions stable over many getdents calls, d_ino of "." and ".."
# the union's (ul-union-sys readdir). Then a directory only in lower (read
# straight through): the same checks, and after a create through the
# union, rewinddir() lists the new name.
. /tests/union-lib/union.sh
ul_start || exit 1
for base in $UL_EXT4 $UL_EXT2; do
	ul_fresh $base
	mkdir $base/lower/big $base/upper/big
	i=0
	while [ $i -lt 10000 ]; do
		: >$base/lower/big/l$i
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 1000 ]; do
		echo up >$base/upper/big/l$i
		: >$base/upper/big/u$i
		i=$((i + 1))
	done
	i=1000
	while [ $i -lt 1500 ]; do
		mknod $base/upper/big/l$i c 0 0
		i=$((i + 1))
	done
	# a directory only in lower: read straight through, until a change
	mkdir $base/lower/only
	i=0
	while [ $i -lt 3000 ]; do
		: >$base/lower/only/f$i
		i=$((i + 1))
	done
	ul_mount $base || exit 1
	ul-union-sys readdir $UL_MNT/big
	ls -a $UL_MNT/big >/tmp/names
	echo "ls: $(wc -l </tmp/names) names"
	echo "dots: $(grep -c '^\.\.\{0,1\}$' /tmp/names)"
	echo "whited-out names listed: $(grep -c '^l1[0-4][0-9][0-9]$' /tmp/names)"
	echo "upper-only: $(grep -c '^u' /tmp/names)"
	echo "l5 from upper: $(cat $UL_MNT/big/l5)"
	echo "l1200: $(ls $UL_MNT/big/l1200 2>&1 | sed 's/.*: //')"
	echo "lower-only directory:"
	ul-union-sys readdir $UL_MNT/only
	ul-union-sys readdir-create $UL_MNT/only new
	ul-union-sys readdir $UL_MNT/only
	ul_umount || exit 1
done
ul_umount_disks || exit 1
rmmod unionlite
