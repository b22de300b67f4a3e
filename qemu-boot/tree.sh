#!/bin/bash
# tree.sh: the Debian source of the tree LINUX selects (lib.sh), with and
# without its series, in the store: build/TREE/linux-pristine links to
# the unpacked tarball (a git repository tagged "pristine"),
# build/TREE/linux to a worktree of it with the series applied by git am
# in the order of kernel-series/TREE/series,
# STORE/tree-TARBALL-SERIES/linux; kernel.sh builds beside it, in
# STORE/tree-TARBALL-SERIES/kbuild-KERNEL-CONFIG, so that every tree is
# "../linux" from its builds (ccache hashes that relative path: a new
# series compiles only the files it changes). Both are named after their
# inputs: a second clone, or the same series again, finds them made. The
# trees are never written after they are made (kernels build with O=).
. "$(dirname "$0")/lib.sh"

series_dir=$UL_SERIES
export GIT_AUTHOR_NAME=unionlite GIT_AUTHOR_EMAIL=unionlite@example.org
export GIT_COMMITTER_NAME=unionlite GIT_COMMITTER_EMAIL=unionlite@example.org
git_in() { local d=$1; shift; git -C "$d" -c core.excludesFile=/dev/null "$@"; }

[ -f "$UL_SRC_TARBALL" ] || ul_die "$UL_SRC_TARBALL not found (package linux-source-$UL_LINUX)"
mkdir -p "$UL_STORE" "$UL_TB" || ul_die "cannot create the store $UL_STORE (set UL_STORE)"
exec 8>"$UL_STORE/.tree.lock"
flock 8

# The patches to apply, in order, and a fingerprint of their content.
patches=()
if [ -f "$series_dir/series" ]; then
	while read -r p; do
		p=${p%%#*}
		p=$(echo "$p" | tr -d '[:space:]')
		[ -n "$p" ] || continue
		[ -f "$series_dir/$p" ] || ul_die "kernel-series/$UL_LINUX/series names $p, which does not exist"
		patches+=("$p")
	done < "$series_dir/series"
fi
tarkey=$(stat -L -c '%n %s %Y' "$UL_SRC_TARBALL" | sha256sum | cut -c1-12)
serieskey=$(for p in "${patches[@]}"; do echo "$p"; cat "$series_dir/$p"; done |
	sha256sum | cut -c1-12)
repo=$UL_STORE/linux-$tarkey
tree=$UL_STORE/tree-$tarkey-$serieskey/linux

if [ ! -f "$repo/.unionlite-done" ]; then
	ul_say "tree: extracting $UL_SRC_TARBALL into the store"
	rm -rf "$repo" "$repo.tmp"
	mkdir -p "$repo.tmp"
	tar -C "$repo.tmp" -xf "$UL_SRC_TARBALL" --strip-components=1
	git -C "$repo.tmp" init -q
	git -C "$repo.tmp" add -f -A
	git -C "$repo.tmp" commit -q -m "linux-source-$UL_LINUX as unpacked"
	git -C "$repo.tmp" tag pristine
	touch "$repo.tmp/.unionlite-done"
	mv "$repo.tmp" "$repo"
fi

# A tree changed by hand (or a series half applied) is made again.
if [ -f "$tree/.unionlite-done" ] && [ -n "$(git_in "$tree" status --porcelain -uno)" ]; then
	ul_say "tree: $tree was changed; making it again"
	rm -f "$tree/.unionlite-done"
fi
if [ ! -f "$tree/.unionlite-done" ]; then
	ul_say "tree: applying kernel-series/$UL_LINUX (${#patches[@]} patches) in a new worktree"
	rm -rf "$tree"
	mkdir -p "${tree%/linux}"
	git_in "$repo" worktree prune
	git_in "$repo" worktree add -q --detach "$tree" pristine
	for p in "${patches[@]}"; do
		if ! git_in "$tree" am -q --keep-cr "$series_dir/$p" >"$UL_TB/tree-am.log" 2>&1; then
			git_in "$tree" am --abort >/dev/null 2>&1 || true
			rm -rf "$tree"
			git_in "$repo" worktree prune
			sed 's/^/  /' "$UL_TB/tree-am.log" >&2
			ul_die "kernel-series/$UL_LINUX/$p does not apply to the $UL_LINUX tree"
		fi
	done
	touch "$tree/.unionlite-done"
fi
ul_store_link linux "$tree"
ul_store_link linux-pristine "$repo"
