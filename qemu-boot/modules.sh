#!/bin/bash
# modules.sh VARIANT [make args...]: build the out-of-tree modules (the
# unionlite module and the test-only modules in tests/kmod) against the
# kernel of one variant, and put the variant's ext2.ko beside them: the
# kernel's own (built from the tree with the series) or, for pristine,
# fs/ext2 of pristine 6.1 built out of tree against the base kernel.
# Kbuild in 6.1 writes objects next to the sources, so each variant
# builds from its own copy: in the store, beside the kernel build
# (KDIR.mod-VARIANT/: mutant and pristine build against the base
# kernel), one per variant for every clone (under a lock), so a
# second clone's compiles are ccache hits (the paths are the same) or
# not done at all (the sources are the same). The .ko files and build
# logs are then copied to build/TREE/mod-VARIANT, the clone's own.
. "$(dirname "$0")/lib.sh"

ul_kv "${1:?usage: modules.sh [TREE-]VARIANT [make args...]}"
variant=$UL_V
shift
kdir=$(ul_kdir "$variant")
[ -f "$kdir/Module.symvers" ] || ul_die "kernel($variant) is not built"
mb=$kdir.mod-$variant
mkdir -p "$mb"
exec 9>"$mb.lock"
flock 9

# The module twice: as users load it, and the test build
# (CONFIG_UNIONLITE_TEST=y: unionfs-lite/testing.h), in a copy of its own.
src=${UL_MOD_SRC:-$UL_TOP/unionfs-lite}
for m in "$src" "$src:unionlite-test" "$UL_TOP/tests/kmod"; do
	name=$(basename "${m%%:*}") extra=()
	case $m in
	*:*) name=${m#*:} extra=(CONFIG_UNIONLITE_TEST=y) m=${m%%:*} ;;
	esac
	out=$mb/$name
	ul_sync_dir "$m" "$out"
	ul_kmake -C "$kdir" M="$out" W=1 "${extra[@]}" "$@" modules >"$out/build.log" 2>&1 || {
		cat "$out/build.log" >&2
		ul_die "module $name failed to build for $variant"
	}
	# W=1 and sparse findings are errors for our own code.
	if grep -E 'warning:|error:' "$out/build.log" >&2; then
		ul_die "module $(basename "$m") builds with warnings for $variant"
	fi
done

out=$mb/ext2
if [ "$variant" = pristine ]; then
	ul_sync_dir "$UL_PRISTINE/fs/ext2" "$out"
	ul_kmake -C "$kdir" M="$out" modules >"$out/build.log" 2>&1 || {
		cat "$out/build.log" >&2
		ul_die "pristine fs/ext2 failed to build as a module"
	}
elif [ "$variant" = mutant ]; then
	# The series' ext2 whose cross rename swaps nothing on disk: each
	# entry is rewritten with its own inode (the directories' times
	# still change), so only the dcache, which the VFS swaps itself,
	# shows the exchange. The tests that look at the disk must fail.
	ul_sync_dir "$UL_TREE/fs/ext2" "$out"
	sed -i '/^static int ext2_cross_rename(/,/^}/ {
		s/ext2_setent(&new, old\.inode);/ext2_setent(\&new, new.inode);/
		s/ext2_setent(&old, new\.inode);/ext2_setent(\&old, old.inode);/
	}' "$out/namei.c"
	[ "$(sed -n '/^static int ext2_cross_rename(/,/^}/p' "$out/namei.c" |
		grep -c 'ext2_setent(&new, new.inode);\|ext2_setent(&old, old.inode);')" = 2 ] ||
		ul_die "the ext2 mutant's edit no longer applies to fs/ext2/namei.c"
	ul_kmake -C "$kdir" M="$out" modules >"$out/build.log" 2>&1 || {
		cat "$out/build.log" >&2
		ul_die "the ext2 mutant failed to build as a module"
	}
	# Three unionlite mutants for tests/diff-mutants, each one edit that
	# the differential tester must catch: a copy-up that drops S_IWGRP,
	# a readdir that lists the whiteouts of one-letter names, a rename
	# of a lower name over an existing name that leaves no whiteout.
	# ul_mutate N FILE FROM TO [FROM TO...]: unionlite-mN, FILE edited
	ul_mutate() {
		local n=$1 file=$2
		local dir=$mb/unionlite-m$n
		shift 2
		# edited in a staging copy: the build copy changes (and
		# rebuilds) only when the source or the edit does
		rm -rf "$dir.src"
		cp -r "$UL_TOP/unionfs-lite" "$dir.src"
		while [ $# -ge 2 ]; do
			grep -qF "$1" "$dir.src/$file" ||
				ul_die "unionlite mutant $n: its edit no longer applies to $file"
			F=$1 T=$2 perl -0pi -e 's/\Q$ENV{F}\E/$ENV{T}/' "$dir.src/$file"
			shift 2
		done
		ul_sync_dir "$dir.src" "$dir"
		ul_kmake -C "$kdir" M="$dir" modules >"$dir/build.log" 2>&1 || {
			cat "$dir/build.log" >&2
			ul_die "unionlite mutant $n failed to build"
		}
	}
	# the six build at the same time (one make job each)
	pids=()
	ul_mutate 1 copy_up.c "attr.ia_mode = stat->mode;" \
		"attr.ia_mode = stat->mode & ~S_IWGRP;" &
	pids+=($!)
	ul_mutate 2 readdir.c "e->whiteout = ul_is_whiteout(d);" \
		"e->whiteout = ul_is_whiteout(d) && e->len > 1;" &
	pids+=($!)
	ul_mutate 3 dir.c "		err = ul_rename_whiteout_flag(&rc);" \
		"		err = ul_do_rename(ufs, rc.olddir, rc.oldupper, rc.newdir, rc.newupper, 0);" &
	pids+=($!)
	# Two for tests/crash-states-mutants, each a recipe whose steps a
	# crash can split: recipe 3 (a whiteout at Q, then the exchange)
	# also onto a Q that only the lower layer has, as the module did
	# before recipe 5 took that case; recipe 2 with its last two steps
	# swapped (the whiteout at P removed before the new object is
	# renamed onto P).
	ul_mutate 4 dir.c "(q_wh || (q_neg && d_really_is_negative(new)))" \
		"(q_wh || q_neg)" &
	pids+=($!)
	ul_mutate 5 dir.c "		temp = ul_put_in_place(ufs, upperdir, target, attr,
				       RENAME_EXCHANGE);
		err = PTR_ERR_OR_ZERO(temp);
		if (!err)
			/* target is work/X now: the old whiteout */
			ul_cleanup(ufs, ufs->workdir, target);
		dput(target);" \
		"		temp = ul_make_temp(ufs, attr);
		err = PTR_ERR_OR_ZERO(temp);
		if (!err)
			err = ul_do_unlink(ufs, upperdir, target);
		if (!err)
			target = ul_relookup(ufs, upperdir, target);
		if (!err && IS_ERR(target)) {
			err = PTR_ERR(target);
			target = NULL;
		}
		if (!err)
			err = ul_do_rename(ufs, ufs->workdir, temp, upperdir, target, 0);
		if (err)
			temp = ERR_PTR(err);
		dput(target);" &
	pids+=($!)
	# One for the copy-up class: the copy linked into place before its
	# data is copied into it.
	ul_mutate 6 copy_up.c \
		"	if (S_ISREG(stat.mode) && data != UL_COPY_NODATA && !meta) {
		/* a lower metacopy file's data is below it */" \
		"	if (0) {
		/* a lower metacopy file's data is below it */" \
		"	if (!err) {
		ul_restore_times(ufs, upperdir, &pstat);" \
		"	if (!err && S_ISREG(stat.mode) && data != UL_COPY_NODATA && !meta) {
		ul_lower_path(ul_lowerdata(ui), &datapath);
		err = ul_do_copy_data(ufs, &datapath, temp, NULL, stat.size);
	}
	if (!err) {
		ul_restore_times(ufs, upperdir, &pstat);" &
	pids+=($!)
	ul_wait "${pids[@]}" || ul_die "a unionlite mutant failed to build"
else
	mkdir -p "$out"
	cmp -s "$kdir/fs/ext2/ext2.ko" "$out/ext2.ko" ||
		cp "$kdir/fs/ext2/ext2.ko" "$out/ext2.ko"
fi

# The clone's copy: the modules and build logs of this build, nothing else.
rm -rf "$UL_TB/mod-$variant.new"
for d in "$mb"/*/; do
	d=${d%/}
	case ${d##*/} in
	unionfs-lite|unionlite-test|kmod|ext2) ;;
	unionlite-m[0-9]) [ "$variant" = mutant ] || continue ;;
	*) continue ;;
	esac
	mkdir -p "$UL_TB/mod-$variant.new/${d##*/}"
	for f in "$d"/*.ko "$d"/build.log; do
		if [ -f "$f" ]; then
			cp -p "$f" "$UL_TB/mod-$variant.new/${d##*/}/"
		fi
	done
done
rm -rf "$UL_TB/mod-$variant"
mv "$UL_TB/mod-$variant.new" "$UL_TB/mod-$variant"
