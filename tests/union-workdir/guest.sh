# The work dir: made anew at every mount with no permission bits and no
# ACLs, so that nothing built in it inherits from the directory holding
# it, and a union whose work dir cannot be made is read-only.
#  - A default ACL on workdir (xfstests overlay/023): work has mode 000
#    and no ACL, access or default, after the mount.
#  - A default ACL on workdir naming uid 1000: a root-only lower file
#    copied up (chmod, by root) and a file made over a whiteout (by root,
#    mode 600) must stay unreadable to uid 1000, and carry no ACL.
#  - An immutable workdir (overlay/035), with and without a work dir
#    left by an earlier mount: the union mounts read-only; a create is
#    EROFS, remount rw is refused, the view is there.
#  - A file where the work dir goes: removed, and the union mounts.
# Each on unionlite and overlayfs, transcripts compared.
. /tests/union-lib/union.sh
ul_start || exit 1
B=$UL_EXT4
rc=0

# acls WHAT PATH: access and default ACL, and mode, of PATH
acls() {
	echo "$1: mode $(stat -c %A $2) access $(ul-union-sys getacl $2 access) default $(ul-union-sys getacl $2 default)"
}

workdir() {
	local fs=$1
	ul_layers $B
	echo "## default ACL on workdir"
	ul-union-sys setacl $B/work default "u::rwx,g::r-x,o::rwx" >/dev/null
	ul_mount_fs $fs $B || return 1
	acls work $B/work/work
	umount $UL_MNT

	echo "## default ACL naming uid 1000 on workdir"
	ul_layers $B
	ul-union-sys setacl $B/work default "u::rwx,u:1000:rwx,g::r-x,m::rwx,o::r-x" >/dev/null
	echo secret >$B/lower/f && chmod 640 $B/lower/f
	echo gone >$B/lower/g
	ul_mount_fs $fs $B || return 1
	echo "chmod f (root): $(ul-union-sys chmod $UL_MNT/f 640)"
	echo "rm g (root): $(ul-union-sys unlink $UL_MNT/g)"
	echo "creat g 600 (root): $(ul-union-sys creat $UL_MNT/g 600)"
	echo "uid 1000 reads f: $(ul-union-sys as 1000 1000 cat $UL_MNT/f)"
	echo "uid 1000 reads g: $(ul-union-sys as 1000 1000 cat $UL_MNT/g)"
	umount $UL_MNT
	acls "upper f" $B/upper/f
	acls "upper g" $B/upper/g
	acls work $B/work/work

	echo "## immutable workdir, no work dir in it"
	ul_layers $B
	echo lower >$B/lower/l
	ul-union-sys setflags $B/work +i >/dev/null
	echo "mount: $(ul_errno ul_mount_fs $fs $B)"
	echo "options: $(awk -v m=$UL_MNT '$2 == m { split($4, o, ","); print o[1] }' /proc/mounts)"
	echo "read l: $(cat $UL_MNT/l 2>&1)"
	echo "creat x: $(ul-union-sys creat $UL_MNT/x 644)"
	echo "remount rw: $(ul_errno mount -o remount,rw $UL_MNT)"
	ul_umount_if
	ul-union-sys setflags $B/work -i >/dev/null
	echo "## immutable workdir, a work dir left in it"
	ul_mount_fs $fs $B && umount $UL_MNT
	ul-union-sys setflags $B/work +i >/dev/null
	echo "mount: $(ul_errno ul_mount_fs $fs $B)"
	echo "options: $(awk -v m=$UL_MNT '$2 == m { split($4, o, ","); print o[1] }' /proc/mounts)"
	echo "creat x: $(ul-union-sys creat $UL_MNT/x 644)"
	ul_umount_if
	ul-union-sys setflags $B/work -i >/dev/null
	echo "## a file where the work dir goes"
	ul_layers $B
	echo stray >$B/work/work
	echo "mount: $(ul_errno ul_mount_fs $fs $B)"
	echo "options: $(awk -v m=$UL_MNT '$2 == m { split($4, o, ","); print o[1] }' /proc/mounts)"
	echo "creat x: $(ul-union-sys creat $UL_MNT/x 644)"
	ul_umount_if
	echo "work: $(stat -c %F $B/work/work)"
	return 0
}

ul_against_overlay workdir || rc=1
ul_finish $rc
