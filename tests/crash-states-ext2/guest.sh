# Every whiteout transition on an ext2 upper (with the series), at every
# crash state the disk can present (tests/lib/crash-states.sh). ext2
# has no journal: expected.out is the model of docs/atomicity.md, which
# transitions a crash can tear and which it cannot.
. /tests/lib/crash-states.sh
cs_main unionlite ext2
# judged by expected.out (the model), not by the status
rc=0
cs_fini || rc=1
exit $rc
