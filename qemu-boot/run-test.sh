#!/bin/bash
# run-test.sh TEST VARIANT: boot VARIANT's kernel in QEMU with fresh disk
# images, run tests/TEST/guest.sh in the guest, and judge the run.
#
# Files, in build/logs/VARIANT/:
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
#                     kernel gets 3x)
#   MEM=size          guest memory (default 512M; debug 1G)
#   IMG_SIZE=size     size of each disk image (default 64M; sparse files)
#   HOST_PRE=script   run on the host before boot, with the image paths
#   HOST_POST=script  run on the host after QEMU exits, before e2fsck
#   CMDLINE=words     more kernel command line (e.g. the benchmarks'
#                     clock: tsc=reliable)
#   LOGDISK=yes       a third disk, vdc: 1 MiB of raw zeros, not checked
#   HOST_DRIVER=file  a bash file sourced instead of the single boot; it
#                     calls "ul_boot TAG SCRIPT [CUT]" once per boot, and
#                     its output and exit status are the test's
# tests/TEST/expected.out, when present, must equal TEST.out;
# tests/TEST/expected.VARIANT.out takes its place on that variant.
# UL_LIVE=1 shows the guest's output while it runs; UL_KVM=1 uses KVM
# (it hangs on some hosts: TCG is the default); UL_TIMEOUT overrides.
. "$(dirname "$0")/lib.sh"

test=${1:?usage: run-test.sh TEST VARIANT}
variant=${2:?usage: run-test.sh TEST VARIANT}
ul_check_variant "$variant"
tdir=$UL_TOP/tests/$test
[ -f "$tdir/guest.sh" ] || ul_die "no such test: tests/$test/guest.sh"

TIMEOUT=120 MEM=512M HOST_PRE= HOST_POST= CMDLINE= LOGDISK= HOST_DRIVER= IMG_SIZE=64M
# shellcheck disable=SC1091
[ -f "$tdir/test.conf" ] && . "$tdir/test.conf"
if [ "$variant" = debug ]; then
	TIMEOUT=$((TIMEOUT * 3))
	[ "$MEM" = 512M ] && MEM=1G
fi
TIMEOUT=${UL_TIMEOUT:-$TIMEOUT}

logs=$UL_BUILD/logs/$variant
run=$UL_BUILD/run/$variant/$test
mkdir -p "$logs" "$run"
out=$logs/$test.out
rm -f "$logs/$test".* "$logs/$test"@* "$run"/*

# Fresh images: vda ext4, vdb ext2 (made as a plain user file, no root).
imgs=("$run/vda-ext4.img" "$run/vdb-ext2.img")
mke2fs -q -F -t ext4 -L ul-ext4 "${imgs[0]}" "$IMG_SIZE" >/dev/null
mke2fs -q -F -t ext2 -L ul-ext2 "${imgs[1]}" "$IMG_SIZE" >/dev/null
drives=("${imgs[@]}")
if [ "$LOGDISK" = yes ]; then
	head -c 1M /dev/zero > "$run/vdc-log.img"
	drives+=("$run/vdc-log.img")
fi
[ -n "$HOST_PRE" ] && (cd "$tdir" && "./$HOST_PRE" "${imgs[@]}")

accel=tcg
[ "${UL_KVM:-0}" = 1 ] && accel=kvm

# ul_boot TAG SCRIPT [CUT]: boot once and run tests/TEST/SCRIPT. TAG names
# the boot's files (TEST@TAG.*; empty: TEST.*). With CUT (seconds), the
# power is cut that long after the guest prints a line "UL-CUT-WINDOW":
# QEMU gets SIGKILL, whatever the guest has not written is lost. Sets
# UL_BOOT_RC to the sentinel's rc, "none" when there was none, "cut".
# Returns 0 when UL_BOOT_RC is 0 or cut.
ul_boot() {
	local tag=${1:+@$1} script=$2 cut=${3:-} pid waited
	local blog=$logs/$test$tag.log bout=$logs/$test$tag.out sentinel
	local qemu=(qemu-system-x86_64 -machine q35,accel=$accel -cpu max -smp 2 -m "$MEM"
		-display none -monitor none -no-reboot
		-kernel "$(ul_kdir "$variant")/arch/x86/boot/bzImage"
		-initrd "$UL_BUILD/initramfs-$variant.cpio"
		-append "console=ttyS0 panic=-1 ul.test=$test ul.script=$script ul.variant=$variant${CMDLINE:+ $CMDLINE}"
		-serial "file:$blog" -serial "file:$bout")
	local d
	for d in "${drives[@]}"; do
		qemu+=(-drive "file=$d,format=raw,if=virtio")
	done
	{
		echo "#!/bin/sh"
		echo "# rerun $test$tag on the $variant kernel (images as the run left them)"
		printf '%q ' "${qemu[@]}"
		echo
	} > "$logs/$test$tag.qemu"
	chmod +x "$logs/$test$tag.qemu"
	: > "$bout"
	if [ -n "$cut" ]; then
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
		UL_BOOT_RC=${sentinel##*rc=}
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

bad='BUG:|WARNING:|Oops|KASAN|Call Trace|INFO: possible|INFO: lockdep|DEBUG_LOCKS_WARN_ON|inconsistent lock state|blocked for more than|general protection fault|Kernel panic|UBSAN|unable to open an initial console'
for blog in "$logs/$test.log" "$logs/$test"@*.log; do
	[ -f "$blog" ] || continue
	badline=$(grep -a -m1 -E "$bad" "$blog" || true)
	[ -n "$badline" ] && reasons+=("console: ${blog##*/}: $(echo "$badline" | tr -d '\r')")
done
for i in "${imgs[@]}"; do
	if ! e2fsck -fn "$i" >"$i.fsck" 2>&1; then
		reasons+=("fsck: ${i##*/} is not clean: $(grep -v -e '^Pass' -e '^e2fsck' "$i.fsck" | head -3 | tr '\n' ' ')")
	fi
done
golden=$tdir/expected.out
[ -f "$tdir/expected.$variant.out" ] && golden=$tdir/expected.$variant.out
if [ -f "$golden" ] && ! diff -u "$golden" "$out" >"$logs/$test.diff"; then
	reasons+=("golden: output differs from tests/$test/${golden##*/} (see $logs/$test.diff)")
fi

{
	if [ ${#reasons[@]} = 0 ]; then
		echo PASS
	else
		echo FAIL
		printf '%s\n' "${reasons[@]}"
	fi
	printf 'time: %.1f s\n' "$secs"
} > "$logs/$test.verdict"
[ ${#reasons[@]} = 0 ]
