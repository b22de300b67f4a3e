# A case the differential tester found (ul-diff seed 18, op 531),
# reduced by hand: RENAME_EXCHANGE of a copied-up file P with an opaque
# directory Q made over a whiteout, where the lower layer has both names.
# The directory lands on P's lower name. overlayfs exchanges them (the
# directory is opaque already, or is marked so); unionlite returned EXDEV.
# Both unions side by side, each then listed, then remounted and listed.
. /tests/lib/common.sh
ul_mount_disks || exit 1
insmod /lib/modules/unionlite.ko || exit 1
rc=0
L=$UL_EXT4/lower
mkdir -p $L /mnt/u
echo lower-p >$L/p
ln -s somewhere $L/q
mkdir $L/d
echo lower-x >$L/d/x
for fs in overlay unionlite; do
	mkdir -p $UL_EXT4/u-$fs $UL_EXT4/w-$fs
	mnt() {
		mount -t $fs -o lowerdir=$L,upperdir=$UL_EXT4/u-$fs,workdir=$UL_EXT4/w-$fs none /mnt/u
	}
	mnt || rc=1
	echo "## $fs"
	rm /mnt/u/q && mkdir /mnt/u/q && echo new >/mnt/u/q/z
	chmod 600 /mnt/u/p
	echo "exchange p q: $(ul-union-sys rename -x /mnt/u/p /mnt/u/q)"
	# a non-opaque upper directory onto a lower directory's name
	mkdir /mnt/u/e
	echo "exchange e d: $(ul-union-sys rename -x /mnt/u/e /mnt/u/d)"
	ls -1F /mnt/u | tr '\n' ' '; echo
	ls -1 /mnt/u/p /mnt/u/d 2>&1 | tr '\n' ' '; echo
	umount /mnt/u && mnt || rc=1
	echo "after a remount: $(ls -1F /mnt/u | tr '\n' ' ')/ p: $(ls /mnt/u/p 2>&1 | tr '\n' ' ')"
	umount /mnt/u || rc=1
done
rmmod unionlite || rc=1
ul_umount_disks || rc=1
exit $rc
