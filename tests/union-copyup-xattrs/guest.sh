# What a copy-up takes with it, on an ext4 upper and on a tmpfs one
# (which on 6.1 has trusted.* and security.* xattrs but no user.* ones,
# and no O_DIRECT; 6.12's has both): every xattr of the lower object but
# the union's own trusted.overlay.*, user.*, trusted.* and security.*
# alike; one the upper cannot hold (user.* on 6.1's tmpfs) is left
# behind and the copy-up goes on. And a descriptor opened read-only,
# then given O_DIRECT with fcntl(F_SETFL), reads; after the file was
# copied up it reads the copy, which on 6.1's tmpfs cannot do O_DIRECT:
# EINVAL, on both.
# On unionlite and on overlayfs, transcripts compared.
. /tests/union-lib/union.sh
ul_start || exit 1
rc=0
mkdir -p /mnt/tmp

copyup() {
	local fs=$1 base
	for base in $UL_EXT4 /mnt/tmp; do
		echo "## upper on $(ul_fstype $base)"
		rm -rf $UL_EXT4/lower && mkdir -p $UL_EXT4/lower
		rm -rf $base/upper $base/work && mkdir -p $base/upper $base/work $UL_MNT
		echo x >$UL_EXT4/lower/f
		dd if=/dev/zero of=$UL_EXT4/lower/direct bs=4k count=2 2>/dev/null
		setfattr -n user.u -v 1 $UL_EXT4/lower/f
		setfattr -n trusted.t -v 2 $UL_EXT4/lower/f
		setfattr -n security.s -v 3 $UL_EXT4/lower/f
		mount -t $fs -o lowerdir=$UL_EXT4/lower,upperdir=$base/upper,workdir=$base/work none $UL_MNT || return 1
		echo "chmod f: $(ul-union-sys chmod $UL_MNT/f 600)"
		echo "upper f: $(ul-union-sys listxattr $base/upper/f)"
		echo "union f: $(ul-union-sys listxattr $UL_MNT/f)"
		ul-union-sys odirect-follow $UL_MNT/direct
		umount $UL_MNT
	done
}

mount -t tmpfs none /mnt/tmp || exit 1
ul_against_overlay copyup || rc=1
umount /mnt/tmp
ul_finish $rc
