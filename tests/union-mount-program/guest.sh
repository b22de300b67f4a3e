# unionlite-mount (unionfs-lite/mount), the program containers/storage
# runs for each mount (its mount_program): the two argument forms, the
# options it refuses, the kernel's words on a failed mount, a second
# mount of an upper in use (the union there bound again: one union at
# both places), aufs_whiteouts added unless the options name it, and an
# option string longer than the kernel's page.
# The layers are laid out as containers/storage lays out a graph root.
. /tests/union-lib/union.sh
rc=0
H=$UL_EXT4/graph/overlay

# run CMD...: the command, its exit status and what it printed; a run
# of layers H/l/L<26 digits> is shown as its count
run() {
	echo "\$ $*" | sed "s|$H|H|g" |
		awk '{ while (match($0, /H\/l\/L[0-9]+(:H\/l\/L[0-9]+)+/)) {
			n = split(substr($0, RSTART, RLENGTH), a, ":")
			$0 = substr($0, 1, RSTART - 1) "<" n " layers>" substr($0, RSTART + RLENGTH)
		} print }'
	"$@" >/tmp/run.out 2>&1
	echo "exit $?"
	sed "s|$H|H|g" /tmp/run.out
}

# mounts: how many mounts /proc/mounts has at H/C/merged
mounts() {
	echo "mounts at H/C/merged: $(grep -c " $H/C/merged " /proc/mounts)"
}

# layer ID: H/ID/diff with a file fID, linked from H/l/ID
layer() {
	mkdir -p $H/$1/diff && ln -s ../$1/diff $H/l/$1 && echo $1 >$H/$1/diff/f$1
}

echo "## before the module is loaded"
mkdir -p /mnt/t
run unionlite-mount -o lowerdir=/a:/b /mnt/t
ul_start || exit 1

echo "## usage"
echo "version: $(unionlite-mount --version | sed 's/ [^ ]*$/ VERSION/')"
run unionlite-mount
run unionlite-mount -o lowerdir=/a:/b
run unionlite-mount -x -o lowerdir=/a:/b /mnt/t
run unionlite-mount a b c -o lowerdir=/a:/b
run unionlite-mount -o upperdir=/u,workdir=/w /mnt/t
run unionlite-mount -o lowerdir=/a,lowerdir=/b /mnt/t

mkdir -p $H/l $H/C/diff $H/C/work $H/C/merged $H/D || exit 1
layer A && layer B || exit 1
cd $H || exit 1
low=$H/l/A:$H/l/B
up=upperdir=$H/C/diff,workdir=$H/C/work

echo "## refused"
for o in uidmapping=0:100000:65536 gidmapping=0:100000:65536 squash_to_uid=0 \
	squash_to_gid=0 squash_to_root xattr_permissions=2; do
	run unionlite-mount -o lowerdir=$low,$up,$o $H/C/merged
done
mounts

echo "## the kernel refuses"
run unionlite-mount -o lowerdir=$low,upperdir=$H/C/diff $H/C/merged
run unionlite-mount -o lowerdir=$low,$up,frobnicate $H/C/merged

echo "## as containers/storage mounts a container"
run unionlite-mount -o lowerdir=$low,$up,,volatile $H/C/merged
echo "files: $(ls $H/C/merged | tr '\n' ' ')"
o=$(grep " $H/C/merged " /proc/mounts)
echo "device ${o%% *}; options with:$(for w in volatile aufs_whiteouts; do
	case $o in *,$w,* | *,$w\ *) echo -n " $w" ;; esac
done)"
echo "## the same again: the union bound at the same place"
run unionlite-mount -o lowerdir=$low,$up,volatile $H/C/merged
mounts
echo new >$H/C/merged/new
echo "## at another place"
run unionlite-mount -o lowerdir=$low,$up,volatile $H/D
echo "H/D/new: $(cat $H/D/new)"
umount $H/D
echo "## other layers over the upper in use"
run unionlite-mount -o lowerdir=$H/l/B,$up $H/D
umount $H/C/merged
mounts
echo "H/C/merged/new: $(cat $H/C/merged/new)"
umount $H/C/merged
mounts

echo "## mount(8)'s order and flag words"
rm -r $H/C/work/work/incompat/volatile
run unionlite-mount none $H/C/merged -o ro,nodev,lowerdir=$low,$up,noaufs_whiteouts
grep " $H/C/merged " /proc/mounts | awk '{ print $1, $4 }' | sed 's/,lowerdir.*//'
grep " $H/C/merged " /proc/mounts | grep -c aufs_whiteouts
run touch $H/C/merged/x
umount $H/C/merged

echo "## a string past the kernel's page"
i=0 low=
while [ $i -lt 200 ]; do
	id=$(printf 'L%025d' $i)
	layer $id || exit 1
	[ $i -lt 120 ] && low="$low${low:+:}$H/l/$id"
	i=$((i + 1))
done
echo "options: ${#low} bytes of lowerdir="
run unionlite-mount -o lowerdir=$low,$up $H/C/merged
echo "files: $(ls $H/C/merged | wc -l) (the layers' and new)"
cat $H/C/merged/fL0000000000000000000000000 $H/C/merged/fL0000000000000000000000119
grep " $H/C/merged " /proc/mounts | grep -o 'lowerdir=[^:]*:'
run unionlite-mount -o lowerdir=$low,$up $H/C/merged
mounts
umount $H/C/merged && umount $H/C/merged
for id in $(ls $H/l | tail -n 80); do
	low="$low:$H/l/$id"
done
run unionlite-mount -o lowerdir=$low,$up $H/C/merged
mounts

cd /
ul_finish $rc
