# An upper without RENAME_WHITEOUT (module parameter no_rename_whiteout=1
# makes the mount-time probe count as failed): recipe 3 still works (it
# needs only RENAME_EXCHANGE), recipe 5 returns EXDEV and says why once
# (the traces of both uppers hold the one line).
. /tests/union-lib/recipes.sh
ul_load trace=1 no_rename_whiteout=1 || exit 1
rc_main rename-negative rename-existing || exit 1
cat /tmp/trace.rename-existing.* | grep -c "has no RENAME_WHITEOUT" | sed 's/^/log lines about RENAME_WHITEOUT: /'
rmmod unionlite
