# Recipe 6 (docs/recipes.md), rename of a directory that has a lower
# directory, with redirect_dir=on: a merged directory renamed in its
# parent (the redirect set on the upper directory), a lower-only one
# moved into another directory (the redirect set on its copy in the work
# dir), onto a whiteout (one exchange), over a directory holding only
# whiteouts (recipe 4 first), one that has a redirect already (none set),
# an exchange of two lower directories in different parents, and a
# redirect that cannot be set (ul_fault_redirect failing once), on the
# copy and on an upper directory: EXDEV, the view as before.
# Upper before/after, union view, errno and the exact trace (golden).
. /tests/union-lib/recipes.sh
ul_load trace=1 || exit 1
UL_OPTS=redirect_dir=on
rc_main dir-merged dir-lower dir-onto-whiteout dir-over-whiteouts \
	dir-moved dir-exchange dir-redirect-fails dir-merged-redirect-fails || exit 1
rmmod unionlite
