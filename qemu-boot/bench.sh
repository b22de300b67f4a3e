#!/bin/bash
# bench.sh: run the benchmarks (tests whose test.conf says KIND=bench) on
# the base kernel and print their tables. Numbers, not pass/fail: the
# run fails only when a benchmark cannot run.
. "$(dirname "$0")/lib.sh"

here=$UL_TOP/qemu-boot
"$here/prepare.sh" base
status=0
for d in "$UL_TOP"/tests/*/test.conf; do
	grep -qs '^KIND=bench' "$d" || continue
	t=$(basename "$(dirname "$d")")
	echo "== $t (base kernel, QEMU TCG)"
	"$here/run-test.sh" "$t" base || status=1
	cat "$UL_BUILD/logs/base/$t.out"
	[ $status = 0 ] || sed -n '2,$p' "$UL_BUILD/logs/base/$t.verdict"
done
exit $status
