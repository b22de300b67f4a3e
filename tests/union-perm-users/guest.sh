# Nobody gets more through the union than the layers allow: POSIX ACLs,
# hard links, setuid/setgid bits, append-only and immutable flags,
# setgid directories, O_APPEND set with fcntl and a removed working
# directory, for root, uid 1000 and uid 1001 (no supplementary groups).
#
# The kernel's overlayfs is the reference. For each upper (ext4, ext2)
# the same fixtures are built as root in fresh layers, then the same
# scenarios run through unionlite and through overlayfs, each printing a
# transcript (one line per system call: who, what, outcome), followed by
# what the upper layer holds after the unmount. The unionlite transcript
# is printed and compared with the overlayfs one; any difference is
# printed and fails the test. The golden output holds the unionlite
# transcript, so a change on either side shows. On the debug kernel only
# unionlite runs, on the ext4 upper (its checkers are the point there;
# the comparison with overlayfs and the ext2 upper are the base
# kernel's, and the transcript must be the same).
. /tests/union-lib/union.sh
ul_start || exit 1
umask 022
M=$UL_MNT
# A user's supplementary groups and the files' group 100 never meet.
G=100
# security.capability, revision 2, effective, permitted cap_net_raw
FCAP=0x0100000200200000000000000000000000000000
# Lines where unionlite is meant to differ from overlayfs, as one
# extended regular expression (none yet): left out of the comparison on
# both sides (the golden output still holds unionlite's).
INTENDED=

# ul_in DIR LABEL WHO OP ARGS...: run ul-union-sys in DIR as WHO (root
# or a uid, with the same gid); one line "LABEL WHO OP ARGS: OUTCOME",
# or the header and the outcome's lines indented when it has several.
ul_in() {
	local dir=$1 label=$2 who=$3 out
	shift 3
	if [ "$who" = root ]; then
		out=$(cd "$dir" && ul-union-sys "$@" 2>&1)
	else
		out=$(cd "$dir" && ul-union-sys as "$who" "$who" "$@" 2>&1)
	fi
	case $out in
	*"
"*)
		echo "$label$who $*:"
		echo "$out" | sed 's/^/	/'
		;;
	*)
		echo "$label$who $*: $out"
		;;
	esac
}

# run WHO OP ARGS...: through the union, paths relative to its root
run() {
	ul_in $M "" "$@"
}

# on_upper BASE OP ARGS...: as root on BASE's upper layer, after the
# union is gone
on_upper() {
	local base=$1
	shift
	ul_in "$base/upper" "upper: " root "$@"
}

# mkf PATH MODE OWNER [CONTENT]: a file made by root (mode after chown,
# which would clear setuid bits)
mkf() {
	printf '%s' "${4-x}" >"$1"
	chown "$3" "$1"
	chmod "$2" "$1"
}

# mkd PATH MODE OWNER: a directory made by root
mkd() {
	mkdir -p "$1"
	chown "$3" "$1"
	chmod "$2" "$1"
}

# set_acl PATH TYPE ACL: an ACL set directly in a layer, as root
set_acl() {
	ul-union-sys setacl "$@" | grep -v '^ok$'
}

# set_flag PATH +a|+i: an inode flag set directly in a layer
set_flag() {
	ul-union-sys setflags "$@" | grep -v '^ok$'
}

# unflag BASE: no append-only or immutable inode left in the layers'
# flags/ (scenario 5), so that they can be removed
unflag() {
	find "$1/lower/flags" "$1/upper/flags" 2>/dev/null | while read -r p; do
		[ -f "$p" ] || [ -d "$p" ] || continue
		ul-union-sys setflags "$p" -a >/dev/null 2>&1
		ul-union-sys setflags "$p" -i >/dev/null 2>&1
	done
}

# fixtures BASE: the lower layer and the upper-only objects, as root
fixtures() {
	local L=$1/lower U=$1/upper s

	# 1: ACL xattrs set by a non-owner, and by root
	mkd $L/aclx 0755 0:0
	mkf $L/aclx/f 0600 0:0 secret
	mkf $L/aclx/c 0600 0:0 secret
	mkd $L/aclx/d 0755 0:0
	mkf $L/aclx/o 2775 1000:$G own
	mkf $L/aclx/o2 2775 1000:$G own
	mkd $U/aclx 0755 0:0
	mkf $U/aclx/g 0600 0:0 secret

	# 2: ACLs of the lower layer enforced, inherited and copied up
	mkd $L/acl 0755 0:0
	for s in f f2; do
		mkf $L/acl/$s 0644 0:0 acl
		set_acl $L/acl/$s access u::rw-,u:1000:---,g::r--,m::r--,o::r--
	done
	mkd $L/acl/nd 0755 0:0
	mkf $L/acl/nd/x 0644 0:0 x
	set_acl $L/acl/nd access u::rwx,u:1000:---,g::r-x,m::r-x,o::r-x
	mkd $L/acl/dd 0755 0:0
	set_acl $L/acl/dd access u::rwx,u:1000:rwx,g::r-x,m::rwx,o::r-x
	set_acl $L/acl/dd default u::rwx,u:1000:rwx,g::r-x,m::rwx,o::r-x
	mkd $L/acl/open 0777 0:0
	mkf $L/acl/gr 0640 0:1000 gr

	# 3: hard links: upper-only ones, made through the union, of a
	# lower file, and lower ones
	mkd $L/links 0777 0:0
	mkf $L/links/e 0644 0:0 e
	mkf $L/links/h1 0644 0:0 h
	ln $L/links/h1 $L/links/h2
	mkd $U/links 0777 0:0
	mkf $U/links/a 0644 0:0 link
	ln $U/links/a $U/links/b

	# 4: setuid and setgid bits (and file capabilities) on writes
	mkd $L/suid 0755 0:0
	for s in fa wr ap tr rw ch; do
		mkf $L/suid/$s 6777 0:0 F
	done
	mkf $L/suid/mk 2666 0:0 F
	mkf $L/suid/keep 6755 0:0 F
	mkf $L/suid/cp 0666 0:0 F
	mkf $L/suid/rcp 0666 0:0 F
	setfattr -n security.capability -v $FCAP $L/suid/cp
	setfattr -n security.capability -v $FCAP $L/suid/rcp
	mkd $U/suid 0755 0:0
	for s in ufa uwr uap utr urw; do
		mkf $U/suid/$s 6777 0:0 F
	done

	# 5: append-only and immutable inodes
	mkd $L/flags 0755 0:0
	mkf $L/flags/ap 0644 0:0 A
	mkf $L/flags/im 0644 0:0 I
	mkf $L/flags/li 0644 0:0 L
	mkf $L/flags/own 0644 1000:1000 O
	mkd $L/flags/ad 0755 0:0
	mkf $L/flags/ad/x 0644 0:0 x
	set_flag $L/flags/ap +a
	set_flag $L/flags/im +i
	set_flag $L/flags/ad +a

	# 6: setgid directories of group 100, one with a default ACL
	mkd $L/sgid 0755 0:0
	for s in sg sa; do
		mkd $L/sgid/$s 2777 0:$G
		mkf $L/sgid/$s/f 0644 0:0 f
		mkd $L/sgid/$s/d 0755 0:0
	done
	set_acl $L/sgid/sa default u::rwx,u:1000:rwx,g::rwx,m::rwx,o::r-x

	# 7: O_APPEND set with fcntl()
	mkd $L/fapp 0755 0:0
	mkf $L/fapp/f 0666 0:0 F
	mkf $L/fapp/rf 0666 0:0 F
	mkd $U/fapp 0755 0:0
	mkf $U/fapp/g 0666 0:0 F
	mkf $U/fapp/rg 0666 0:0 F

	# 8: a removed directory held as the working directory
	mkd $L/rmcwd 0777 0:0
	mkd $L/rmcwd/m 0755 0:0
	mkf $L/rmcwd/m/m1 0644 0:0 m1
	mkd $L/rmcwd/n 0755 1000:1000
	mkf $L/rmcwd/n/n1 0644 1000:1000 n1

	# 9: a sticky directory
	mkd $L/sticky 1777 0:0
	mkf $L/sticky/r 0666 0:0 r
	mkf $L/sticky/u 0644 1000:1000 u
	mkd $U/sticky 1777 0:0
	mkf $U/sticky/ur 0666 0:0 ur
}

scenarios() {
	local f

	echo "## 1 ACL xattrs set by a non-owner, and by root"
	run root chmod aclx/c 600
	for f in aclx/f aclx/c aclx/g; do
		run 1000 setacl $f access u::rw-,g::rw-,o::rw-
		run 1000 setacl $f access -
		run 1000 setacl $f default u::rw-,g::rw-,o::rw-
		run 1000 setacl $f default -
		run 1000 stat $f
		run 1000 cat $f
		run root getacl $f access
	done
	run 1000 setacl aclx/d default u::rwx,g::rwx,o::rwx
	run 1000 setacl aclx/d access u::rwx,g::rwx,o::rwx
	run 1000 setacl aclx/d access -
	run 1000 stat aclx/d
	run root getacl aclx/d default
	for f in aclx/f aclx/c aclx/g; do
		run root setacl $f access u::rw-,u:1000:r--,g::---,m::r--,o::---
		run root stat $f
		run 1000 getacl $f access
		run 1000 cat $f
		run 1001 cat $f
		run root setacl $f default u::rw-,g::r--,o::r--
		run 1000 setacl $f default u::rw-,g::r--,o::r--
		run root setacl $f access -
		run root getacl $f access
		run 1000 cat $f
	done
	run root setacl aclx/d default u::rwx,u:1000:rwx,g::r-x,m::rwx,o::r-x
	run root getacl aclx/d default
	echo "# the owner, not in the file's group: setgid cleared"
	run 1000 setacl aclx/o access u::rwx,g::rwx,o::r-x
	run 1000 stat aclx/o
	run 1000 chmod aclx/o2 2775
	run 1000 stat aclx/o2

	echo "## 2 ACLs of the lower layer: enforced, inherited, copied up"
	run 1000 cat acl/f
	run 1001 cat acl/f
	run 1000 stat acl/f
	run 1000 getacl acl/f access
	run 1000 cat acl/nd/x
	run 1001 cat acl/nd/x
	run 1000 cat acl/gr
	run 1001 cat acl/gr
	run root creat acl/dd/r 666
	run 1000 creat acl/dd/n 666
	run 1000 mkdir acl/dd/nd 777
	run 1001 creat acl/dd/no 666
	echo "# umask 077"
	umask 077
	run 1000 creat acl/dd/n77 666
	run 1000 mkdir acl/dd/d77 777
	run 1000 creat acl/open/n77 666
	run 1000 mkdir acl/open/d77 777
	umask 022
	for f in acl/dd/r acl/dd/n acl/dd/nd acl/dd/n77 acl/dd/d77 \
		 acl/open/n77 acl/open/d77; do
		run root stat $f
		run root getacl $f access
	done
	run root getacl acl/dd/nd default
	run root getacl acl/dd/d77 default
	run 1001 cat acl/dd/n
	echo "# copy-up keeps the ACL"
	run root utime acl/f 1000000000
	run root chmod acl/f2 640
	for f in acl/f acl/f2; do
		run root stat $f
		run root getacl $f access
		run 1000 cat $f
		run 1001 cat $f
	done

	echo "## 3 hard links: one inode, one mode"
	run 1000 stat links/a
	run 1000 stat links/b
	run root chmod links/a 600
	run 1000 stat links/b
	run 1000 cat links/b
	run root chown links/a 1000 1000
	run 1000 stat links/b
	run 1000 chmod links/b 6777
	run 1000 stat links/a
	run 1001 write links/a W
	run 1000 stat links/b
	run 1000 cat links/b
	run 1000 rename links/a links/b
	run 1000 rename -x links/a links/b
	run 1000 stat links/a
	run 1000 stat links/b
	echo "# linked through the union"
	run root creat links/c 644
	run root link links/c links/d
	run 1000 stat links/c
	run 1000 stat links/d
	run root chmod links/c 600
	run 1000 stat links/d
	run 1000 cat links/d
	run 1000 stat links/e
	run root link links/e links/f
	run root chmod links/f 600
	run 1000 stat links/e
	run 1000 cat links/e
	echo "# lower hard links (copy-up breaks them)"
	run 1000 stat links/h1
	run 1000 stat links/h2
	run root chmod links/h1 600
	run 1000 stat links/h1
	run 1000 stat links/h2
	run 1000 cat links/h2

	echo "## 4 setuid, setgid and file capabilities dropped on writes"
	run 1000 fallocate suid/fa 0 4096
	run 1000 fallocate suid/ufa 0 4096
	run 1000 write suid/wr W
	run 1000 write suid/uwr W
	run 1000 append suid/ap W
	run 1000 append suid/uap W
	run 1000 truncate suid/tr 0
	run 1000 truncate suid/utr 0
	run root write suid/rw R
	run root write suid/urw R
	run 1000 write suid/mk M
	run root chown suid/ch 0 0
	run root utime suid/keep 1000000000
	for f in fa ufa wr uwr ap uap tr utr rw urw mk ch keep; do
		run 1000 stat suid/$f
	done
	run root listxattr suid/cp
	run 1000 write suid/cp C
	run root listxattr suid/cp
	run root write suid/rcp C
	run root listxattr suid/rcp

	echo "## 5 append-only and immutable inodes"
	run root getflags flags/ap
	run root append flags/ap B
	run root getflags flags/ap
	run root truncate flags/ap 0
	run root open flags/ap w
	run root write flags/ap X
	run root fcntl-noappend flags/ap
	run root chmod flags/ap 600
	run root setxattr flags/ap user.x 1
	run root link flags/ap flags/ap2
	run root unlink flags/ap
	run root rename flags/ap flags/ap3
	run 1000 getflags flags/ap
	run 1000 setflags flags/ap -a
	run root getflags flags/ap
	run root cat flags/ap
	run root setflags flags/ap -a
	run root getflags flags/ap
	run root unlink flags/ap
	run root getflags flags/im
	run root append flags/im X
	run root open flags/im w
	run root truncate flags/im 0
	run root chmod flags/im 600
	run root setxattr flags/im user.x 1
	run root link flags/im flags/im2
	run root unlink flags/im
	run root rename flags/im flags/im3
	run 1000 setflags flags/im -i
	run root setflags flags/im -i
	run root getflags flags/im
	run root append flags/im X
	run root cat flags/im
	run root setflags flags/li +i
	run root getflags flags/li
	run root append flags/li X
	run root creat flags/n 644
	run root setflags flags/n +a
	run root getflags flags/n
	run root append flags/n N
	run root unlink flags/n
	run 1000 setflags flags/own +a
	run 1000 setflags flags/own +i
	run 1000 getflags flags/own
	run root getflags flags/ad
	run root unlink flags/ad/x
	run root creat flags/ad/y 644
	run root getflags flags/ad

	echo "## 6 setgid directories (group $G), over whiteouts and not"
	for f in sgid/sg sgid/sa; do
		run root unlink $f/f
		run root rmdir $f/d
		run 1000 creat $f/f 644
		run 1000 mkdir $f/d 755
		run 1000 creat $f/g 644
		run 1000 mkdir $f/e 755
		run 1000 creat $f/s 2755
		echo "# umask 077"
		umask 077
		run 1000 creat $f/h 666
		run 1000 mkdir $f/k 777
		umask 022
	done
	for f in f d g e s h k; do
		run 1000 stat sgid/sg/$f
	done
	for f in f d g e s h k; do
		run 1000 stat sgid/sa/$f
		run 1000 getacl sgid/sa/$f access
	done
	for f in d e k; do
		run 1000 getacl sgid/sa/$f default
	done

	echo "## 7 O_APPEND set with fcntl()"
	for f in f g; do
		run 1000 fcntl-append fapp/$f Z
		run 1000 cat fapp/$f
		run root fcntl-append fapp/r$f Z
		run root cat fapp/r$f
	done

	echo "## 8 a removed directory held as the working directory"
	run root unlink rmcwd/m/m1
	run root removed-cwd rmcwd/m m1
	run 1000 unlink rmcwd/n/n1
	run 1000 removed-cwd rmcwd/n n1
	echo "rmcwd: [$(ls -A $M/rmcwd | tr '\n' ' ')]"

	echo "## 9 a sticky directory"
	run 1000 rename sticky/u sticky/r
	run 1000 rename sticky/r sticky/r2
	run 1000 unlink sticky/ur
	run 1000 rename sticky/ur sticky/u
	run 1000 utime sticky/r 0
	run 1000 write sticky/r W
	run 1000 rename sticky/u sticky/u2
	run 1000 cat sticky/r
}

# upper_checks BASE: what the upper layer holds, the union unmounted
upper_checks() {
	local U=$1/upper d f

	echo "## upper layer"
	for d in aclx acl acl/dd links suid flags flags/ad sgid/sg sgid/sa \
		 fapp rmcwd sticky; do
		echo "$d: [$(ls -A $U/$d 2>&1 | tr '\n' ' ')]"
	done
	for f in aclx/f aclx/c aclx/g acl/f acl/f2 acl/dd acl/dd/n sgid/sa/f \
		 sgid/sa/d; do
		on_upper $1 getacl $f access
	done
	for f in acl/dd sgid/sa sgid/sa/d sgid/sa/e; do
		on_upper $1 getacl $f default
	done
	for f in im li n ad; do
		on_upper $1 getxattr flags/$f trusted.overlay.protattr
		on_upper $1 getflags flags/$f
	done
	for f in rmcwd sgid/sg sgid/sa; do
		echo "# $f"
		ul_tree $U/$f
	done
	work_left $1
}

# work_left BASE: what is left in the work directory, whiteouts aside
# (overlayfs keeps one there, the one its whiteouts are links of)
work_left() {
	local w=$1/work/work p left=

	for p in $(ls -A $w 2>/dev/null); do
		if [ -c $w/$p ] && [ "$(stat -c %t:%T $w/$p)" = 0:0 ]; then
			continue
		fi
		left="$left$p "
	done
	echo "work, whiteouts aside: [$left]"
}

# compared FILE: a transcript without the intended differences
compared() {
	if [ -n "$INTENDED" ]; then
		grep -Ev "$INTENDED" "$1"
	else
		cat "$1"
	fi
}

# mount_fs FS BASE: unionlite or the kernel's overlayfs over BASE's layers
mount_fs() {
	case $1 in
	unionlite) ul_mount $2 ;;
	overlay) mount -t overlay -o lowerdir=$2/lower,upperdir=$2/upper,workdir=$2/work overlay $M ;;
	esac
}

rc=0
fses="unionlite overlay"
bases="$UL_EXT4 $UL_EXT2"
# the debug kernel checks the module's paths, the same on either upper
[ "$UL_VARIANT" = debug ] && fses=unionlite bases=$UL_EXT4
for base in $bases; do
	for fs in $fses; do
		unflag $base
		ul_layers $base
		fixtures $base
		if ! mount_fs $fs $base; then
			echo "mount -t $fs failed" >/tmp/t.$fs
			rc=1
			continue
		fi
		scenarios >/tmp/t.$fs 2>&1
		umount $M || rc=1
		upper_checks $base >>/tmp/t.$fs 2>&1
	done
	unflag $base
	echo "### upper on $(ul_fstype $base)"
	cat /tmp/t.unionlite
	if [ "$fses" = unionlite ]; then
		echo "## against overlayfs: on the base kernel"
		continue
	fi
	compared /tmp/t.unionlite >/tmp/c.unionlite
	compared /tmp/t.overlay >/tmp/c.overlay
	if diff -u -L unionlite -L overlayfs /tmp/c.unionlite /tmp/c.overlay >/tmp/t.diff; then
		echo "## against overlayfs: same"
	else
		echo "## against overlayfs: DIFFERENT"
		cat /tmp/t.diff
		rc=1
	fi
done
ul_finish $rc
