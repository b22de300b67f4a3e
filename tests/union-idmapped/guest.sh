# Idmapped layers are refused, each with its errno and one kernel
# message, nothing left in the work dir: a lower or upper layer on an
# idmapped mount, a subdirectory of one, a bind mount of one. The union
# itself cannot be idmapped. Without the idmapped mount the same layers
# mount as usual. overlayfs 6.1 honours an idmapped lower layer instead (an
# intended difference, docs/overlayfs.md): shown last.
. /tests/union-lib/union.sh
ul_start || exit 1
rc=0
B=$UL_EXT4
ul_layers $B
mkdir -p $B/lower/sub $B/owork /mnt/idm /mnt/idm2 /mnt/ov
echo mine >$B/lower/f
chown 1000:1000 $B/lower/f
echo root >$B/lower/r

echo "## an idmapped mount of B: on-disk id 0 shows as 1000, 1000 as 65534"
ul-idmap $B /mnt/idm 0:1000:1 || exit 1
stat -c '%n %u:%g' $B/lower/f $B/lower/r /mnt/idm/lower/f /mnt/idm/lower/r |
	sed "s|$B|B|"

try() {
	ul_try_mount $B "$1" || rc=1
}
try "lowerdir=/mnt/idm/lower,upperdir=$B/upper,workdir=$B/work"
try "lowerdir=/mnt/idm/lower/sub,upperdir=$B/upper,workdir=$B/work"
try "lowerdir=$B/lower,upperdir=/mnt/idm/upper,workdir=/mnt/idm/work"
mount --bind /mnt/idm /mnt/idm2 || rc=1
try "lowerdir=/mnt/idm2/lower,upperdir=$B/upper,workdir=$B/work"
umount /mnt/idm2 || rc=1
# the work dir alone on the idmapped mount: a different mount already
try "lowerdir=$B/lower,upperdir=$B/upper,workdir=/mnt/idm/work"

echo "## the same layers, not idmapped"
if ul_mount $B; then
	stat -c '%n %u:%g' $UL_MNT/f $UL_MNT/r
	echo "idmap the union: $(ul-idmap -t $UL_MNT 0:1000:1)"
	ul_umount || rc=1
else
	echo "mount failed"
	rc=1
fi

echo "## overlayfs over the idmapped lower"
if mount -t overlay -o lowerdir=/mnt/idm/lower,upperdir=$B/upper,workdir=$B/owork \
	none /mnt/ov; then
	stat -c '%n %u:%g' /mnt/ov/f /mnt/ov/r
	umount /mnt/ov || rc=1
else
	echo "overlayfs refused it"
fi
umount /mnt/idm || rc=1
ul_finish $rc
