# The differential tester catches a broken module. Each of three mutants
# of unionlite (qemu-boot/modules.sh: a copy-up that drops S_IWGRP, a
# readdir that lists the whiteouts of one-letter names, a rename of a
# lower name over an existing one that leaves no whiteout) runs
# diff-overlayfs's seeds until one diverges; the minimizer's case is
# printed, then replayed on the mutant (it diverges) and on the real
# module (it does not). The third mutant runs over the three lower
# layers of diff-multilower (DIFF_LAYERS=3), so that a case minimized
# over layers is shown too. What overlayfs and unionlite make of a
# mutant's upper layer (the views of both uppers after the seed) is left
# out: how overlayfs reads a corrupt upper is not stable from run to
# run.
. /tests/lib/diff.sh
ul_mount_disks || exit 1
rc=0
for m in 1 2 3; do
	echo "## mutant $m"
	[ $m = 3 ] && DIFF_LAYERS=3
	insmod /lib/modules/unionlite-m$m.ko || exit 1
	caught=
	for seed in 1 2 3 4 5 6 7 8 9 10; do
		if ! ul_diff_seed $seed 500 >/tmp/seed.out; then
			caught=$seed
			break
		fi
		ul_diff_clean $seed
	done
	if [ -z "$caught" ]; then
		echo "not caught by seeds 1-10"
		rc=1
		rmmod unionlite
		continue
	fi
	sed -E '/^(cmp )?(overlay over both uppers|unionlite over both uppers|remounted):/d' /tmp/seed.out
	ul_diff_clean $caught
	sed -n '/^\. \/tests\/lib\/diff.sh$/,/^OPS$/p' /tmp/seed.out >/tmp/case.sh
	echo "# the case on mutant $m"
	. /tmp/case.sh
	rmmod unionlite || rc=1
	insmod /lib/modules/unionlite.ko || exit 1
	echo "# the case on the real module"
	. /tmp/case.sh || rc=1
	rmmod unionlite || rc=1
done
ul_umount_disks || rc=1
exit $rc
