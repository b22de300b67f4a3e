# Who may move a directory that has a lower directory (recipe 6,
# redirect_dir=on), as uid 1000 and 1001 (no supplementary groups), on
# unionlite and on overlayfs over the same layers: the transcripts must
# be the same. Moving a directory to another parent needs write
# permission on the directory itself (its ".." changes); a sticky parent
# lets only the owners move it; a directory the caller cannot search
# hides what is in it; no write permission on a parent, no move. Each
# case once within a parent, once across parents, and as an exchange.
. /tests/union-lib/union.sh
ul_start || exit 1
umask 022
B=$UL_EXT4
L=$B/lower U=$B/upper
rc=0

fixture() {
	ul_layers $B
	cd $L || return 1
	mkdir -p pub/own1000 pub/own1001 a1000/d a1000/ro a1000/rootdir \
		b1000 sticky/s1000 sticky/s1001 closed/sub
	for d in pub/own1000 pub/own1001 a1000/d a1000/ro sticky/s1000 \
		 sticky/s1001 closed/sub; do
		echo f >$d/f
	done
	chmod 0777 pub; chmod 1777 sticky; chmod 0700 closed; chmod 0555 a1000/ro
	chown -R 1000:1000 pub/own1000 a1000/d a1000/ro sticky/s1000 b1000
	chown 1000:1000 a1000
	chown -R 1001:1001 pub/own1001 sticky/s1001
	cd /
}

# run WHO OP ARGS...: ul-union-sys in the union as WHO (a uid, its gid)
run() {
	local who=$1
	shift
	echo "$who $*: $(cd $UL_MNT && ul-union-sys as $who $who "$@" 2>&1)"
}

cases() {
	fixture || return 1
	ul_mount_fs $1 $B redirect_dir=on || return 1
	# the caller's own directory, within and across parents
	run 1000 rename a1000/d a1000/d2
	run 1000 rename a1000/d2 b1000/d3
	run 1001 rename b1000/d3 pub/d4
	# a directory the caller may not write: only within its parent
	run 1000 rename a1000/ro b1000/ro
	run 1000 rename a1000/ro a1000/ro2
	run 1000 rename a1000/rootdir b1000/rootdir
	run 1000 rename a1000/rootdir a1000/rootdir2
	# a sticky parent
	run 1001 rename sticky/s1000 sticky/z
	run 1001 rename sticky/s1000 pub/z
	run 1000 rename sticky/s1000 sticky/t
	run 1000 rename sticky/t pub/t
	# a parent the caller cannot search
	run 1000 rename closed/sub pub/sub
	# exchanges
	run 1001 rename -x pub/own1000 pub/own1001
	run 1000 rename -x pub/t b1000/d3
	run 1001 rename -x pub/own1000 b1000/d3
	run 1000 rename -x pub/own1000 pub/t
	run 1001 rename -x pub/own1001 sticky/s1001
	echo "view:"; ul_tree $UL_MNT | sed 's/^/  /'
	umount $UL_MNT
	echo "upper:"; ul_tree $U | sed 's/^/  /'
}

ul_against_overlay cases || rc=1
ul_fsck_disk $B union-redirect-perm || rc=1
ul_finish $rc
