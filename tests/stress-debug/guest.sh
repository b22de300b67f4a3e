# The debug kernel stress: 4 processes doing random namespace
# operations on one unionlite mount for 15 seconds; then umount, work/
# empty, module unload. The harness requires a console free of KASAN,
# lockdep, hung-task and WARNING reports, and e2fsck -fn clean images.
. /tests/lib/stress.sh
stress_run 15
