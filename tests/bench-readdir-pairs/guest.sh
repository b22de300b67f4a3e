# Benchmark (make bench; numbers, not a pass/fail test): a readdir of a
# lower-only directory of 100,000 entries on four fresh unions of one
# lower layer, two unionlite (ul, ul2) and two overlayfs (ov, ov2),
# "ul-bench ab readdir" (15 passes each, in turns) over 6 rounds: each
# union against its twin, which shows the bench's own bias, and each
# unionlite against an overlayfs, either side first. Then the same for
# a merged directory of 100,000 lower and 1,000 upper names, each read
# after a file was made and removed in it (the list built anew):
# "ul-bench ab readdir-changed" (4 passes each).
. /tests/union-lib/union.sh
. /tests/lib/bench.sh
ul_start || exit 1
B=$UL_EXT4
mkdir -p $B/lower/d100k $B/lower/m100k
ul-bench mkfiles $B/lower/d100k 100000 || exit 1
ul-bench mkfiles $B/lower/m100k 100000 || exit 1
for m in ul ul2 ov ov2; do
	fs=unionlite; case $m in ov*) fs=overlay ;; esac
	mkdir -p $B/$m-u/m100k $B/$m-w /mnt/$m
	ul-bench mkfiles $B/$m-u/m100k 1000 u || exit 1
	mount -t $fs -o lowerdir=$B/lower,upperdir=$B/$m-u,workdir=$B/$m-w none /mnt/$m || exit 1
	ul-bench readdir /mnt/$m/d100k >/dev/null
	ul-bench readdir /mnt/$m/m100k >/dev/null
done
RATES=/tmp/rates; : >$RATES

# pairs KEY OP DIR PASSES: 6 rounds of "ab OP DIR PASSES" on the four
# pairs, then a row for each pair
pairs() {
	local k

	for k in 1 2 3 4 5 6; do
		BENCH_A=/mnt/ul BENCH_B=/mnt/ul2 ab ${1}uu $k $2 $3 $4
		BENCH_A=/mnt/ov BENCH_B=/mnt/ov2 ab ${1}oo $k $2 $3 $4
		BENCH_A=/mnt/ul BENCH_B=/mnt/ov ab ${1}uo $k $2 $3 $4
		BENCH_A=/mnt/ov2 BENCH_B=/mnt/ul2 ab ${1}ou $k $2 $3 $4
	done
	row "ul vs ul2" ul-${1}uu ov-${1}uu
	row "ov vs ov2" ul-${1}oo ov-${1}oo
	row "ul vs ov" ul-${1}uo ov-${1}uo
	row "ov2 vs ul2" ul-${1}ou ov-${1}ou
}

echo "readdir 100k, A vs B: best rates (entries/s); A's time / B's: of the best rates, of all rounds, median and range"
pairs l readdir d100k 15
echo "merged readdir 100k + 1k after a change, the same columns"
pairs m readdir-changed m100k 4
for m in ul ul2 ov ov2; do umount /mnt/$m; done
ul_finish 0
