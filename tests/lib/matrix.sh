# matrix_compare: run ul-rename-matrix on ext4 (the reference) and on
# ext2, print the ext4 record and compare the two case by case; then
# e2fsck both images with every case still in place. Returns 1 when any
# case differs or an image is not clean, listing those cases.
matrix_compare() {
	local rc=0
	mkdir $UL_EXT4/m $UL_EXT2/m
	ul-rename-matrix --keep $UL_EXT4/m > /tmp/ext4.rec || return 1
	ul-rename-matrix --keep $UL_EXT2/m > /tmp/ext2.rec || return 1
	ul_fsck_disk $UL_EXT4 "the matrix" || rc=1
	ul_fsck_disk $UL_EXT2 "the matrix" || rc=1
	echo "ext2 cases with a wrong entry or ..: $(grep -c 'dino=BAD\|=WRONG' /tmp/ext2.rec)"
	[ $rc = 0 ] || return 1
	cat /tmp/ext4.rec
	echo "cases: ext4 $(wc -l < /tmp/ext4.rec), ext2 $(wc -l < /tmp/ext2.rec)"
	if diff /tmp/ext4.rec /tmp/ext2.rec > /tmp/rec.diff; then
		echo "ext2 record identical to ext4"
		return 0
	fi
	echo "ext2 differs from ext4 in $(grep -c '^+[^+]' /tmp/rec.diff) cases:"
	grep '^+[^+]' /tmp/rec.diff | head -20
	return 1
}
