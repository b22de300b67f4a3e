# The module users load has no test switch: its parameters are the two a
# user may set (docs/unionlite.md). The test build (unionlite-test.ko,
# CONFIG_UNIONLITE_TEST=y) adds the test-only ones. Both have the same
# fault-injection points, the kernel's fault attributes in debugfs, all
# off (times 1, probability 0) until a test arms one; rmmod removes them.
. /tests/lib/common.sh
mount -t debugfs none /sys/kernel/debug 2>/dev/null
D=/sys/kernel/debug/unionlite
for m in unionlite unionlite-test; do
	insmod /lib/modules/$m.ko || exit 1
	echo "$m.ko parameters: $(ls /sys/module/unionlite/parameters | tr '\n' ' ')"
	echo "$m.ko fault-injection points:" $(for f in $D/fail_*; do
		echo "${f##*/}:$(cat $f/probability)"; done)
	rmmod unionlite || exit 1
	echo "after rmmod: $(ls $D 2>&1 | sed 's/.*: //')"
done
