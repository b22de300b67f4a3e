#!/bin/bash
# demo.sh: build what is needed, then boot the base kernel of the first
# tree of LINUX once per scenario named in tests/DEMO and show each
# one's output as it runs, followed by the harness's verdict.
. "$(dirname "$0")/lib.sh"

here=$UL_TOP/qemu-boot
"$here/prepare.sh" base
ul_kv base
status=0
while read -r t; do
	t=${t%%#*}
	t=$(echo "$t" | tr -d '[:space:]')
	[ -n "$t" ] || continue
	echo
	echo "=================================================================="
	echo "== $t"
	sed -n 's/^# \{0,1\}/   /p' "$UL_TOP/tests/$t/guest.sh" | sed '/^   $/q' | head -8
	echo "=================================================================="
	UL_LIVE=1 "$here/run-test.sh" "$t" "$UL_KV" || status=1
	echo "-- verdict: $(tr '\n' ' ' < "$UL_LOGS/$UL_KV/$t.verdict")"
	echo "-- console: build/logs/$UL_KV/$t.log   rerun: build/logs/$UL_KV/$t.qemu"
done < "$UL_TOP/tests/DEMO"
exit $status
