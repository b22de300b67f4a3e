# Boot "cut" of realworld-powercut (host.sh): the union named by ul.fs over the
# image's layers (built on the first boot and kept on vda) with a fresh
# upper for round ul.round, a git repository committed (git's
# core.fsync=all), everything synced; then the window opens and the
# package phase runs (jq installed over the layers' whiteouts, nano
# purged and installed again) while git commits in a loop, until the
# host cuts the power.
. /tests/lib/common.sh
. /tests/lib/realworld.sh
fs=$(ul_arg fs)
i=$(ul_arg round)
ul_mount_disks || exit 1
rw_root || exit 1
insmod /lib/modules/unionlite.ko || exit 1
if [ ! -e $UL_EXT4/layers/done ]; then
	rw_layers || exit 1
	touch $UL_EXT4/layers/done
fi
rw_enter $fs $RW_LOWER $UL_EXT4/p$i-$fs || exit 1
rw_in_root "$RW_GIT_ENV"'
	git config --global core.fsync all
	mkdir /root/repo && cd /root/repo && git init -q
	cp -a /usr/share/doc/git/RelNotes . && git add -A && git commit -qm base' || exit 1
sync
echo UL-CUT-WINDOW
echo "phase: window open"
rw_in_root "$RW_GIT_ENV"'
	cd /root/repo
	for k in $(seq 1 1000); do echo $k >> RelNotes/2.0.0.txt; git commit -qam "c$k"; done' &
rw_in_root 'dpkg -i /root/debs/jq_*.deb' >/dev/null 2>&1 && echo "phase: jq installed"
rw_in_root 'dpkg --purge nano' >/dev/null 2>&1 && echo "phase: nano purged"
rw_in_root 'dpkg -i /root/debs/nano_*.deb' >/dev/null 2>&1 && echo "phase: nano installed"
wait
echo "phase: the power was not cut"
