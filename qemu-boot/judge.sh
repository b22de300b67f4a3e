# Sourced by run-test.sh and run-batch.sh (bash, after lib.sh): the
# settings of one test, its fresh images, the QEMU command line and the
# verdict.

# ul_test_conf TEST VARIANT: the test's settings (tests/TEST/test.conf,
# see run-test.sh), with the debug and kcsan kernels' 3x time and 1G of
# memory.
ul_test_conf() {
	TIMEOUT=120 MEM=512M HOST_PRE= HOST_POST= CMDLINE= LOGDISK= HOST_DRIVER= IMG_SIZE=64M
	GOLDEN=expected ROOTFS= CPUS=1 TREES=
	# shellcheck disable=SC1090
	[ -f "$UL_TOP/tests/$1/test.conf" ] && . "$UL_TOP/tests/$1/test.conf"
	case $2 in
	debug|kcsan)
		TIMEOUT=$((TIMEOUT * 3))
		[ "$MEM" = 512M ] && MEM=1G
		;;
	esac
	TIMEOUT=${UL_TIMEOUT:-$TIMEOUT}
}

# ul_fresh_images DIR: imgs=(DIR/vda-ext4.img DIR/vdb-ext2.img), a fresh
# ext4 and a fresh ext2 image of IMG_SIZE (made as plain user files).
# The ext4 inode tables are zeroed here: a lazily made one has the
# guest's ext4lazyinit thread write them, a few seconds after the mount,
# in the middle of whatever the test counts or cuts.
ul_fresh_images() {
	imgs=("$1/vda-ext4.img" "$1/vdb-ext2.img")
	mke2fs -q -F -t ext4 -E lazy_itable_init=0 -L ul-ext4 "${imgs[0]}" "$IMG_SIZE" >/dev/null
	mke2fs -q -F -t ext2 -L ul-ext2 "${imgs[1]}" "$IMG_SIZE" >/dev/null
}

# ul_qemu VARIANT CONSOLE OUTPUT WORDS...: qemu=(the command line) for
# VARIANT's kernel and initramfs with $CPUS processors and $MEM, the
# console and the second serial port into the files CONSOLE and OUTPUT,
# WORDS on the kernel command line (and ul.cpus=$CPUS, which the guest
# checks: ul_need_cpus). The caller adds the disks. TCG runs each vCPU
# in a host thread of its own (thread=multi), so two vCPUs run at the
# same instant; UL_KVM=1 uses KVM instead.
ul_qemu() {
	local variant=$1 blog=$2 bout=$3 accel=tcg,thread=multi
	shift 3
	[ "${UL_KVM:-0}" = 1 ] && accel=kvm
	qemu=(qemu-system-x86_64 -machine q35 -accel "$accel" -cpu max -smp "$CPUS" -m "$MEM"
		-display none -monitor none -no-reboot
		-kernel "$(ul_kdir "$variant")/arch/x86/boot/bzImage"
		-initrd "$UL_TB/initramfs-$variant.cpio"
		-append "console=ttyS0 panic=-1 ul.cpus=$CPUS $*"
		-serial "file:$blog" -serial "file:$bout")
}

# ul_write_qemu FILE COMMENT: FILE runs "${qemu[@]}" again
ul_write_qemu() {
	{
		echo "#!/bin/sh"
		echo "# $2"
		printf '%q ' "${qemu[@]}"
		echo
	} > "$1"
	chmod +x "$1"
}

# ul_kcsan_filter CONSOLE LIST: CONSOLE without the data-race detector's
# reports that qemu-boot/kcsan-known lists (races in the rest of the
# kernel, each with its reason there); their titles go to the file LIST.
# A report whose title names a function of unionlite ("NAME
# [unionlite]": one of the two racing accesses is in its code) is never
# filtered, nor is one the list does not hold: the console check then
# fails on its "BUG: KCSAN:" line.
ul_kcsan_filter() {
	awk -v list="$2" -v known="$UL_TOP/qemu-boot/kcsan-known" '
	BEGIN {
		while ((getline l < known) > 0) {
			if (l ~ /^#/ || l == "")
				continue
			split(l, f, "\t")
			re = f[1]
			gsub(/\./, "[.]", re)
			gsub(/\*/, "[^ ]+", re)
			pat[++npat] = "^" re "$"
		}
		printf "" > list
	}
	function known_title(t,	i) {
		for (i = 1; i <= npat; i++)
			if (t ~ pat[i])
				return 1
		return 0
	}
	function flush(drop) {
		if (drop)
			print title > list
		else
			printf "%s", blk
		inblk = 0
		blk = ""
	}
	{
		line = $0
		sub(/\r$/, "", line)
		if (!inblk && line ~ /BUG: KCSAN: /) {
			inblk = 1
			title = line
			sub(/.*BUG: KCSAN: /, "", title)
			gsub(/\+0x[0-9a-f]+\/0x[0-9a-f]+/, "", title)
			blk = $0 "\n"
			named = title ~ /\[unionlite\]/
			next
		}
		if (inblk) {
			blk = blk $0 "\n"
			if (line ~ /========================================/)
				flush(!named && known_title(title))
			next
		}
		print
	}
	END {
		if (inblk)
			flush(0)
	}' "$1"
}

# ul_judge TEST TREE-VARIANT SECS: write logs/TREE-VARIANT/TEST.verdict
# from the reasons already in reasons[], the console logs (TEST.log,
# TEST@*.log), e2fsck -fn of imgs[] and the golden output: the first of
# tests/TEST/expected.TREE-VARIANT.out, .VARIANT.out, .TREE.out and .out
# (GOLDEN for "expected") that exists. Returns 0 on PASS.
ul_judge() {
	local test=$1 kv=$2 secs=$3 logs=$UL_LOGS/$2 blog badline i golden g
	local tdir=$UL_TOP/tests/$1
	local bad='BUG:|WARNING:|Oops|KASAN|Call Trace|INFO: possible|INFO: lockdep|DEBUG_LOCKS_WARN_ON|inconsistent lock state|blocked for more than|general protection fault|Kernel panic|UBSAN|unable to open an initial console'

	for blog in "$logs/$test.log" "$logs/$test"@*.log; do
		[ -f "$blog" ] || continue
		badline=$(ul_kcsan_filter "$blog" "${blog%.log}.kcsan" | grep -a -m1 -E "$bad" || true)
		[ -n "$badline" ] && reasons+=("console: ${blog##*/}: $(echo "$badline" | tr -d '\r')")
	done
	for i in "${imgs[@]}"; do
		if ! e2fsck -fn "$i" >"$i.fsck" 2>&1; then
			reasons+=("fsck: ${i##*/} is not clean: $(grep -v -e '^Pass' -e '^e2fsck' "$i.fsck" | head -3 | tr '\n' ' ')")
		fi
	done
	for g in "$kv" "${kv##*-}" "${kv%-*}" ""; do
		golden=$tdir/$GOLDEN${g:+.$g}.out
		[ -f "$golden" ] && break
	done
	if [ -f "$golden" ] && ! diff -u "$golden" "$logs/$test.out" >"$logs/$test.diff"; then
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
}
