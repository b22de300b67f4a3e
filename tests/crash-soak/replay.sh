# Issue 6, power cuts (boot "replay" of host.sh): replay the ext4 journal.
. /tests/lib/crash.sh
crash_replay
