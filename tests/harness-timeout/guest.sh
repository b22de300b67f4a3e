# Harness self-test: a guest that never prints the sentinel is killed at
# the timeout and judged failed.
echo "sleeping past the timeout on purpose"
sleep 100000
