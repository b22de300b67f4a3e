# Issue 6, power cuts (boot "work" of host.sh): ul-crash run --naive loops
# the whiteout transitions directly on the upper, each in two steps with
# a syncfs between them, until the host cuts the power.
. /tests/lib/crash.sh
crash_workload --naive
