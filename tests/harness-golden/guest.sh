# Harness self-test: output that differs from expected.out fails the run.
echo "what the script really prints"
