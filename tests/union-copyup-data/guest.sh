# What copy-up does with a file's data, on ext4 and ext2 uppers (the
# lower on the same filesystem):
#   sparse    64 MiB with data at 0 and at 32 MiB: holes stay holes
#             where the lower filesystem reports them (SEEK_DATA)
#   trunc     open(O_TRUNC) of an 8 MiB lower file copies no data
#   dense     48 MiB copied by a chmod while a timer signal (handled,
#             not fatal) arrives every millisecond: the chmod succeeds
# (a quarter of those sizes on the debug kernel, where copying is about
# five times slower: the copies still take many timer periods)
#   direct    O_DIRECT reads through the union, lower and upper files
. /tests/union-lib/union.sh
ul_start trace=1 || exit 1
rc=0
kib() { echo $(( $(stat -c %b "$1") * $(stat -c %B "$1") / 1024 )); }
SPARSE=64 DENSE=48
[ "$UL_VARIANT" = debug ] && SPARSE=16 DENSE=12
for base in $UL_EXT4 $UL_EXT2; do
	ul_fresh $base
	L=$base/lower U=$base/upper
	printf a >$L/sparse
	printf b | dd of=$L/sparse bs=1M seek=$((SPARSE / 2)) conv=notrunc 2>/dev/null
	truncate -s ${SPARSE}M $L/sparse
	dd if=/dev/zero of=$L/trunc bs=1M count=8 2>/dev/null
	dd if=/dev/zero of=$L/dense bs=1M count=$DENSE 2>/dev/null
	printf D >$L/direct; truncate -s 8K $L/direct
	printf U >$U/udirect; truncate -s 8K $U/udirect
	ul_mount $base || { rc=1; continue; }
	dmesg -c >/dev/null
	echo "## chmod sparse: $(ul-union-sys chmod $UL_MNT/sparse 600)"
	n=$(kib $U/sparse)
	[ "$(stat -c %s $U/sparse)" = "$(stat -c %s $L/sparse)" ] && s="the lower's size" ||
		s="$(stat -c %s $U/sparse) bytes"
	echo "upper sparse: $s," \
		"$([ "$n" -le 64 ] && echo "holes kept (64 KiB or less)" ||
			echo "holes filled ($((n * 100 / (SPARSE * 1024)))% of the size)")"
	cmp $UL_MNT/sparse $L/sparse && echo "union sparse: the lower's bytes"
	ul_trace_lines >/dev/null
	echo "## open trunc O_WRONLY|O_TRUNC: $(ul-union-sys open $UL_MNT/trunc wt)"
	echo "copydata steps: $(ul_trace_lines | grep -c 'copydata work/')," \
		"upper trunc: $(stat -c %s $U/trunc) bytes"
	echo "## chmod dense under timer signals: $(ul-union-sys chmod-signals $UL_MNT/dense 600)"
	cmp $UL_MNT/dense $L/dense && echo "union dense: the lower's bytes"
	echo "## O_DIRECT, lower direct: $(ul-union-sys odirect $UL_MNT/direct)"
	echo "## O_DIRECT, upper udirect: $(ul-union-sys odirect $UL_MNT/udirect)"
	ul_umount || rc=1
	ul_work $base
done
ul_finish $rc
