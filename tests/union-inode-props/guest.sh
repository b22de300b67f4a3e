# The inode numbers a union shows, as overlayfs.rst's "Inode properties"
# table asks: for directories and non-directories, lower-only, copied up
# (and after a remount), upper-only and merged, with the layers on one
# filesystem (ext4) and on two (lower on ext2, upper on ext4). For each
# object: st_dev the union's, st_ino == the readdir d_ino, d_ino == the
# i_ino that /proc/locks shows, st_ino unchanged by the copy-up and by a
# remount; then how many (st_dev, st_ino) pairs two objects share.
# docs/unionlite.md holds the table this prints.
. /tests/union-lib/union.sh
ul_start || exit 1
rc=0
yn() { [ "$1" = "$2" ] && echo Y || echo N; }
# props NAME: one line of Y/N for $UL_MNT/NAME
props() {
	set -- $1 $(ul-union-sys inos $UL_MNT/$1 | sed 's/[a-z_]*=//g; s/^inos: //')
	echo "$1: st_dev $(yn $2 $(stat -c %d $UL_MNT)) st_ino==d_ino $(yn $3 $4) d_ino==i_ino $(yn $4 $5)"
	eval "ino_$1=$3"
}
for layout in one-fs two-fs; do
	echo "### layers on $layout"
	ul_layers $UL_EXT4
	ul_layers $UL_EXT2
	L=$UL_EXT4/lower U=$UL_EXT4/upper W=$UL_EXT4/work
	[ $layout = two-fs ] && L=$UL_EXT2/lower
	echo l >$L/lf; mkdir $L/ld $L/md; echo l >$L/cf; mkdir $L/cd
	echo u >$U/uf; mkdir $U/ud $U/md
	for i in $(seq 1 30); do echo $i >$L/l$i; echo $i >$U/u$i; done
	mnt() { mount -t unionlite -o lowerdir=$L,upperdir=$U,workdir=$W none $UL_MNT; }
	mnt || { rc=1; continue; }
	for o in lf ld cf cd uf ud md; do props $o; done
	before_cf=$ino_cf before_cd=$ino_cd
	chmod 600 $UL_MNT/cf; chmod 700 $UL_MNT/cd
	echo "## after copy-up of cf and cd"
	props cf; props cd
	echo "persistent st_ino over copy-up: cf $(yn $before_cf $ino_cf) cd $(yn $before_cd $ino_cd)"
	umount $UL_MNT; mnt || { rc=1; continue; }
	echo "## after a remount"
	props cf; props cd
	echo "persistent st_ino over a remount: cf $(yn $before_cf $ino_cf) cd $(yn $before_cd $ino_cd)"
	echo "pairs (st_dev, st_ino) shared by two objects: $(find $UL_MNT -mindepth 1 | xargs stat -c '%d %i' | sort | uniq -d | wc -l)"
	umount $UL_MNT
done
ul_finish $rc
