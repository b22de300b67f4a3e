# Harness self-test of run-batch.sh: everything is in host.sh, which
# boots other tests' scripts; this one is never run.
echo "harness-batch runs from host.sh only"
exit 1
