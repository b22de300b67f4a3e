# containers/storage's layer operations (the containers-storage CLI,
# what podman and buildah store images with) on its overlay driver two
# ways: native, on the kernel's overlayfs, and with unionlite-mount as
# its mount program. A stack of layers with deletions, a replaced
# directory and opaque ones; each layer's changes and its diff (a tar
# with AUFS whiteouts, as images carry them); the diff applied to a new
# layer (written in the AUFS form for the mount program) and a layer on
# top of that, whose deletions cross the applied marks. Transcripts
# compared.
. /tests/union-lib/union.sh
ul_start || exit 1
rc=0
G=$UL_EXT4/graph R=/run/cs

cs() {
	containers-storage --graph $G --run $R --storage-driver overlay \
		${MP:+--storage-opt overlay.mount_program=$MP} "$@"
}

# view DIR: every name under DIR with its type and content
view() {
	(cd "$1" && find . | sort | while read -r p; do
		if [ -L "$p" ]; then echo "$p -> $(readlink "$p")"
		elif [ -d "$p" ]; then echo "$p/"
		else echo "$p: $(cat "$p" 2>&1)"; fi
	done)
}

# mnt LAYER: mount it, print nothing; sets M
mnt() {
	M=$(cs mount "$1") || { echo "mount $1 failed"; return 1; }
}

# lists LAYER WHO: the layer's changes and the names of its diff (in
# /tmp/LAYER.tar), in /tmp/changes.LAYER.WHO and /tmp/diff.LAYER.WHO.
# The driver's own: native reads the upper, the mount program's are
# the naive ones (the two trees compared).
lists() {
	cs changes $1 | sort >/tmp/changes.$1.$2 &&
		cs diff -f /tmp/$1.tar $1 && tar -tf /tmp/$1.tar | sort >/tmp/diff.$1.$2
}

# layers WHO: the stack of layers, each view printed
layers() {
	rm -rf $G $R
	mkdir -p $G $R
	cs create-layer --id base >/dev/null && mnt base || return 1
	mkdir -p $M/d/sub $M/e $M/o
	for f in a b keep d/x d/y d/sub/s e/p o/1 o/2; do
		echo "base $f" >$M/$f
	done
	ln -s a $M/link
	cs unmount base >/dev/null || return 1

	cs create-layer --id l1 base >/dev/null && mnt l1 || return 1
	echo "## l1 mounted"
	view $M
	rm $M/a $M/d/x && rm -r $M/e && echo "l1 e" >$M/e &&
		rm -r $M/o && mkdir $M/o && echo "l1 o/3" >$M/o/3 &&
		echo "l1 b" >$M/b && rm $M/link && mkdir $M/n && echo "l1 n/1" >$M/n/1 ||
		echo "a change in l1 failed"
	echo "## l1 changed"
	view $M
	cs unmount l1 >/dev/null || return 1
	lists l1 $1 && cs create-layer --id l1b base >/dev/null &&
		cs applydiff -f /tmp/l1.tar l1b >/dev/null || return 1
	cs create-layer --id l2 l1b >/dev/null && mnt l2 || return 1
	echo "## l2 mounted: the diff of l1 applied to l1b, under it"
	view $M
	rm $M/b $M/d/y && rm -r $M/o && echo "l2 a" >$M/a && rm -r $M/n ||
		echo "a change in l2 failed"
	echo "## l2 changed"
	view $M
	cs unmount l2 >/dev/null || return 1
	lists l2 $1 && cs create-layer --id l2b l1b >/dev/null && cs applydiff -f /tmp/l2.tar l2b >/dev/null &&
		cs create-layer --id top l2b >/dev/null && mnt top || return 1
	echo "## top mounted: the diff of l2 applied to l2b, under it"
	view $M
	cs unmount top >/dev/null || return 1
	# a tar as the native driver writes an opaque directory
	rm -rf /tmp/opq && mkdir -p /tmp/opq/o /tmp/opq/d && : >/tmp/opq/o/.wh..wh..opq &&
		echo "tar o/4" >/tmp/opq/o/4 && : >/tmp/opq/d/.wh.sub &&
		(cd /tmp/opq && tar -cf /tmp/opq.tar o d) || return 1
	cs create-layer --id opq base >/dev/null && cs applydiff -f /tmp/opq.tar opq >/dev/null &&
		cs create-layer --id opqtop opq >/dev/null && mnt opqtop || return 1
	echo "## an opaque directory and a deleted one from a tar, applied"
	view $M
	cs unmount opqtop >/dev/null || return 1
	echo "## l2 mounted again"
	mnt l2 || return 1
	view $M
	cs unmount l2 >/dev/null
	cs shutdown >/dev/null 2>&1
	grep -c " $G" /proc/mounts
}

MP= layers native >/tmp/cs.native 2>&1
MP=/bin/unionlite-mount layers unionlite >/tmp/cs.unionlite 2>&1
cat /tmp/cs.unionlite
if ! cmp -s /tmp/cs.native /tmp/cs.unionlite; then
	echo "the native driver differs (- unionlite, + native):"
	diff -U0 /tmp/cs.unionlite /tmp/cs.native | sed -n 's/^[-+][^-+]/	&/p'
	rc=1
fi
echo "### the applied layers' diff directories, AUFS form"
(cd $G/overlay && find l1b/diff l2b/diff opq/diff -name '.wh.*' | sort)
# Where they differ, the naive lists (unionlite-mount) say an opaque
# directory's former entries are deleted, the native ones that it was
# replaced (docs/unionlite.md); applied, both give the same tree (above).
for f in changes.l1 diff.l1 changes.l2 diff.l2; do
	echo "### $f (unionlite-mount)"
	cat /tmp/$f.unionlite
	cmp -s /tmp/$f.unionlite /tmp/$f.native && continue
	echo "### $f, native differs (- unionlite, + native):"
	diff -U0 /tmp/$f.unionlite /tmp/$f.native | sed -n 's/^[-+][^-+]/	&/p'
done
ul_finish $rc
