# Sourced by the benchmarks' guest scripts (busybox sh): timed runs of
# ul-bench kept as "KEY ROUND RATE" lines in $RATES, and the table rows
# made from them. ab times the same operation on BENCH_A and BENCH_B
# (default /mnt/ul and /mnt/ov: unionlite and overlayfs) interleaved.

RATES=/tmp/bench.rates
: >$RATES

# rec KEY ROUND CMD...: one run of "ul-bench CMD", "KEY ROUND RATE" kept;
# a sync first, so that no run pays for writing back what the one before
# it left dirty (without it, in pairs of runs back to back, the first was
# the slower one in most rounds, for either union)
rec() {
	local key=$1 k=$2 out
	shift 2
	sync
	out=$(ul-bench "$@") || exit 1
	set -- $out
	echo "$key $k ${4%/s}" >>$RATES
}

# ab KEY ROUND OP PATH ARGS...: "ul-bench ab OP" on $BENCH_A/PATH and
# $BENCH_B/PATH, interleaved; kept as ul-KEY and ov-KEY
ab() {
	local key=$1 k=$2 op=$3 path=$4 out
	shift 4
	sync
	out=$(ul-bench ab $op ${BENCH_A:-/mnt/ul}/$path ${BENCH_B:-/mnt/ov}/$path "$@") || exit 1
	echo "$out" | awk -v key=$key -v k=$k \
		'{ sub("/s", "", $4); print (NR == 1 ? "ul-" : "ov-") key, k, $4 }' >>$RATES
}

# best KEY: the highest rate of KEY
best() {
	awk -v k=$1 '$1 == k && $3 > b { b = $3 } END { printf "%.1f", b }' $RATES
}

# ratios A B: "median min max" of the per-round time ratios A/B
ratios() {
	awk -v a=$1 -v b=$2 '$1 == a { ra[$2] = $3 } $1 == b { rb[$2] = $3 }
		END { for (k in ra) if (ra[k] > 0) print rb[k] / ra[k] }' $RATES |
	sort -n | awk '{ v[NR] = $1 }
		END { printf "%.2f %.2f-%.2f", (NR % 2) ? v[(NR + 1) / 2] :
		      (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
}

# total A B: the ratio of A's time to B's summed over the rounds (each
# round does the same amount of work on both: time = amount / rate)
total() {
	awk -v a=$1 -v b=$2 '$1 == a && $3 > 0 { ta += 1 / $3 }
		$1 == b && $3 > 0 { tb += 1 / $3 }
		END { printf "%.2f", (tb > 0) ? ta / tb : 0 }' $RATES
}

# row LABEL KEY_A KEY_B: A's and B's best rates, the ratio of the bests,
# the ratio of the summed times, the median and range of the per-round
# ratios
row() {
	local a b
	a=$(best $2)
	b=$(best $3)
	printf '%-30s %10s %10s %5s %5s %6s %s\n' "$1" "$a" "$b" \
		"$(echo "$a $b" | awk '{ printf "%.2f", ($1 > 0) ? $2 / $1 : 0 }')" \
		"$(total $2 $3)" $(ratios $2 $3)
}

# table_head: the legend and the column names
table_head() {
	echo "ratio = unionlite's time / overlayfs's: of the best rates, of the times of all rounds, median and range of the rounds"
	printf '%-30s %10s %10s %5s %5s %6s %s\n' operation unionlite overlayfs best all median range
}

# bench_tree DIR N: a lower tree DIR/t0 .. DIR/t<N-1>, each of 20
# directories of the same 20 files of 4 to 16 KiB (random data)
bench_tree() {
	local i j
	mkdir -p $1/seed $1/t0 || exit 1
	for i in $(seq 0 19); do
		dd if=/dev/urandom of=$1/seed/f$i bs=1K count=$((4 + i * 12 / 19)) 2>/dev/null ||
			exit 1
	done
	for j in $(seq 0 19); do
		cp -a $1/seed $1/t0/s$j || exit 1
	done
	for j in $(seq 1 $(($2 - 1))); do
		cp -a $1/t0 $1/t$j || exit 1
	done
	rm -rf $1/seed
}
