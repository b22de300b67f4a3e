# Host driver (sourced by run-test.sh): run one batch of the harness's
# self-tests with logs and images of its own, and print each verdict
# reduced to its kinds. A batched test must be judged as it is alone:
# harness-warn's WARNING is its own and not the next test's, each failure
# is of its own kind, a hang is caught at the hanging test's own TIMEOUT
# (6 s, not the batch's sum) and the test after it runs alone.
tests="boot harness-warn harness-exit1 harness-golden harness-timeout harness-fsck-guest"
UL_LOGS=$run/logs UL_RUNS=$run/runs "$UL_TOP/qemu-boot/run-batch.sh" "$kv" $tests \
	> "$run/batch.out" 2>&1
echo "run-batch.sh exit status: $?"
grep -o '^harness-fsck-guest: not reached in the batch, run alone$' "$run/batch.out"
for t in $tests; do
	v=$run/logs/$kv/$t.verdict
	echo "$t: $(head -n 1 "$v") $(sed -n '2,$p' "$v" | grep -v '^time:' | cut -d: -f1 | sort -u | tr '\n' ' ')"
done
secs=$(sed -n 's/^time: \([0-9]*\).*/\1/p' "$run/logs/$kv/harness-timeout.verdict")
[ "$secs" -lt 30 ] && echo "harness-timeout: killed at its own TIMEOUT"
grep -c '^UNIONLITE-BEGIN' "$run/runs/$kv/batch-boot/console.log" | sed 's/^/tests begun in the one boot: /'
