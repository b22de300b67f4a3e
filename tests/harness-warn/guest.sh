# Harness self-test: a kernel WARNING fails the run although the script
# succeeds. The test-only module warns when it is loaded.
insmod /lib/modules/test/ul_test_warn.ko || exit 1
rmmod ul_test_warn || exit 1
echo "the script itself succeeded"
