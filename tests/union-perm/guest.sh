# Permission checks as an unprivileged user (uid 1000) on ext4 and ext2
# uppers: the caller's permission is checked on the union object before
# anything is copied up or created; new objects belong to the caller.
. /tests/union-lib/union.sh
ul_start || exit 1
as="ul-union-sys as 1000 1000"
for base in $UL_EXT4 $UL_EXT2; do
	ul_fresh $base
	L=$base/lower U=$base/upper
	echo ro >$L/ro; chmod 644 $L/ro
	echo rw >$L/rw; chmod 666 $L/rw
	echo secret >$L/secret; chmod 600 $L/secret
	echo mine >$L/mine; chown 1000:1000 $L/mine; chmod 444 $L/mine
	mkdir -m 755 $L/closed; mkdir -m 777 $L/open; mkdir -m 700 $L/private
	echo x >$L/private/x
	mkdir -m 1777 $L/sticky; echo r >$L/sticky/rootfile; chmod 666 $L/sticky/rootfile
	ul_mount $base || exit 1
	M=$UL_MNT
	echo "## lower files"
	$as open $M/ro w
	$as truncate $M/ro 0
	$as chmod $M/ro 666
	$as setxattr $M/ro user.x 1
	$as cat $M/secret
	$as append $M/rw +
	$as chmod $M/mine 644
	$as chown $M/mine 0 0
	echo "## lower directories"
	$as creat $M/closed/new 644
	$as mkdir $M/closed/newdir 755
	$as creat $M/open/new 644
	$as mkdir $M/open/newdir 700
	$as cat $M/private/x
	$as creat $M/private/y 644
	$as unlink $M/sticky/rootfile
	echo "## upper-only objects"
	$as unlink $M/open/new
	$as rmdir $M/open/newdir
	$as creat $M/open/again 600
	$as mknod $M/open/dev c 1 3 600
	$as chown $M/open/again 0 0
	echo "## trusted.* as a user"
	$as getxattr $M/open trusted.overlay.opaque
	$as setxattr $M/open trusted.x 1
	echo "## union"
	ul_tree $M
	echo "## upper"
	ul_tree $U
	ul_umount || exit 1
	ul_work $base
done
ul_umount_disks || exit 1
rmmod unionlite
