#!/bin/bash
# run-test.sh TEST [TREE-]VARIANT: boot that kernel in QEMU with fresh disk
# images, run tests/TEST/guest.sh in the guest, and judge the run.
#
# Files, in build/logs/TREE-VARIANT/ (TREE: the first of LINUX by default):
#   TEST.log      the serial console (kernel messages, sentinel)
#   TEST.out      what the guest script printed (second serial port), or
#                 for a multi-boot test what its host driver printed
#   TEST.qemu     the exact command, runnable by hand to repeat the run
#   TEST.verdict  PASS, or FAIL and one line per reason
#   TEST@TAG.*    the same for each boot of a multi-boot test
# Exit status 0 when the run passes, 1 when it fails.
#
# tests/TEST/test.conf (optional, shell) may set:
#   TIMEOUT=seconds   one boot, boot to power-off (default 120; the debug
#                     and kcsan kernels get 3x)
#   MEM=size          guest memory (default 512M; debug, kcsan 1G)
#   CPUS=n            processors the guest brings up (default 1); test.sh
#                     gives such a run n of its job slots, so that each
#                     vCPU has a host core
#   IMG_SIZE=size     size of each disk image (default 64M; sparse files)
#   HOST_PRE=script   run on the host before boot, with the image paths
#   HOST_POST=script  run on the host after QEMU exits, before e2fsck
#   CMDLINE=words     more kernel command line (e.g. the benchmarks'
#                     clock: tsc=reliable)
#   LOGDISK=yes       a third disk, vdc: 1 MiB of raw zeros, not checked
#   ROOTFS=yes        a read-only disk after those, the Debian 12 root
#                     tree of qemu-boot/rootfs.sh (vdc without LOGDISK);
#                     ROOTFS=engine: the container engines' tree
#                     (rootfs.sh engine)
#   HOST_DRIVER=file  a bash file sourced instead of the single boot; it
#                     calls "ul_boot TAG SCRIPT [CUT]" once per boot, and
#                     its output and exit status are the test's
#   BATCH=no          never run in one boot with other tests (test.sh,
#                     run-batch.sh)
#   GOLDEN=name       the golden file's name without .out (default
#                     expected): a test whose output depends on a mode
# tests/TEST/expected.out, when present, must equal TEST.out;
# expected.VARIANT.out, expected.TREE.out or expected.TREE-VARIANT.out
# takes its place on that variant, tree or both (judge.sh).
# UL_LIVE=1 shows the guest's output while it runs; UL_KVM=1 uses KVM
# (it hangs on some hosts: TCG is the default); UL_TIMEOUT overrides.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/judge.sh"

test=${1:?usage: run-test.sh TEST [TREE-]VARIANT}
ul_kv "${2:?usage: run-test.sh TEST [TREE-]VARIANT}"
variant=$UL_V kv=$UL_KV
tdir=$UL_TOP/tests/$test
[ -f "$tdir/guest.sh" ] || ul_die "no such test: tests/$test/guest.sh"

ul_test_conf "$test" "$variant"

logs=$UL_LOGS/$kv
run=$UL_RUNS/$kv/$test
mkdir -p "$logs" "$run"
out=$logs/$test.out
rm -rf "$logs/$test".* "$logs/$test"@* "$run"/*

ul_fresh_images "$run" ""
drives=("${imgs[@]}")
if [ "$LOGDISK" = yes ]; then
	head -c 1M /dev/zero > "$run/vdc-log.img"
	drives+=("$run/vdc-log.img")
fi
if [ "$ROOTFS" = yes ] || [ "$ROOTFS" = engine ]; then
	rootfs=$("$UL_TOP/qemu-boot/rootfs.sh" ${ROOTFS#yes}) || exit 1
	drives+=("$rootfs:ro")
fi
[ -n "$HOST_PRE" ] && (cd "$tdir" && "./$HOST_PRE" "${imgs[@]}")

# ul_aim CLASS M: read a console on standard input until the M-th step of
# an op of transition class CLASS (see ul_boot), once one op of CLASS
# (op 2 or later) has completed, so that the console tells how many steps
# it has; when an op ends with fewer steps than M, the next one is aimed
# at the step before its last. Returns 1 when the input ends first. Read
# by bash, a line at a time (awk would wait for a full buffer).
ul_aim() {
	local cls=$1 m=$2 line k c inop=0 n=0 seen=0
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		*"ul-crash: op "*" start "*)
			k=${line##*ul-crash: op }
			k=${k%% *}
			c=${line##*[}
			c=${c%]}
			inop=0 n=0
			[ "$c" = "$cls" ] && [ "$k" -ge 2 ] && inop=1
			;;
		*"ul-crash: op "*" done"*)
			if [ $inop = 1 ]; then
				[ $n -lt "$m" ] && m=$((n > 1 ? n - 1 : 1))
				seen=1
			fi
			inop=0
			;;
		*"unionlite: "*" = 0")
			if [ $inop = 1 ]; then
				n=$((n + 1))
				[ $seen = 1 ] && [ $n -ge "$m" ] && return 0
			fi
			;;
		esac
	done
	return 1
}

# ul_boot TAG SCRIPT [CUT]: boot once and run tests/TEST/SCRIPT. TAG names
# the boot's files (TEST@TAG.*; empty: TEST.*). With CUT (seconds), the
# power is cut that long after the guest prints a line "UL-CUT-WINDOW":
# QEMU gets SIGKILL, whatever the guest has not written is lost. With CUT
# "aim:CLASS:M:SECS" the power is cut SECS seconds after the console shows
# the M-th step of an op of transition class CLASS (tests/lib/crash.sh:
# the op's "ul-crash: op K start ... [CLASS]" line, then one "unionlite:
# ... = 0" trace line per step), not in the first such op (ul_aim). Sets
# UL_BOOT_RC to the sentinel's rc, "none" when there was none, "cut".
# Returns 0 when UL_BOOT_RC is 0 or cut.
ul_boot() {
	local tag=${1:+@$1} script=$2 cut=${3:-} pid waited
	local blog=$logs/$test$tag.log bout=$logs/$test$tag.out sentinel
	local qemu d acls am asecs
	ul_qemu "$variant" "$blog" "$bout" "ul.test=$test ul.script=$script ul.variant=$variant ul.linux=$UL_LINUX${CMDLINE:+ $CMDLINE}"
	for d in "${drives[@]}"; do
		case $d in
		*:ro) qemu+=(-drive "file=${d%:ro},format=raw,if=virtio,readonly=on") ;;
		*) qemu+=(-drive "file=$d,format=raw,if=virtio") ;;
		esac
	done
	ul_write_qemu "$logs/$test$tag.qemu" "rerun $test$tag on the $kv kernel (images as the run left them)"
	: > "$bout"
	if [[ $cut == aim:* ]]; then
		IFS=: read -r _ acls am asecs <<< "$cut"
		: > "$blog"
		"${qemu[@]}" </dev/null >"$run/qemu.stderr" 2>&1 &
		pid=$!
		# bash does not wait for a process substitution: once the step
		# is seen, the cut does not wait for tail to notice
		if ul_aim "$acls" "$am" < <(timeout "$TIMEOUT" tail -n +1 -F --pid="$pid" "$blog" 2>/dev/null); then
			sleep "$asecs"
		fi
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	elif [ -n "$cut" ]; then
		"${qemu[@]}" </dev/null >"$run/qemu.stderr" 2>&1 &
		pid=$!
		waited=0
		until grep -q UL-CUT-WINDOW "$bout" 2>/dev/null; do
			sleep 0.1
			waited=$((waited + 1))
			kill -0 "$pid" 2>/dev/null || break
			[ $waited -lt $((TIMEOUT * 10)) ] || break
		done
		sleep "$cut"
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	else
		timeout -k 5 "$TIMEOUT" "${qemu[@]}" </dev/null >"$run/qemu.stderr" 2>&1 &
		pid=$!
		# tail --pid prints what is left and ends when QEMU has ended
		[ "${UL_LIVE:-0}" = 1 ] && tail -n +1 --pid=$pid -f "$bout"
		wait "$pid" || true
	fi
	tr -d '\r' < "$bout" > "$bout.tmp" && mv "$bout.tmp" "$bout"
	sentinel=$(grep -a "^UNIONLITE-RESULT name=$test rc=" "$blog" | tr -d '\r' || true)
	if [ -n "$cut" ] && [ -z "$sentinel" ]; then
		UL_BOOT_RC=cut
	elif [ -z "$sentinel" ]; then
		UL_BOOT_RC=none
		UL_BOOT_WHY="$(tail -c 300 "$run/qemu.stderr" | tr '\n' ' ')"
	elif [ "$(echo "$sentinel" | wc -l)" != 1 ]; then
		UL_BOOT_RC=many
	else
		UL_BOOT_RC=$(ul_sentinel_rc "$sentinel")
	fi
	[ "$UL_BOOT_RC" = 0 ] || [ "$UL_BOOT_RC" = cut ]
}

# The verdict: each check adds a reason of its own kind.
reasons=()
start=$(date +%s.%N)
if [ -n "$HOST_DRIVER" ]; then
	drv_rc=0
	# shellcheck disable=SC1090
	(cd "$tdir" && . "./$HOST_DRIVER") > "$out.host" 2>&1 || drv_rc=$?
	mv "$out.host" "$out"
	[ $drv_rc = 0 ] || reasons+=("rc: host driver $HOST_DRIVER exited $drv_rc")
else
	ul_boot "" guest.sh || true
	case "$UL_BOOT_RC" in
	none) reasons+=("timeout: no sentinel after ${TIMEOUT}s (hang or crash); $UL_BOOT_WHY") ;;
	many) reasons+=("rc: more than one sentinel line") ;;
	0) ;;
	*) reasons+=("rc: guest script exited $UL_BOOT_RC") ;;
	esac
fi
secs=$(echo "$(date +%s.%N) - $start" | bc)
[ -n "$HOST_POST" ] && (cd "$tdir" && "./$HOST_POST" "${imgs[@]}")

ul_judge "$test" "$kv" "$secs"
