# renameat2_checks MNT: the seed's behaviour, on the filesystem at MNT.
# Every step prints the call's outcome and the resulting state.
renameat2_checks() {
	cd "$1" || return 1
	mkdir a b

	echo "## EXCHANGE file <-> file, across parents"
	echo A > a/f
	echo B > b/g
	ul_run ul-rename -x a/f b/g
	ul_show a/f b/g

	echo "## EXCHANGE file <-> dir, across parents"
	echo F > a/file
	mkdir b/dir
	echo inside > b/dir/x
	ul_show a b
	ul_run ul-rename -x a/file b/dir
	ul_show a/file b/dir a b

	echo "## EXCHANGE dir <-> dir, across parents"
	mkdir -p a/d1/sub b/d2
	echo one > a/d1/one
	ul_run ul-rename -x a/d1 b/d2
	ul_show a/d1 b/d2 b/d2/sub a b

	echo "## EXCHANGE with a missing end"
	ul_run ul-rename -x a/missing b/g
	ul_run ul-rename -x a/f b/missing
	ul_show a/f b/g

	echo "## NOREPLACE"
	ul_run ul-rename -n a/f b/g
	ul_run ul-rename -n a/f b/new
	ul_show a/f b/g b/new

	echo "## WHITEOUT"
	ul_run ul-rename -w b/new b/moved
	ul_show b/new b/moved

	echo "## invalid combinations"
	ul_run ul-rename -x -n b/g b/moved
	ul_run ul-rename -x -w b/g b/moved
	ul_show b/g b/moved

	cd /
}
