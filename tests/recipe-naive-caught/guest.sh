# The trace comparison catches a non-atomic implementation: with the
# test-only module parameter naive=1 every recipe is done in several
# visible steps (rmdir then mknod the whiteout, unlink the whiteout then
# mkdir, rename then mknod, ...). Each scenario of the recipe-* tests runs
# first as it is (its trace is the one their goldens pin) and then naive;
# the test passes only if every naive trace differs from the recipe's,
# while the end state (union and upper) is the same.
. /tests/union-lib/recipes.sh
SCEN="rmdir-merged rmdir-lower mkdir-over-whiteout create-over-whiteout
symlink-over-whiteout mknod-over-whiteout link-over-whiteout unlink-lower
unlink-upper rename-negative rename-onto-whiteout rename-upper-onto-whiteout
noreplace-onto-whiteout rename-dir-over-whiteouts
rename-dir-over-whiteouts-p-lower rename-existing rename-lower-q"
ul_start trace=1 naive=0 || exit 1
P=/sys/module/unionlite/parameters/naive
rc=0
for base in $UL_EXT4 $UL_EXT2; do
	fs=$(ul_fstype $base)
	for s in $SCEN; do
		echo 0 >$P
		rc_scenario $base $s >/tmp/recipe.out || rc=1
		mv /tmp/trace.$s.$fs /tmp/recipe.trace
		echo 1 >$P
		rc_scenario $base $s >/tmp/naive.out || rc=1
		grep -v '^unionlite: ' /tmp/recipe.out >/tmp/recipe.state
		grep -v '^unionlite: ' /tmp/naive.out >/tmp/naive.state
		if cmp -s /tmp/recipe.trace /tmp/trace.$s.$fs; then
			echo "$s on $fs: naive trace NOT caught"
			rc=1
		else
			echo "$s on $fs: naive trace differs from the recipe"
		fi
		if ! cmp -s /tmp/recipe.state /tmp/naive.state; then
			echo "$s on $fs: naive end state differs:"
			diff /tmp/recipe.state /tmp/naive.state
			rc=1
		fi
		# the steps, for the console log
		cat /tmp/trace.$s.$fs >/dev/console
	done
done
echo 0 >$P
ul_umount_disks || rc=1
rmmod unionlite
exit $rc
