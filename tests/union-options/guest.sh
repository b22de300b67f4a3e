# Mount options overlayfs takes besides the layers: default_permissions
# (accepted and shown, nothing else changes), and backslash escapes in
# layer paths: "\," for a comma, "\:" for a colon, "\\" for a backslash.
# On unionlite and on overlayfs: mount with layer directories whose names
# hold a comma, a colon and a backslash, read a file through the union,
# print the options /proc/mounts shows (decoded as getmntent() and
# findmnt decode them), unmount and mount again with exactly those.
# Then overlayfs's other option names as container runtimes pass them
# (index=off, metacopy=, nfs_export=off, xino=on|auto, redirect_dir=)
# on both, and what unionlite does not implement (index=on...), refused
# by name. xino=off, refused by unionlite, mounts on overlayfs (an
# intended difference: docs/overlayfs.md), as is overlayfs 6.12's
# uuid=on. redirect_dir=follow is shown on 6.1, not on 6.12, on both.
. /tests/union-lib/union.sh
ul_load || exit 1
ul_mount_disks || exit 1
rc=0

# shown FS: the union's options in /proc/mounts, octal escapes decoded
shown() {
	local o
	o=$(awk -v m=$UL_MNT -v t=$1 '$2 == m && $3 == t { print $4 }' /proc/mounts)
	# \NNN (octal) as printf %b wants it: \0NNN
	printf '%b\n' "$(echo "$o" | sed 's/\\\([0-7][0-7][0-7]\)/\\0\1/g')"
}

# attempt FS OPTS: mount, show what the union holds and the options, unmount
attempt() {
	local fs=$1 opts=$2
	dmesg -c >/dev/null
	if ! mount -t $fs -o "$opts" none $UL_MNT 2>/tmp/err; then
		echo "mount: $(sed 's/.*failed: //' /tmp/err)"
		dmesg -c | sed -n 's/^\[[^]]*\] //; /^unionlite\|^overlay/p'
		return 1
	fi
	echo "mounted; f: $(cat $UL_MNT/f 2>&1)"
	SHOWN=$(shown $fs)
	# overlayfs 6.12 adds uuid=on, an intended difference
	case $SHOWN in
	*,uuid=on) echo "uuid=on shown" ;;
	esac
	echo "shown: ${SHOWN%,uuid=on}" | sed "s|$B|B|g"
	umount $UL_MNT
}

B=$UL_EXT4/o
for fs in unionlite overlay; do
	echo "### $fs"
	rm -rf $B && mkdir -p "$B/lo,w:er" "$B/up,per" "$B/wo:rk\\x" $UL_MNT
	echo lower >"$B/lo,w:er/f"
	opts="lowerdir=$B/lo\\,w\\:er,upperdir=$B/up\\,per,workdir=$B/wo\\:rk\\\\x,default_permissions"
	echo "\$ mount -o $opts" | sed "s|$B|B|g"
	attempt $fs "$opts" || { [ $fs = overlay ] || rc=1; continue; }
	echo "\$ mount again with what was shown"
	attempt $fs "$SHOWN" || { [ $fs = overlay ] || rc=1; }
done
# overlayfs's option names, on both: shown as overlayfs shows them
B=$UL_EXT4/n
rm -rf $B && mkdir -p $B/lower $B/upper $B/work && echo lower >$B/lower/f
base="lowerdir=$B/lower,upperdir=$B/upper,workdir=$B/work"
rm -rf $UL_EXT2/n && mkdir -p $UL_EXT2/n && echo lower >$UL_EXT2/n/f
base2="lowerdir=$UL_EXT2/n,upperdir=$B/upper,workdir=$B/work"
names() {
	local o
	for o in index=off,metacopy=off,nfs_export=off,xino=on,redirect_dir=on \
		 xino=auto redirect_dir=off redirect_dir=follow \
		 redirect_dir=nofollow,index=off metacopy=on; do
		echo "\$ mount -o B,$o"
		attempt $1 "$base,$o"
		echo "lowerdir on another filesystem:"
		attempt $1 "$base2,$o"
	done
}
echo "### overlayfs's option names"
UL_INTENDED='^uuid=on shown$'
ul_against_overlay names || rc=1
echo "### unionlite only"
for o in index=on nfs_export=on xino=off redirect_dir=yes; do
	echo "\$ mount -o B,$o"
	attempt unionlite "$base,$o" && rc=1
done
echo "### xino=off on overlayfs"
echo "\$ mount -o B,xino=off"
attempt overlay "$base,xino=off" || rc=1
echo "lowerdir on another filesystem:"
attempt overlay "$base2,xino=off" || rc=1
ul_finish $rc
