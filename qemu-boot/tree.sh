#!/bin/bash
# Extract the Debian 6.1 source under build/linux and apply kernel-series/
# in the order of kernel-series/series; keep build/linux-pristine, the
# tree without the series.
#
# The tree is a git repository whose tag "pristine" is the unpacked
# tarball. When the series changes, the tree is reset to "pristine" (git
# rewrites only the files that differ) and the series is applied again
# with git am, so kbuild rebuilds only what the series touches.
. "$(dirname "$0")/lib.sh"

series_dir=$UL_TOP/kernel-series
export GIT_AUTHOR_NAME=unionlite GIT_AUTHOR_EMAIL=unionlite@example.org
export GIT_COMMITTER_NAME=unionlite GIT_COMMITTER_EMAIL=unionlite@example.org
git_tree() { git -C "$UL_TREE" -c core.excludesFile=/dev/null "$@"; }

[ -f "$UL_SRC_TARBALL" ] || ul_die "$UL_SRC_TARBALL not found (package linux-source-6.1)"

if ! git_tree rev-parse -q --verify pristine >/dev/null 2>&1; then
	ul_say "tree: extracting $UL_SRC_TARBALL"
	rm -rf "$UL_TREE" "$UL_TREE.tmp"
	mkdir -p "$UL_TREE.tmp"
	tar -C "$UL_TREE.tmp" -xf "$UL_SRC_TARBALL" --strip-components=1
	git -C "$UL_TREE.tmp" init -q
	git -C "$UL_TREE.tmp" add -f -A
	git -C "$UL_TREE.tmp" commit -q -m "linux-source-6.1 as unpacked"
	git -C "$UL_TREE.tmp" tag pristine
	mv "$UL_TREE.tmp" "$UL_TREE"
fi

# The tree without the series, for the pristine variant: a worktree
# of the same repository at the tag.
if [ ! -f "$UL_BUILD/linux-pristine/Makefile" ]; then
	ul_say "tree: checking out the pristine tree"
	rm -rf "$UL_BUILD/linux-pristine"
	git_tree worktree prune
	git_tree worktree add -q --detach "$UL_BUILD/linux-pristine" pristine
fi

# The patches to apply, in order, and a fingerprint of their content.
patches=()
if [ -f "$series_dir/series" ]; then
	while read -r p; do
		p=${p%%#*}
		p=$(echo "$p" | tr -d '[:space:]')
		[ -n "$p" ] || continue
		[ -f "$series_dir/$p" ] || ul_die "kernel-series/series names $p, which does not exist"
		patches+=("$p")
	done < "$series_dir/series"
fi
want=$(for p in "${patches[@]}"; do echo "$p"; cat "$series_dir/$p"; done |
	sha256sum | cut -d' ' -f1)
stamp=$UL_TREE/.git/unionlite-series
have=$(cat "$stamp" 2>/dev/null || true)
if [ "$want" = "$have" ] && [ -z "$(git_tree status --porcelain -uno)" ]; then
	exit 0
fi

ul_say "tree: applying kernel-series (${#patches[@]} patches)"
git_tree am --abort >/dev/null 2>&1 || true
git_tree reset -q --hard pristine
for p in "${patches[@]}"; do
	if ! git_tree am -q --keep-cr "$series_dir/$p" >"$UL_BUILD/tree-am.log" 2>&1; then
		git_tree am --abort >/dev/null 2>&1 || true
		git_tree reset -q --hard pristine
		rm -f "$stamp"
		sed 's/^/  /' "$UL_BUILD/tree-am.log" >&2
		ul_die "kernel-series/$p does not apply to the 6.1 tree"
	fi
done
echo "$want" > "$stamp"
