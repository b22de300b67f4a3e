# Inode flags at copy-up (xfstests overlay/078): lower files and a
# directory with noatime (A), sync (S), append-only (a) and immutable (i)
# in several combinations, copied up (a chmod, an appending write, a
# flag cleared through the union, a file created in the directory), must
# show the same flags through the union afterwards and after a remount:
# A and S on the upper inode, a and i in the union's own record of them.
# On unionlite and on overlayfs, transcripts compared.
. /tests/union-lib/union.sh
ul_start || exit 1
B=$UL_EXT4
rc=0

# lower NAME FLAG...: a lower file with those flags
lower() {
	local n=$1 f
	shift
	echo $n >$B/lower/$n
	for f in "$@"; do
		ul-union-sys setflags $B/lower/$n +$f >/dev/null
	done
}

# show NAME: the flags through the union
show() {
	echo "$1: $(ul-union-sys lsattr $UL_MNT/$1)"
}

flags() {
	local fs=$1 n
	for n in $(ls $B/lower 2>/dev/null); do
		ul-union-sys setflags $B/lower/$n -i >/dev/null 2>&1
		ul-union-sys setflags $B/lower/$n -a >/dev/null 2>&1
	done
	ul_layers $B
	lower A A; lower S S; lower AS A S; lower aA a A; lower aS a S; lower iA i A
	mkdir $B/lower/dA && ul-union-sys setflags $B/lower/dA +A >/dev/null
	ul_mount_fs $fs $B || return 1
	for n in A S AS aA aS iA dA; do show $n; done
	echo "chmod A S AS: $(ul-union-sys chmod $UL_MNT/A 600) $(ul-union-sys chmod $UL_MNT/S 600) $(ul-union-sys chmod $UL_MNT/AS 600)"
	echo "append aA aS: $(ul-union-sys append $UL_MNT/aA x) $(ul-union-sys append $UL_MNT/aS x)"
	echo "clear i of iA: $(ul-union-sys setflags $UL_MNT/iA -i)"
	echo "creat dA/f: $(ul-union-sys creat $UL_MNT/dA/f 644)"
	for n in A S AS aA aS iA dA; do show $n; done
	umount $UL_MNT
	echo "upper:"
	for n in A S AS aA aS iA dA; do echo "$n: $(ul-union-sys lsattr $B/upper/$n)"; done
	ul_mount_fs $fs $B || return 1
	echo "after a remount:"
	for n in A S AS aA aS iA dA; do show $n; done
	umount $UL_MNT
	for n in aA aS; do ul-union-sys setflags $B/lower/$n -a >/dev/null; done
	ul-union-sys setflags $B/lower/iA -i >/dev/null
}

ul_against_overlay flags || rc=1
ul_finish $rc
