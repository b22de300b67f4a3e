# Harness self-test of power cuts (run by host.sh, boot "cut"): count on
# the raw log disk, synchronously, until the host cuts the power.
echo "counting on /dev/vdc"
echo UL-CUT-WINDOW
ul-seqlog count /dev/vdc 100000000
echo "the count finished: the power was not cut"
