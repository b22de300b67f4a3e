# Issue 6, power cuts on unionlite (boot "replay" of host.sh): replay the
# ext4 journal.
CRASH_FS=unionlite
. /tests/lib/crash.sh
crash_replay
