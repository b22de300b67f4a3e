# A work dir holding work/incompat/FEATURE, as a volatile overlayfs
# mount leaves it behind (its upper may have lost writes): the mount is
# refused with EINVAL and a message naming the feature, and the work dir
# is left as it was. Once the feature's directory is gone both mount; an
# empty work/incompat is removed like any leftover. On unionlite and on
# overlayfs, transcripts compared.
. /tests/union-lib/union.sh
ul_start || exit 1
rc=0

# attempt FS: mount FS over the layers of $UL_EXT4, show what it says
attempt() {
	local b=$UL_EXT4

	dmesg -c >/dev/null
	echo "mount: $(ul_errno mount -t $1 -o lowerdir=$b/lower,upperdir=$b/upper,workdir=$b/work none $UL_MNT)"
	dmesg -c | sed -n 's/^\[[^]]*\] //; s/^\(unionlite\|overlayfs\): \(.*incompat.*\)/\2/p'
	[ -d $b/work/work ] &&
		echo "work: $(cd $b/work/work && find . | sort | tr '\n' ' ')"
	if grep -q " $UL_MNT " /proc/mounts; then
		echo "f: $(cat $UL_MNT/f)"
		umount $UL_MNT
	fi
}

incompat() {
	local b=$UL_EXT4

	ul_layers $b
	echo lower >$b/lower/f
	mkdir -p $b/work/work/incompat/volatile
	: >$b/work/work/incompat/volatile/dirty
	echo "## work/incompat/volatile/dirty"
	attempt $1
	echo "## work/incompat empty"
	rm -r $b/work/work/incompat/volatile
	attempt $1
}

ul_against_overlay incompat || rc=1
ul_finish $rc
