# The stress run must be able to fail. With the fault-injection point
# ul_fault_rename failing at its 300th call, the 300th
# rename step of the module (a rename, or the last step of a copy-up or
# of a whiteout recipe) fails with EIO, an errno none of the operations
# may return here: ul-stress must report it as unexpected and exit 1.
. /tests/lib/stress.sh
ul_need_cpus 2 || exit 1
UL_STRESS_FAULT="ul_fault_rename 300" stress_run 3 >/tmp/stress.out
echo "stress run: exit $?"
cat /tmp/stress.out >/dev/console
if grep -q '^stress: process [0-9]*: 1 unexpected errors, first: .*: Input/output error$' /tmp/stress.out; then
	echo "caught: one unexpected EIO"
else
	echo "not caught"
fi
