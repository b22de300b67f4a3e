# Sourced by the real-client guest scripts (busybox sh): the Debian 12
# root tree of qemu-boot/rootfs.sh (/dev/vdc, read-only) split into
# image layers, and a container's workload run on a union over them.
# Needs ul_mount_disks first (the layers and uppers live on $UL_EXT4).

RW_ROOT=/mnt/root
RW_MNT=/mnt/u
RW_TIMES=/tmp/rw.times
: >$RW_TIMES
# the files whose content records times, inode numbers or stat data:
# dpkg's and update-alternatives' logs (times), ldconfig's aux-cache
# (inode numbers and times of the libraries), git's index (stat data of
# the work tree); docs/overlayfs.md says why the unions' inode numbers differ
RW_VARY='^var/log/dpkg.log: |^var/log/alternatives.log: |^var/cache/ldconfig/aux-cache: |/\.git/index: '

# rw_root: mount the root tree read-only at $RW_ROOT
rw_root() {
	mkdir -p $RW_ROOT $RW_MNT
	mount -t ext4 -o ro /dev/vdc $RW_ROOT
}

# rw_in_root CMD: CMD run by the tree's own shell in a chroot at
# $RW_MNT (never busybox's applets), as root, in a clean environment
rw_in_root() {
	chroot $RW_MNT /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 /bin/sh -c "$1" </dev/null
}

# rw_in_user CMD: the same as uid 1000 (user ul, made by the workload)
rw_in_user() {
	chroot $RW_MNT /usr/bin/setpriv --reuid=1000 --regid=1000 --init-groups \
		/usr/bin/env -i PATH=/usr/bin:/bin HOME=/home/ul LANG=C.UTF-8 \
		/bin/sh -c "cd && $1" </dev/null
}

# rw_enter FS LOWER UPPER [OPTS]: mount union FS (unionlite or overlay)
# at $RW_MNT over the lower layers LOWER (a lowerdir= list), upper UPPER
# (its work dir beside it), with more mount options OPTS, and with /proc
# and /dev inside
rw_enter() {
	mkdir -p $3 $3.work
	mount -t $1 -o lowerdir=$2,upperdir=$3,workdir=$3.work${4:+,$4} none $RW_MNT || return 1
	mount -t proc proc $RW_MNT/proc && mount -t devtmpfs dev $RW_MNT/dev
}

rw_leave() {
	umount $RW_MNT/dev && umount $RW_MNT/proc && umount $RW_MNT
}

# rw_layers: the image's layers, made as an image builder makes them:
# overlayfs over the root tree, its upper kept as the next layer.
# L2 "packages": the .deb files of /root/debs installed, and a shared
# group directory (2775, files 664). L3 "removal": jq purged (its files
# and directories become whiteouts), nano purged and installed again
# (its directories come back opaque). Prints what the layers hold.
RW_LOWER=$UL_EXT4/layers/L3:$UL_EXT4/layers/L2:$RW_ROOT
rw_layers() {
	local l=$UL_EXT4/layers
	mkdir -p $l
	rw_enter overlay $RW_ROOT $l/L2 || return 1
	rw_in_root 'set -e
		dpkg -i /root/debs/*.deb
		install -d -m 2775 -g staff /srv/shared
		for f in a b c; do echo "$f" > /srv/shared/$f; done
		chgrp staff /srv/shared/*; chmod 664 /srv/shared/*' >/tmp/rw-L2.log 2>&1 ||
		{ echo "layer L2 failed"; tail -5 /tmp/rw-L2.log; rw_leave; return 1; }
	rw_leave || return 1
	rw_enter overlay $l/L2:$RW_ROOT $l/L3 || return 1
	rw_in_root 'set -e
		dpkg --purge jq nano
		dpkg -i /root/debs/nano_*.deb' >/tmp/rw-L3.log 2>&1 ||
		{ echo "layer L3 failed"; tail -5 /tmp/rw-L3.log; rw_leave; return 1; }
	rw_leave || return 1
	rm -rf $l/L2.work $l/L3.work
	echo "layers: L2 $(find $l/L2 | wc -l) entries;" \
		"L3 $(find $l/L3 -type c | wc -l) whiteouts," \
		"$(getfattr -R -n trusted.overlay.opaque --absolute-names $l/L3 2>/dev/null |
			grep -c '^# file') opaque dirs"
}

# rw_time PHASE CMD: CMD run by $RW_IN (default rw_in_root), its time added to PHASE in
# $RW_TIMES ("FS PHASE SECONDS"); output in /tmp/rw-$RW_FS-PHASE.log.
# With RW_SYNC=1 a sync first, timed as phase "sync": each phase's time
# is then its own, not partly the write-back of the phases before it
rw_time() {
	local t0 t1 rc
	if [ "$RW_SYNC" = 1 ]; then
		t0=$(cut -d' ' -f1 /proc/uptime)
		sync
		t1=$(cut -d' ' -f1 /proc/uptime)
		echo "$RW_FS sync $t0 $t1" | awk '{ printf "%s %s %.2f\n", $1, $2, $4 - $3 }' >>$RW_TIMES
	fi
	t0=$(cut -d' ' -f1 /proc/uptime)
	${RW_IN:-rw_in_root} "$2" >>/tmp/rw-$RW_FS-$1.log 2>&1
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "$RW_FS $1 $t0 $t1" | awk '{ printf "%s %s %.2f\n", $1, $2, $4 - $3 }' >>$RW_TIMES
	return $rc
}

# rw_fail PHASE: report a failed phase with the end of its log
rw_fail() {
	echo "$1 failed"
	tail -5 /tmp/rw-$RW_FS-$1.log
	return 1
}

# rw_workload FS: the container's work, in phases, on the union FS
# mounted at $RW_MNT; prints what a golden can hold and returns 1 if a
# phase fails
RW_GIT_ENV='export GIT_AUTHOR_NAME=ul GIT_AUTHOR_EMAIL=ul@example.org \
	GIT_COMMITTER_NAME=ul GIT_COMMITTER_EMAIL=ul@example.org \
	GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
	set -e
	git config --global init.defaultBranch main
	git config --global pack.threads 1'
rw_workload() {
	local rc=0 v
	RW_FS=$1
	rm -f /tmp/rw-$RW_FS-*.log
	# dpkg: jq installed over L3's whiteouts, nano (opaque dirs in
	# L3) purged and installed again; a user added. The test kernels
	# have no networking: useradd (it opens the audit socket) cannot
	# run, so the user is added as vipw and vigr would, and given a
	# home from /etc/skel and a mail spool (/var/mail is 2775)
	rw_time dpkg 'set -e
		dpkg -i /root/debs/jq_*.deb
		dpkg --purge nano
		dpkg -i /root/debs/nano_*.deb
		for f in passwd group shadow gshadow; do cp -p /etc/$f /etc/$f-; done
		echo "ul:x:1000:1000::/home/ul:/bin/sh" >> /etc/passwd
		echo "ul:!:20000:0:99999:7:::" >> /etc/shadow
		echo "ul:x:1000:" >> /etc/group
		echo "ul:!::" >> /etc/gshadow
		cp -rT /etc/skel /home/ul && chown -R ul:ul /home/ul && chmod 700 /home/ul
		install -m 660 -o ul -g mail /dev/null /var/mail/ul
		pwck -qr && grpck -r' || rw_fail dpkg || rc=1
	rw_in_root 'dpkg --audit' && echo "dpkg --audit: clean" || rc=1
	v=$(rw_in_root 'dpkg --verify')
	[ -z "$v" ] && echo "dpkg --verify: clean" || { echo "dpkg --verify: $v" | head -5; rc=1; }
	rw_in_root 'update-alternatives --query editor' | grep '^Value:'
	# git: a repository of a tree from the image; fixed dates and one
	# pack thread, so that both unions make the same objects
	rw_time git "$RW_GIT_ENV"'
		mkdir /root/repo && cd /root/repo && git init -q
		cp -a /usr/share/doc/git/RelNotes . && git add -A && git commit -qm base
		git checkout -qb topic && rm RelNotes/1.5*.txt && git commit -qam "drop 1.5"
		git checkout -q main && echo x >> RelNotes/2.0.0.txt && git commit -qam "touch 2.0.0"
		git merge -q --no-edit topic && git checkout -q topic && git rebase -q main
		git gc -q --prune=now && git fsck --strict --no-progress
		echo "git: $(git rev-list --count --all) commits, fsck clean"' || rw_fail git || rc=1
	# compile: __pycache__ beside the image's read-only sources (the
	# .pyc files there rewritten), and a group-writable file changed
	rw_time compile 'set -e
		cd /usr/lib/python3.11
		python3 -m compileall -q -f -j 1 json email http logging
		echo "compiled: $(ls json/__pycache__ email/__pycache__ | grep -c "\.pyc$") .pyc files"
		echo d >> /srv/shared/a' || rw_fail compile || rc=1
	# an archive of image directories made (tar-c) and extracted
	# (tar-x), and a tree copied (cp-a), with times, modes and xattrs
	# (no rsync: it needs socketpair(), and the test kernels have no
	# networking)
	rw_time tar-c 'tar -C /usr/share -cf /root/share.tar doc man common-licenses' ||
		rw_fail tar-c || rc=1
	rw_time tar-x 'set -e
		mkdir /root/x && tar -C /root/x --xattrs -xpf /root/share.tar' || rw_fail tar-x || rc=1
	rw_time cp-a 'cp -a --preserve=all /usr/share/perl5 /root/perl5' || rw_fail cp-a || rc=1
	rw_in_root 'echo "tar: $(tar -tf /root/share.tar | wc -l) entries"' \
		>>/tmp/rw-$RW_FS-tar-x.log || rc=1
	# moves: directories of the image moved and moved back, an image
	# file renamed over another
	rw_time move 'set -e
		mv /usr/share/doc/git/RelNotes /root/relnotes
		mv /usr/share/man /usr/share/man.old && mv /usr/share/man.old /usr/share/man
		mv /usr/share/locale /usr/local/share/locale
		mv /usr/share/common-licenses/GPL-3 /usr/share/common-licenses/GPL
		mv /root/x/doc /root/doc' || rw_fail move || rc=1
	# removal: large trees, of the image and of the upper alone
	rw_time removal 'set -e
		rm -rf /usr/share/doc /root/x /usr/local/share/locale /root/share.tar
		echo "removal: $(find /usr/share | wc -l) entries left in /usr/share"' ||
		rw_fail removal || rc=1
	# uid 1000: git, Python and tar in the home directory; what the
	# layers refuse it is refused
	RW_IN=rw_in_user
	rw_time user "$RW_GIT_ENV"'
		mkdir repo && cd repo && git init -q
		cp -r /usr/lib/python3.11/json . && git add -A && git commit -qm json
		python3 -m compileall -q -j 1 json && python3 -c "import sys; sys.path.insert(0, \".\"); import json; print(json.__file__.split(\"/\")[-2])"
		rm -r json/__pycache__ && mv json js && git add -A && git commit -qm moved
		git gc -q --prune=now && git fsck --strict --no-progress
		tar --sort=name --mtime=@0 --exclude=./.git/index -cf ../repo.tar . && mkdir ../t && tar -C ../t -xf ../repo.tar
		echo "user: $(git rev-list --count HEAD) commits, $(find ../t | wc -l) entries"
		for c in "rm -f /etc/hostname" "touch /usr/bin/ul" "mv /usr/share/dict /tmp/" "chmod 777 /srv/shared"; do
			$c 2>/dev/null && echo "user: $c: allowed" || echo "user: $c: refused"
		done' || rw_fail user || rc=1
	RW_IN=rw_in_root
	cat /tmp/rw-$RW_FS-*.log | grep -E '^(git|compiled|tar|removal|user):'
	rw_in_root 'nano --version | head -1; jq --version; echo "{\"a\":1}" | jq -M .a'
	return $rc
}

# rw_workload_light: the part of the workload the debug kernel runs in
# make test's time, over the root tree alone: dpkg installs jq and its
# libraries (maintainer scripts, an ldconfig trigger) and purges jq; git commits, branches, merges
# and prunes a small tree; dpkg --audit, --verify, git fsck clean
rw_workload_light() {
	local rc=0 v
	RW_FS=$1
	rm -f /tmp/rw-$RW_FS-*.log
	rw_time dpkg 'set -e
		dpkg -i /root/debs/libonig5_*.deb /root/debs/libjq1_*.deb /root/debs/jq_*.deb
		echo "{\"a\":1}" | jq -M .a
		dpkg --purge jq' || rw_fail dpkg || rc=1
	# --verify of the packages the phase installed: all of them is a
	# minute on the debug kernel
	v=$(rw_in_root 'dpkg --audit; dpkg --verify libonig5 libjq1')
	[ -z "$v" ] && echo "dpkg --audit, --verify: clean" || { echo "dpkg: $v" | head -5; rc=1; }
	rw_time git "$RW_GIT_ENV"'
		mkdir /root/repo && cd /root/repo && git init -q
		cp -a /usr/share/doc/git/RelNotes/2.3*.txt . && git add -A && git commit -qm base
		git checkout -qb topic && rm 2.30*.txt && git commit -qam drop
		git checkout -q main && echo x >> 2.31.0.txt && git commit -qam touch
		git merge -q --no-edit topic && git gc -q --prune=now && git fsck --strict --no-progress
		echo "git: $(git rev-list --count --all) commits, fsck clean"' || rw_fail git || rc=1
	cat /tmp/rw-$RW_FS-*.log | grep -E '^(git|1$)'
	return $rc
}

# rw_tree FS UPPER FILE: mount FS over $RW_LOWER and UPPER, write its
# tree (ul-tree -x) to FILE
rw_tree() {
	mount -t $1 -o lowerdir=$RW_LOWER,upperdir=$2,workdir=$2.work none $RW_MNT || return 1
	ul-tree -x $RW_MNT >$3
	local rc=$?
	umount $RW_MNT
	return $rc
}

# rw_compare A B: the trees in files A and B equal but for $RW_VARY
rw_compare() {
	local n=0 f h
	grep -Ev "$RW_VARY" $1 >/tmp/rw-a.f
	if ! grep -Ev "$RW_VARY" $2 | diff /tmp/rw-a.f - >/tmp/rw-tree.diff; then
		echo "trees differ:"
		head -20 /tmp/rw-tree.diff
		return 1
	fi
	grep -E "$RW_VARY" $2 | cut -d: -f1 >/tmp/rw-vary
	while read -r f; do
		h=$(grep "^$f: " $2 | sed 's/.* hash=//')
		grep -q "^$f: .* hash=$h$" $1 || n=$((n + 1))
	done </tmp/rw-vary
	echo "trees: equal but for the listed files ($n of $(wc -l </tmp/rw-vary) differ)"
}
