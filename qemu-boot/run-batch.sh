#!/bin/bash
# run-batch.sh [TREE-]VARIANT TEST...: boot its kernel once and run each
# TEST's guest.sh in it, one after the other (ul.batch= in qemu-boot/init),
# each on two fresh disk images of its own; then judge each test as
# run-test.sh does, on its own part of the console, its own output and its
# own images. test.sh batches the tests that need nothing but guest.sh and
# the two disks (see ul_batchable there).
#
# The console of the whole boot is build/run/TREE-VARIANT/batch-FIRST/console.log;
# each TEST.log is the boot's messages before the first test followed by
# the lines from "UNIONLITE-BEGIN name=TEST" to the next test's. A test
# that began and did not end (a hang past its TIMEOUT, a crash) fails;
# the tests after it are run alone with run-test.sh.
# Exit status 0 when every test passes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/judge.sh"
trap 'echo "run-batch.sh: line $LINENO: a command failed" >&2' ERR

ul_kv "${1:?usage: run-batch.sh [TREE-]VARIANT TEST...}"
variant=$UL_V kv=$UL_KV
shift
[ $# -gt 0 ] || ul_die "usage: run-batch.sh [TREE-]VARIANT TEST..."
logs=$UL_LOGS/$kv
brun=$UL_RUNS/$kv/batch-$1
mkdir -p "$logs" "$brun"
rm -f "$brun"/*
blog=$brun/console.log
bout=$brun/output

drives=()
declare -A limit=()
i=0
for t in "$@"; do
	[ -f "$UL_TOP/tests/$t/guest.sh" ] || ul_die "no such test: tests/$t/guest.sh"
	ul_test_conf "$t" "$variant"
	run=$UL_RUNS/$kv/$t
	mkdir -p "$run"
	rm -f "$logs/$t".* "$logs/$t"@* "$run"/*
	ul_fresh_images "$run"
	[ -n "$HOST_PRE" ] && (cd "$UL_TOP/tests/$t" && "./$HOST_PRE" "${imgs[@]}")
	for d in a b; do
		img=${imgs[0]}
		[ $d = b ] && img=${imgs[1]}
		drives+=(-drive "file=$img,format=raw,if=none,id=ul$i$d"
			-device "virtio-blk-pci,drive=ul$i$d,serial=ul$i$d")
	done
	limit[$t]=$TIMEOUT
	i=$((i + 1))
done
MEM=512M CPUS=1
case $variant in debug|kcsan) MEM=1G ;; esac
ul_qemu "$variant" "$blog" "$bout" "ul.batch=$(IFS=,; echo "$*") ul.variant=$variant ul.linux=$UL_LINUX"
qemu+=("${drives[@]}")

# The watchdog: each test has its own TIMEOUT from its UNIONLITE-BEGIN
# line to its sentinel; the boot up to the first test, and the reset
# between two tests, get the first test's.
start=$(date +%s.%N)
: > "$bout"
"${qemu[@]}" </dev/null >"$brun/qemu.stderr" 2>&1 &
pid=$!
stage= since=$SECONDS hung=
while kill -0 "$pid" 2>/dev/null; do
	sleep 0.5
	now=$(grep -a -E '^UNIONLITE-(BEGIN|RESULT) name=' "$blog" | tail -n 1 | tr -d '\r' || true)
	if [ "$now" != "$stage" ]; then
		stage=$now since=$SECONDS
		continue
	fi
	t=${stage#UNIONLITE-* name=}
	t=${t%% *}
	case "$stage" in
	UNIONLITE-BEGIN*) max=${limit[$t]} ;;
	*) max=${limit[$1]} ;;
	esac
	if [ $((SECONDS - since)) -ge "$max" ]; then
		hung="$max s"
		kill -KILL "$pid" 2>/dev/null || true
		break
	fi
done
wait "$pid" || true
wall=$(echo "$(date +%s.%N) - $start" | bc)
tr -d '\r' < "$blog" > "$blog.tmp" && mv "$blog.tmp" "$blog"

# The outputs: "UNIONLITE-OUT name=T bytes=N secs=S", then N bytes.
declare -A secs=()
export LC_ALL=C
off=0
size=$(stat -c %s "$bout")
while [ "$off" -lt "$size" ]; do
	# (tail may die of SIGPIPE once head has what it needs)
	hdr=$(tail -c +$((off + 1)) "$bout" | head -n 1 || true)
	case "$hdr" in
	"UNIONLITE-OUT name="*" bytes="*" secs="*) ;;
	*) echo "run-batch: no output header at byte $off of $bout"; break ;;
	esac
	name=${hdr#UNIONLITE-OUT name=}
	name=${name%% *}
	n=${hdr#* bytes=}
	n=${n%% *}
	secs[$name]=${hdr##* secs=}
	off=$((off + ${#hdr} + 1))
	{ tail -c +$((off + 1)) "$bout" || true; } | head -c "$n" | tr -d '\r' > "$logs/$name.out"
	off=$((off + n))
done

rc=0
alone=()
died=
i=0
for t in "$@"; do
	ul_test_conf "$t" "$variant"
	run=$UL_RUNS/$kv/$t
	imgs=("$run/vda-ext4.img" "$run/vdb-ext2.img")
	ul_write_qemu "$logs/$t.qemu" "$t ran in one boot with: $*; its disks have serials ul${i}a, ul${i}b. Alone: qemu-boot/run-test.sh $t $kv"
	i=$((i + 1))
	if ! grep -q "^UNIONLITE-BEGIN name=$t\$" "$blog"; then
		alone+=("$t")
		continue
	fi
	awk -v t="$t" '
		/^UNIONLITE-BEGIN name=/ { begun = 1; mine = ($0 == "UNIONLITE-BEGIN name=" t) }
		!begun || mine' "$blog" > "$logs/$t.log"
	sentinel=$(grep -a "^UNIONLITE-RESULT name=$t rc=" "$logs/$t.log" || true)
	reasons=()
	if [ -z "$sentinel" ] || [ -z "${secs[$t]:-}" ]; then
		died=$t
		[ -f "$logs/$t.out" ] || : > "$logs/$t.out"
		reasons+=("timeout: no sentinel${hung:+ after $hung} (hang or crash); $(tail -c 300 "$brun/qemu.stderr" | tr '\n' ' ')")
		secs[$t]=$wall
	elif [ "$(ul_sentinel_rc "$sentinel")" != 0 ]; then
		reasons+=("rc: guest script exited $(ul_sentinel_rc "$sentinel")")
	fi
	[ -n "$HOST_POST" ] && (cd "$UL_TOP/tests/$t" && "./$HOST_POST" "${imgs[@]}")
	ul_judge "$t" "$kv" "${secs[$t]}" || rc=1
done
echo "batch of $#, ${wall%.*} s in all${died:+; $died did not end}"
for t in "${alone[@]}"; do
	echo "$t: not reached in the batch, run alone"
	"$(dirname "$0")/run-test.sh" "$t" "$kv" || rc=1
done
exit $rc
