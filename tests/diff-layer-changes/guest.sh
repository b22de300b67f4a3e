# Differential test against the kernel's overlayfs with the extra
# operations and changes of the layers between mounts (tests/lib/diff.sh,
# DIFF_EXTRA=1): the lower objects carry inode flags (noatime, sync, a
# few append-only or immutable), and the operations of diff-overlayfs
# come with chattr (one of those four flags set or cleared, as root and
# as uid 1000 and 1001) and move-in (copies moved into a directory of
# the upper layer alone, taken out again, the directory listed). After
# each seed's operations a lower layer goes (over one layer a lower
# directory is removed, over three the middle or the bottom layer is
# dropped), the unions are mounted again for more operations, then each
# union's upper becomes the top lower layer of a new union for more
# operations. Every phase is compared as diff-overlayfs compares a seed,
# with the four inode flags of every file and directory, and the
# impure mark of an empty directory of the upper layer alone. Seeds 1
# and 2 over one lower layer, 1 and 2 over three (the middle layer
# dropped for the odd seed, the bottom one for the even), 400
# operations a phase; on debug seed 2 over three layers, 100 a phase. One line per seed and phase, one per change.
. /tests/lib/diff.sh
DIFF_EXTRA=1
ops=400 one=1 three=2
[ "$UL_VARIANT" = debug ] && ops=100 one= three=2
rc=0
if [ -n "$one" ]; then
	# shellcheck disable=SC2086
	ul_diff_run $ops $one || rc=1
fi
DIFF_LAYERS=3
# shellcheck disable=SC2086
ul_diff_run $ops $three || rc=1
exit $rc
