# make fuzz SEEDS=N OPS=M [FIRST=F] [LAYERS=3]: the differential test of
# diff-overlayfs (or, with LAYERS=3, of diff-multilower) with seeds
# F..F+N-1 (F: 1000 unless given) of M operations each (the kernel
# command line's ul.diff_seeds, ul.diff_ops, ul.diff_first and
# ul.diff_layers); one line per seed, then the totals. UL_FUZZ_EXTRA=1
# in the environment (ul.diff_extra=1): that of diff-layer-changes, the
# extra operations and the two changes of the layers, M operations in
# each of a seed's three phases. UL_FUZZ_REDIRECT=1 (ul.diff_redirect=1):
# both unions mounted with redirect_dir=on, as diff-redirect;
# UL_FUZZ_METACOPY=1 (ul.diff_metacopy=1): with metacopy=on, as
# diff-metacopy.
. /tests/lib/diff.sh
n=20 ops=2000 first=1000
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	ul.diff_first=*) first=${arg#ul.diff_first=} ;;
	ul.diff_seeds=*) n=${arg#ul.diff_seeds=} ;;
	ul.diff_ops=*) ops=${arg#ul.diff_ops=} ;;
	ul.diff_layers=*) DIFF_LAYERS=${arg#ul.diff_layers=} ;;
	ul.diff_extra=*) DIFF_EXTRA=${arg#ul.diff_extra=} ;;
	ul.diff_redirect=1) DIFF_OPTS=redirect_dir=on ;;
	ul.diff_metacopy=1) DIFF_OPTS=metacopy=on ;;
	esac
done
seeds= i=0
while [ $i -lt $n ]; do
	seeds="$seeds $((first + i))"
	i=$((i + 1))
done
t0=$(date +%s)
# shellcheck disable=SC2086
ul_diff_run $ops $seeds
rc=$?
t=$(( $(date +%s) - t0 ))
if [ "$DIFF_EXTRA" = 1 ]; then
	echo "fuzz: $n seeds of 3 x $ops operations (the extra operations, the layers changed twice) over ${DIFF_LAYERS:-1} lower layer(s) in $t s ($(( 3 * n * ops / (t > 0 ? t : 1) )) operations/s); $UL_DIFF_BAD seeds diverged"
else
	echo "fuzz: $n seeds of $ops operations over ${DIFF_LAYERS:-1} lower layer(s)${DIFF_OPTS:+ with $DIFF_OPTS} in $t s ($(( n * ops / (t > 0 ? t : 1) )) operations/s); $UL_DIFF_BAD seeds diverged"
fi
exit $rc
