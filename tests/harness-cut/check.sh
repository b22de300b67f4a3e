# Harness self-test of power cuts (run by host.sh, boot "check"): the
# count written before the cut survived it.
n=$(ul-seqlog read /dev/vdc)
echo "count on the log disk: $n"
[ "$n" -gt 0 ]
