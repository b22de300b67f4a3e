# A user writing through the union never gets more of the upper
# filesystem than it gives that user itself: the mounter's credentials
# lose CAP_SYS_RESOURCE, as overlayfs's do. The upper is a 64 MiB ext4
# (mke2fs -m 50) mounted with resuid=1234: half of its blocks are kept
# for uid 1234. uid 1000 fills a file on the upper itself, then through
# overlayfs and unionlite (each mounted by root on a fresh upper), until
# a write fails. Each union must stop at the same point as the upper
# itself, within 1 MiB; unionlite with the mounter's CAP_SYS_RESOURCE
# would write into the reserved half. Then root fills through unionlite:
# the mounter's credentials reach no reserved block either, as on
# overlayfs.
. /tests/union-lib/union.sh
ul_start || exit 1
R=/mnt/resv
as="ul-union-sys as 1000 1000"
rc=0

# resv_fs: a fresh upper filesystem at $R with upper, work and lower
resv_fs() {
	grep -q " $R " /proc/mounts && umount $R
	rm -f /tmp/resv.img
	dd if=/dev/zero of=/tmp/resv.img bs=1M count=0 seek=64 2>/dev/null
	/usr/sbin/mke2fs -q -F -t ext4 -b 4096 -m 50 /tmp/resv.img || return 1
	mkdir -p $R $UL_MNT && mount -o loop,resuid=1234 /tmp/resv.img $R || return 1
	mkdir $R/lower $R/upper $R/work && chmod 1777 $R/upper
}

# fill_kib WHO PATH: KiB WHO (root, or uid 1000) writes to PATH before a
# write fails (the errno must be ENOSPC)
fill_kib() {
	local out
	if [ "$1" = root ]; then
		out=$(ul-union-sys fill "$2")
	else
		out=$($as fill "$2")
	fi
	case $out in
	*" ENOSPC") echo "${out% *}" ;;
	*) echo "fill $2 as $1: $out" >&2; echo 0 ;;
	esac
}

# near A B: A and B within 1024 KiB of each other
near() {
	[ $(($1 - $2)) -le 1024 ] && [ $(($2 - $1)) -le 1024 ]
}

resv_fs || exit 1
direct=$(fill_kib 1000 $R/upper/big)
echo "uid 1000 on the upper itself: $((direct / 1024)) MiB of 64 (half reserved)"
for who in 1000 root; do
	for fs in overlay unionlite; do
		resv_fs || exit 1
		mount -t $fs -o lowerdir=$R/lower,upperdir=$R/upper,workdir=$R/work none $UL_MNT || exit 1
		got=$(fill_kib $who $UL_MNT/big)
		umount $UL_MNT
		if near "$got" "$direct"; then
			echo "$who through $fs: as much as uid 1000 on the upper"
		else
			echo "$who through $fs: $got KiB, the upper gives uid 1000 $direct KiB"
			rc=1
		fi
	done
done
umount $R
ul_finish $rc
