#!/bin/bash
# run-test.sh TEST VARIANT: boot VARIANT's kernel in QEMU with fresh disk
# images, run tests/TEST/guest.sh in the guest, and judge the run.
#
# Files, in build/logs/VARIANT/:
#   TEST.log      the serial console (kernel messages, sentinel)
#   TEST.out      what the guest script printed (second serial port)
#   TEST.qemu     the exact command, runnable by hand to repeat the run
#   TEST.verdict  PASS, or FAIL and one line per reason
# Exit status 0 when the run passes, 1 when it fails.
#
# tests/TEST/test.conf (optional, shell) may set:
#   TIMEOUT=seconds   the whole run, boot to power-off (default 120;
#                     the debug kernel gets 3x)
#   MEM=size          guest memory (default 512M; debug 1G)
#   HOST_PRE=script   run on the host before boot, with the image paths
#   HOST_POST=script  run on the host after QEMU exits, before e2fsck
# UL_LIVE=1 shows the guest's output while it runs; UL_KVM=1 uses KVM
# (it hangs on some hosts: TCG is the default); UL_TIMEOUT overrides.
# tests/TEST/expected.out, when present, must equal TEST.out;
# tests/TEST/expected.VARIANT.out takes its place on that variant.
. "$(dirname "$0")/lib.sh"

test=${1:?usage: run-test.sh TEST VARIANT}
variant=${2:?usage: run-test.sh TEST VARIANT}
ul_check_variant "$variant"
tdir=$UL_TOP/tests/$test
[ -f "$tdir/guest.sh" ] || ul_die "no such test: tests/$test/guest.sh"

TIMEOUT=120 MEM=512M HOST_PRE= HOST_POST=
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
log=$logs/$test.log out=$logs/$test.out
rm -f "$log" "$out" "$logs/$test.verdict" "$run"/*.img

# Fresh images: vda ext4, vdb ext2 (made as a plain user file, no root).
imgs=("$run/vda-ext4.img" "$run/vdb-ext2.img")
mke2fs -q -F -t ext4 -L ul-ext4 "${imgs[0]}" 64M >/dev/null
mke2fs -q -F -t ext2 -L ul-ext2 "${imgs[1]}" 64M >/dev/null
[ -n "$HOST_PRE" ] && (cd "$tdir" && "./$HOST_PRE" "${imgs[@]}")

accel=tcg
[ "${UL_KVM:-0}" = 1 ] && accel=kvm
qemu=(qemu-system-x86_64 -machine q35,accel=$accel -cpu max -smp 2 -m "$MEM"
	-display none -monitor none -no-reboot
	-kernel "$(ul_kdir "$variant")/arch/x86/boot/bzImage"
	-initrd "$UL_BUILD/initramfs-$variant.cpio"
	-append "console=ttyS0 panic=-1 ul.test=$test ul.variant=$variant"
	-serial "file:$log" -serial "file:$out")
for i in "${imgs[@]}"; do
	qemu+=(-drive "file=$i,format=raw,if=virtio")
done
{
	echo "#!/bin/sh"
	echo "# rerun $test on the $variant kernel (images are left as the run left them)"
	printf '%q ' "${qemu[@]}"
	echo
} > "$logs/$test.qemu"
chmod +x "$logs/$test.qemu"

start=$(date +%s.%N)
tailpid=
if [ "${UL_LIVE:-0}" = 1 ]; then
	: > "$out"
	tail -n +1 -f "$out" | tr -d '\r' &
	tailpid=$!
fi
timeout -k 5 "$TIMEOUT" "${qemu[@]}" </dev/null >"$run/qemu.stderr" 2>&1 || true
if [ -n "$tailpid" ]; then
	sleep 0.3
	kill "$tailpid" 2>/dev/null || true
	wait "$tailpid" 2>/dev/null || true
fi
secs=$(echo "$(date +%s.%N) - $start" | bc)
[ -n "$HOST_POST" ] && (cd "$tdir" && "./$HOST_POST" "${imgs[@]}")

# The verdict: each check adds a reason of its own kind.
reasons=()
sentinel=$(grep -a "^UNIONLITE-RESULT name=$test rc=" "$log" | tr -d '\r' || true)
if [ -z "$sentinel" ]; then
	reasons+=("timeout: no sentinel after ${TIMEOUT}s (hang or crash); $(tail -c 300 "$run/qemu.stderr" | tr '\n' ' ')")
elif [ "$(echo "$sentinel" | wc -l)" != 1 ]; then
	reasons+=("rc: more than one sentinel line")
elif [ "${sentinel##*rc=}" != 0 ]; then
	reasons+=("rc: guest script exited ${sentinel##*rc=}")
fi
bad='BUG:|WARNING:|Oops|KASAN|Call Trace|INFO: possible|INFO: lockdep|DEBUG_LOCKS_WARN_ON|inconsistent lock state|blocked for more than|general protection fault|Kernel panic|UBSAN|unable to open an initial console'
badline=$(grep -a -m1 -E "$bad" "$log" || true)
[ -n "$badline" ] && reasons+=("console: $(echo "$badline" | tr -d '\r')")
for i in "${imgs[@]}"; do
	if ! e2fsck -fn "$i" >"$i.fsck" 2>&1; then
		reasons+=("fsck: ${i##*/} is not clean: $(grep -v -e '^Pass' -e '^e2fsck' "$i.fsck" | head -3 | tr '\n' ' ')")
	fi
done
tr -d '\r' < "$out" > "$out.tmp" && mv "$out.tmp" "$out"
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
