#!/bin/bash
# bench.sh: run the benchmarks (tests whose test.conf says KIND=bench) on
# the base kernel of the first tree of LINUX and print their tables. Numbers, not pass/fail: the
# run fails only when a benchmark cannot run.
. "$(dirname "$0")/lib.sh"

here=$UL_TOP/qemu-boot
"$here/prepare.sh" base
ul_kv base
status=0
for d in "$UL_TOP"/tests/*/test.conf; do
	grep -qs '^KIND=bench' "$d" || continue
	t=$(basename "$(dirname "$d")")
	echo "== $t ($UL_KV kernel, QEMU TCG)"
	"$here/run-test.sh" "$t" "$UL_KV" || status=1
	cat "$UL_LOGS/$UL_KV/$t.out"
	[ $status = 0 ] || sed -n '2,$p' "$UL_LOGS/$UL_KV/$t.verdict"
done
exit $status
