# Every whiteout transition on an ext4 upper, at every crash state the
# disk can present (tests/lib/crash-states.sh): unionlite as users load
# it. make test checks the promised states (flush and FUA); make
# crash-states every state (ul.cs_full=1).
. /tests/lib/crash-states.sh
cs_main unionlite ext4
rc=$?
cs_fini || rc=1
exit $rc
