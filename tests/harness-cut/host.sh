# Host driver (sourced by run-test.sh): cut the power 1 s into the count,
# then boot again and read what survived. Both boots must behave: the
# first is cut (no sentinel), the second finds a count above 0.
ul_boot cut guest.sh 1
echo "boot 1: $UL_BOOT_RC"
ul_boot check check.sh
echo "boot 2: rc=$UL_BOOT_RC"
grep -q '^count on the log disk: [1-9]' "$logs/$test@check.out" &&
	echo "boot 2: the synchronous count survived the cut"
[ "$UL_BOOT_RC" = 0 ]
