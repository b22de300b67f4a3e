# redirect_max, the one size a user sets, is an unsigned short on both
# unions: a value past 65535 is refused (the buffer of an absolute
# redirect is redirect_max + 1 bytes, which must not wrap). After each
# value tried, a lower directory moved into another directory (recipe 6
# with redirect_dir=on) gets its absolute redirect, against overlayfs.
. /tests/union-lib/union.sh
ul_start || exit 1

# setmax V: redirect_max=V on both unions
setmax() {
	local m p
	for m in unionlite overlay; do
		p=/sys/module/$m/parameters/redirect_max
		echo "$m: redirect_max=$1: $(ul_errno sh -c "echo $1 >$p"), now $(cat $p)"
	done
}

move() {
	local base=$UL_EXT4
	ul_layers $base
	mkdir -p $base/lower/a/P $base/lower/b && echo p >$base/lower/a/P/p
	ul_mount_fs $1 $base redirect_dir=on || return 1
	echo "rename a/P b/P: $(ul-union-sys rename $UL_MNT/a/P $UL_MNT/b/P)"
	echo "b/P/p: $(cat $UL_MNT/b/P/p)"
	umount $UL_MNT
	echo "upper b/P: $(getfattr --only-values -n trusted.overlay.redirect $base/upper/b/P 2>&1)"
}
rc=0
for v in 4294967295 65536 65535; do
	setmax $v
	ul_against_overlay move || rc=1
done
for m in unionlite overlay; do echo 256 >/sys/module/$m/parameters/redirect_max; done
ul_finish $rc
