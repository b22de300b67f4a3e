# The crash-state test must catch a broken union (tests/lib/crash-states.sh):
# each mutant below, on the transition it breaks, must give violations
# among the promised states of an ext4 upper (an ext2 upper tears these
# transitions without a mutant: crash-states-ext2). unionlite-m4: recipe
# 3 onto a Q only the lower layer has (a whiteout hides lower Q, then the
# exchange); unionlite-m5: recipe 2 with its last two steps swapped;
# unionlite-m6: a copy-up that links its copy into place before copying
# the data into it (qemu-boot/modules.sh); naive=1: the test parameter
# that does the recipes in plain visible steps, and removes a metacopy
# file's mark before its data is copied; skip_work_cleanup=1: the mount
# leaves work/ as the crash left it (the check that the next mount
# empties it).
. /tests/lib/crash-states.sh
CS_SHORT=1
cs_init unionlite || exit 1
caught() { # caught MODULE PARAMS CLASS UPPERFS NTH
	local runs
	# shellcheck disable=SC2086
	cs_load "$1" $2 || return 1
	runs=$(cs_transition "$3" "$4" "$5")
	echo "$runs" >/dev/console
	if echo "$runs" | grep -q 'could not be recorded'; then
		echo "$3 on $4, $1${2:+ $2}: could not be recorded"
	elif echo "$runs" | grep -q 'violations [1-9]'; then
		echo "$3 on $4, $1${2:+ $2}: caught"
	else
		echo "$3 on $4, $1${2:+ $2}: NOT caught"
	fi
}
caught unionlite-m4 "" rename-lower-q ext4 2
caught unionlite-m5 "" mkdir-over-whiteout ext4 2
caught unionlite-m6 "" copy-up ext4 2
caught unionlite naive=1 rmdir-whiteout ext4 2
caught unionlite naive=1 rename-dir ext4 2
caught unionlite skip_work_cleanup=1 rmdir-whiteout ext4 2
caught unionlite naive=1 meta-data-copy-up ext4 2
# and the module itself passes the same runs
caught unionlite "" rename-lower-q ext4 2
cs_fini
