# metacopy=on on unionlite and on overlayfs over the same layers, each
# scenario's transcript compared: a chmod, chown, utimes, setxattr or
# link of a lower file copies its metadata only (the upper copy holds
# trusted.overlay.metacopy, no data blocks), the union still reads the
# lower data and reports its st_blocks; a rename or link gives the copy
# a redirect to its data; the first write, truncate or O_TRUNC open
# copies the data in, and removes the mark (hard links and a descriptor
# opened before see it). Each upper is read by the other union too.
# Then lower layers holding metacopy files (an upper of the first part
# as the middle layer of three), a metacopy file without data (EIO),
# one read without metacopy=on (EPERM), the blocks metacopy copies take,
# and the option rules: metacopy=on
# turns redirect_dir=on on, and conflicts with a redirect_dir= that
# makes no redirects (EINVAL). Intended difference: a data copy-up
# keeps the file's mtime (docs/overlayfs.md).
. /tests/union-lib/union.sh
ul_start || exit 1
dmesg -c >/dev/null
B=$UL_EXT4
L=$B/lower U=$B/upper M=$UL_MNT
rc=0
umask 022

other() { [ "$1" = unionlite ] && echo overlay || echo unionlite; }

# kmsg: the kernel's lines since the last call, the union's name cut
kmsg() {
	dmesg -c | sed -n 's/^\[[^]]*\] //; s/^\(unionlite\|overlayfs\): //p'
}

# st PATH...: the union's view of each file: mode, owner, size, blocks
# (while ST_BLOCKS=1: the lower data's then, where an upper copy's
# depend on how its filesystem laid the data out), content
ST_BLOCKS=1
st() {
	local p f='%A %u:%g size=%s'
	[ $ST_BLOCKS = 1 ] && f="$f blocks=%b"
	for p in "$@"; do
		echo "$p: $(stat -c "$f" $M/$p 2>&1) '$(cat $M/$p 2>&1 | head -c 40)'"
	done
}

# upper: the upper layer: each object (a file's content hashed), its
# xattrs (trusted.overlay.* included, the origin's handle cut), and a
# file's data blocks
upper() {
	echo "upper:"
	ul-tree -x $U | sed 's/\(trusted\.overlay\.origin=\).*/\1.../; s/^/  /'
	[ -f $U/big ] && echo "  big: $(stat -c %b $U/big | awk '{ print ($1 > 100 ? "data" : "no data") }')"
}

# cross FS: the union's tree (hashes) under FS, then under the other
# union over the same layers: the same or not
cross() {
	local o
	o=$(other $1)
	ul-tree -x $M >/tmp/view.$1
	umount $M
	ul_mount_fs $o $B "$2" || { echo "the other union: mount failed"; return 1; }
	ul-tree -x $M >/tmp/view.other
	umount $M
	cmp -s /tmp/view.$1 /tmp/view.other && echo "the other union: same view" || {
		echo "the other union: DIFFERENT VIEW"; diff /tmp/view.$1 /tmp/view.other; }
	ul_mount_fs $1 $B "$2"
}

# run OP ARGS...: ul-union-sys in the union, one line
run() {
	echo "$*: $(cd $M && ul-union-sys "$@" 2>&1)"
}

fixture() {
	ul_layers $B
	mkdir -p $L/d $L/e $U
	echo data-a >$L/a
	echo data-b >$L/d/b
	echo data-c >$L/d/c
	echo data-x >$L/d/x
	yes lower-data | head -c 300000 >$L/big
	chmod 0640 $L/a
	chown 1000:1000 $L/d/b
	touch -d @1500000000 $L/a $L/d/b $L/d/c $L/d/x $L/big
	sync
}

# meta FS: the metadata copy-ups, then the data copy-ups
meta() {
	fixture
	ul_mount_fs $1 $B metacopy=on || return 1
	echo "## metadata"
	run chmod a 0600
	run chown d/b 1001 1001
	run utime d/c 1600000000
	run setxattr big user.k v
	run chmod d/x 0444
	run link a e/a2
	run rename d/c d/c2
	run rename d/b e/b
	run rename d/x x
	st a e/a2 d/c2 e/b x big
	echo "mtime a: $(stat -c %Y $M/a) d/c2: $(stat -c %Y $M/d/c2)"
	upper
	cross $1 metacopy=on
	echo "## data"
	ST_BLOCKS=0
	exec 3<$M/big
	run open big w
	# overlayfs's data copy-up changes mtime; unionlite's keeps it
	echo "mtime big after an open for write: $([ "$(stat -c %Y $M/big)" = 1500000000 ] && echo kept || echo changed)"
	run append a +a
	run truncate d/c2 4
	run open e/b wt
	run append big +big
	run write x new-x
	echo "fd opened before: $(head -c 12 <&3) ... $(tail -c 4 <&3)"
	exec 3<&-
	st a e/a2 d/c2 e/b x big
	upper
	cross $1 metacopy=on
	umount $M
	ST_BLOCKS=1
	kmsg
}

# lowers FS: the upper of meta() as the middle of three lower layers;
# with an upper layer, a chmod of a file whose data is two layers down
lowers() {
	local L2=$B/l2 L3=$B/l3
	fixture
	ul_mount_fs $1 $B metacopy=on || return 1
	run chmod a 0600
	run rename d/c d/c2
	run rename d/b e/b
	umount $M
	rm -rf $L2 $L3 && mv $U $L2 && mv $L $L3 && mkdir $L $U && rm -rf $B/work/*
	dmesg -c >/dev/null
	echo "## no upper"
	mount -t $1 -o lowerdir=$L2:$L3,metacopy=on none $M || return 1
	st a d/c2 e/b
	umount $M
	echo "without metacopy=on: $(mount -t $1 -o lowerdir=$L2:$L3 none $M && cat $M/a 2>&1 | sed 's/.*: //'; umount $M)"
	kmsg
	echo "## with an upper"
	mount -t $1 -o lowerdir=$L:$L2:$L3,upperdir=$U,workdir=$B/work,metacopy=on none $M || return 1
	run chown a 1000 1000
	run rename e/b b
	st a b d/c2
	upper
	run append b +b
	ST_BLOCKS=0 st a b
	umount $M
	rm -rf $L2 $L3
	kmsg
}

# as UID OP ARGS...: ul-union-sys in the union as UID (gid UID, no
# supplementary groups), one line
as() {
	local who=$1
	shift
	echo "$who $*: $(cd $M && ul-union-sys as $who $who "$@" 2>&1)"
}

# perm FS: uid 1000 and 1001 through metacopy copies: the metadata a
# copy-up changes is checked as on the lower file, the data is read and
# written only as the copy's mode allows
perm() {
	ul_layers $B
	mkdir -m 0777 $L/p
	echo secret-1000 >$L/p/own
	echo pub-1000 >$L/p/pub
	echo secret-1001 >$L/p/other
	chmod 0600 $L/p/own $L/p/other
	chown 1000:1000 $L/p/own $L/p/pub
	chown 1001:1001 $L/p/other
	ul_mount_fs $1 $B metacopy=on || return 1
	as 1000 chmod p/own 0640
	as 1001 cat p/own
	as 1000 chmod p/own 0644
	as 1001 cat p/own
	as 1001 chmod p/own 0666
	as 1001 append p/own 1001
	as 1001 utime p/own 0
	as 1001 chown p/other 1000 1000
	as 1000 chown p/own 1001 1001
	as 1000 cat p/other
	as 1001 chmod p/other 0604
	as 1000 cat p/other
	as 1000 append p/other 1000
	as 1000 link p/own p/own2
	as 1000 append p/own2 +1000
	as 1001 cat p/own
	as 1001 truncate p/pub 3
	as 1000 truncate p/pub 3
	as 1001 cat p/pub
	ST_BLOCKS=0 st p/own p/own2 p/pub p/other
	upper
	cross $1 metacopy=on
	umount $M
	kmsg
}

# security.capability, revision 2, effective, permitted cap_net_raw
FCAP=0x0100000200200000000000000000000000000000

# caps FS: files with file capabilities: chmod'ed, written, given them
# through the union (unionlite copies such a file whole: an intended
# difference)
caps() {
	local f
	ul_layers $B
	echo data-cap >$L/cap
	echo data-c2 >$L/c2
	setfattr -n security.capability -v $FCAP $L/cap
	ul_mount_fs $1 $B metacopy=on || return 1
	run chmod cap 0755
	run chmod c2 0755
	echo "setfattr c2 security.capability: $(ul_errno setfattr -n security.capability -v $FCAP $M/c2)"
	for f in cap c2; do
		echo "$f upper: $(getfattr -n trusted.overlay.metacopy $U/$f >/dev/null 2>&1 && echo metacopy || echo whole)"
		echo "$f: $(getfattr --absolute-names -e hex -n security.capability $M/$f 2>&1 | grep =)"
	done
	run open cap w
	echo "cap: $(getfattr --absolute-names -e hex -n security.capability $M/cap 2>&1 | grep =)"
	ST_BLOCKS=0 st cap c2
	umount $M
	kmsg
}

# blocks FS: the disk blocks 20 metacopy copies in one upper directory
# take (the upper filesystem's free blocks before and after, synced). On
# ext4 each origin fits in its inode and the marks share an xattr block,
# when the origin is set before the mark (overlayfs's order)
blocks() {
	local i f0 f1
	ul_layers $B
	mkdir -p $L/m
	for i in $(seq 20); do echo $i >$L/m/f$i; done
	ul_mount_fs $1 $B metacopy=on || return 1
	chmod 0755 $M/m
	sync
	f0=$(stat -f -c %f $B)
	for i in $(seq 20); do chmod 0600 $M/m/f$i; done
	sync
	f1=$(stat -f -c %f $B)
	echo "blocks of 20 metacopy copies: $((f0 - f1))"
	umount $M
}

# broken FS: a metacopy file with no data under it; one read without
# metacopy=on
broken() {
	ul_layers $B
	echo data >$L/f
	echo x >$U/f && setfattr -n trusted.overlay.metacopy $U/f
	echo x >$U/g && setfattr -n trusted.overlay.metacopy $U/g
	dmesg -c >/dev/null
	ul_mount_fs $1 $B metacopy=on || return 1
	echo "f: $(cat $M/f 2>&1 | sed 's/.*: //') g: $(cat $M/g 2>&1 | sed 's/.*: //')"
	umount $M
	ul_mount_fs $1 $B || return 1
	echo "without metacopy=on f: $(cat $M/f 2>&1 | sed 's/.*: //')"
	umount $M
	kmsg
}

# options FS: what metacopy=on does with redirect_dir=, with and without
# an upper layer
options() {
	local o
	ul_layers $B
	mkdir -p $B/l2
	for o in metacopy=on metacopy=off metacopy=on,redirect_dir=on \
		 metacopy=on,redirect_dir=off metacopy=on,redirect_dir=follow \
		 metacopy=on,redirect_dir=nofollow metacopy=on,metacopy=off; do
		echo "$o: $(ul_errno ul_mount_fs $1 $B $o) $(grep " $M " /proc/mounts |
			grep -o ',redirect_dir=[a-z]*\|,metacopy=[a-z]*' | tr -d '\n')"
		ul_umount_if
		kmsg
	done
	# each tree's overlayfs has its own words for it
	echo "metacopy=yes: $(ul_errno ul_mount_fs $1 $B metacopy=yes)"
	dmesg -c >/dev/null
	for o in metacopy=on metacopy=on,redirect_dir=follow \
		 metacopy=on,redirect_dir=nofollow; do
		echo "no upper, $o: $(ul_errno mount -t $1 -o lowerdir=$L:$B/l2,$o none $M)"
		ul_umount_if
		kmsg
	done
}
for case in meta lowers perm caps blocks broken options; do
	echo "### $case"
	case $case in
	meta) UL_INTENDED='^mtime big after an open for write: ' ;;
	caps) UL_INTENDED='^c[a-z0-9]* upper: ' ;;
	*) UL_INTENDED= ;;
	esac
	ul_against_overlay $case || rc=1
done
ul_finish $rc
