# Harness self-test: a guest script that fails must fail the run.
echo "this script exits 1 on purpose"
exit 1
