# A descriptor opened read-only on a lower-only file, held while another
# process copies the file up and changes it (tests/helpers/ul-follow.c):
# what it reads, maps, splices, seeks and syncs afterwards. On unionlite
# and on overlayfs, both uppers, the reader as root and as uid 1000:
#   write         another process opens it for write, writes at 0
#   trunc         opens it with O_TRUNC and writes
#   chmod-append  chmods it (a copy-up of the metadata and the data as
#                 they are), then appends
#   none          nothing changes: the lower copy is read throughout
# The unionlite transcript is printed; the overlayfs one is compared with
# it line by line, and where they differ both lines are printed (a new
# mapping after the copy-up: docs/overlayfs.md, intended differences).
. /tests/union-lib/union.sh
ul_start || exit 1
rc=0

# scenario FS BASE: every case on one union type over BASE's layers
scenario() {
	local fs=$1 b=$2 m=$UL_MNT how who
	ul_layers $b
	for how in write trunc chmod-append none; do
		for who in root user; do
			printf 'lower %s %s\n' $how $who >$b/lower/$how-$who
		done
		chown 1000:1000 $b/lower/$how-user
	done
	mount -t $fs -o lowerdir=$b/lower,upperdir=$b/upper,workdir=$b/work none $m ||
		return 1
	for how in write trunc chmod-append none; do
		echo "## $how, reader root"
		ul-follow $m/$how-root $how || echo "ul-follow failed"
		echo "## $how, reader uid 1000"
		ul-follow as 1000 1000 $m/$how-user $how || echo "ul-follow failed"
	done
	umount $m
	echo "upper: [$(ls $b/upper | tr '\n' ' ')]"
	ul_fsck_disk $b "$fs" || rc=1
}

for b in $UL_EXT4 $UL_EXT2; do
	echo "### upper on $(ul_fstype $b)"
	scenario unionlite $b >/tmp/t.unionlite 2>&1 || rc=1
	scenario overlay $b >/tmp/t.overlay 2>&1 || rc=1
	cat /tmp/t.unionlite
	if diff -u -L unionlite -L overlayfs /tmp/t.unionlite /tmp/t.overlay >/tmp/t.diff; then
		echo "## overlayfs: the same"
	else
		echo "## overlayfs differs:"
		cat /tmp/t.diff
	fi
done
ul_finish $rc
