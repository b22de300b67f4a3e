# Benchmark (make bench; numbers, not a pass/fail test): a readdir of a
# lower-only directory of 100,000 entries on four fresh unions of one
# lower layer, two unionlite (ul, ul2) and two overlayfs (ov, ov2),
# "ul-bench ab readdir" (15 passes each, in turns) over 6 rounds: each
# union against its twin, which shows the bench's own bias, and each
# unionlite against an overlayfs, either side first.
. /tests/union-lib/union.sh
. /tests/lib/bench.sh
ul_start || exit 1
B=$UL_EXT4
mkdir -p $B/lower/d100k
ul-bench mkfiles $B/lower/d100k 100000 || exit 1
for m in ul ul2 ov ov2; do
	fs=unionlite; case $m in ov*) fs=overlay ;; esac
	mkdir -p $B/$m-u $B/$m-w /mnt/$m
	mount -t $fs -o lowerdir=$B/lower,upperdir=$B/$m-u,workdir=$B/$m-w none /mnt/$m || exit 1
	ul-bench readdir /mnt/$m/d100k >/dev/null
done
RATES=/tmp/rates; : >$RATES
for k in 1 2 3 4 5 6; do
	BENCH_A=/mnt/ul BENCH_B=/mnt/ul2 ab uu $k readdir d100k 15
	BENCH_A=/mnt/ov BENCH_B=/mnt/ov2 ab oo $k readdir d100k 15
	BENCH_A=/mnt/ul BENCH_B=/mnt/ov ab uo $k readdir d100k 15
	BENCH_A=/mnt/ov2 BENCH_B=/mnt/ul2 ab ou $k readdir d100k 15
done
echo "readdir 100k, A vs B: best rates (entries/s); A's time / B's: of the best rates, of all rounds, median and range"
row "ul vs ul2" ul-uu ov-uu
row "ov vs ov2" ul-oo ov-oo
row "ul vs ov" ul-uo ov-uo
row "ov2 vs ul2" ul-ou ov-ou
for m in ul ul2 ov ov2; do umount /mnt/$m; done
ul_finish 0
