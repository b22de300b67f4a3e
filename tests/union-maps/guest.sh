# The path /proc/PID/maps gives for a mapping of a union file: a program
# (the static ul-union-sys) run from the union, first from the lower
# layer, then after a chmod copied it up, prints its own maps. On 6.12
# the union's real files are backing files (ul_open_real()) and the path
# is the union's, as on overlayfs; on 6.1 it is the real file's, which
# overlayfs hides with open_with_fake_path() (docs/overlayfs.md,
# intended differences). On unionlite and on overlayfs, compared.
. /tests/union-lib/union.sh
ul_start || exit 1
rc=0

# maps FS: run the program from a union FS, before and after its copy-up
maps() {
	local fs=$1 b=$UL_EXT4
	ul_layers $b
	cp "$(command -v ul-union-sys)" $b/lower/prog
	mount -t $fs -o lowerdir=$b/lower,upperdir=$b/upper,workdir=$b/work none $UL_MNT || return 1
	for when in lower-only copied-up; do
		[ $when = copied-up ] && chmod 700 $UL_MNT/prog
		echo "$when: $($UL_MNT/prog cat /proc/self/maps | awk '$6 ~ /prog/ { print $6 }' |
			sort -u | sed "s|$b|B|g" | tr '\n' ' ')"
	done
	ls $b/upper
	umount $UL_MNT
}

[ "$(ul_arg linux)" = 6.1 ] &&
	UL_INTENDED='^(lower-only|copied-up): '
ul_against_overlay maps || rc=1
ul_finish $rc
