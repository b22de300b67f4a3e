# Host driver (sourced by run-test.sh): power cuts in the middle of the
# real client's package phase, on unionlite and on overlayfs. Round i
# cuts both unions at the same moment of the phase (a random 0.5 to 7.9 s
# after the guest opens the window, UL_RW_CUTS rounds, default 6); each
# cut boot (guest.sh) is followed by a check boot (check.sh). Per cut, in
# build/logs/TREE-VARIANT/realworld-powercut.cuts: the cut, what dpkg --audit
# reported before the recovery, and the check's verdict.
n=${UL_RW_CUTS:-6}
cuts=$logs/$test.cuts
: >"$cuts"
rc=0
for i in $(seq 1 "$n"); do
	# tenths of a second, uniform over 0.5 to 7.9
	tenths=$((5 + RANDOM % 75))
	secs=$((tenths / 10)).$((tenths % 10))
	for fs in unionlite overlay; do
		CMDLINE="ul.fs=$fs ul.round=$i"
		ul_boot "cut$i-$fs" guest.sh "$secs"
		[ "$UL_BOOT_RC" = cut ] || { echo "round $i $fs: not cut ($UL_BOOT_RC)"; rc=1; }
		ul_boot "check$i-$fs" check.sh
		{
			printf 'round %d %s cut %s s after the window: ' "$i" "$fs" "$secs"
			grep -a '^phase: ' "$logs/$test@cut$i-$fs.out" | tail -1 | tr '\n' ' '
			grep -a '^audit: ' "$logs/$test@check$i-$fs.out" | tr '\n' ' '
			echo "check rc=$UL_BOOT_RC"
		} >>"$cuts"
		if [ "$UL_BOOT_RC" != 0 ]; then
			echo "round $i $fs: the check failed:"
			grep -av '^audit: ' "$logs/$test@check$i-$fs.out" | head -20
			rc=1
		fi
	done
done
for fs in unionlite overlay; do
	k=$(grep -c " $fs cut .* check rc=0$" "$cuts")
	echo "$fs: $k of $n cuts: e2fsck clean, the union mounts, dpkg recovers, git fsck clean"
done
[ $rc = 0 ]
