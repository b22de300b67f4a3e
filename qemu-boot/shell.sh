#!/bin/bash
# shell.sh [[TREE-]VARIANT]: an interactive guest on the serial console with the
# unionlite module loaded and two fresh disks (/dev/vda ext4, /dev/vdb
# ext2). 'reboot -f' leaves; Ctrl-a x kills QEMU.
. "$(dirname "$0")/lib.sh"

ul_kv "${1:-base}"
variant=$UL_V
"$UL_TOP/qemu-boot/prepare.sh" "$UL_KV"
run=$UL_RUNS/$UL_KV/shell
mkdir -p "$run"
mke2fs -q -F -t ext4 -E lazy_itable_init=0 -L ul-ext4 "$run/vda-ext4.img" 64M >/dev/null
mke2fs -q -F -t ext2 -L ul-ext2 "$run/vdb-ext2.img" 64M >/dev/null
accel=tcg
[ "${UL_KVM:-0}" = 1 ] && accel=kvm
exec qemu-system-x86_64 -machine q35,accel=$accel -cpu max -smp 2 -m 1G \
	-display none -no-reboot -serial mon:stdio -serial null \
	-kernel "$(ul_kdir "$variant")/arch/x86/boot/bzImage" \
	-initrd "$UL_TB/initramfs-$variant.cpio" \
	-append "console=ttyS0 panic=-1 ul.variant=$variant ul.linux=$UL_LINUX" \
	-drive "file=$run/vda-ext4.img,format=raw,if=virtio" \
	-drive "file=$run/vdb-ext2.img,format=raw,if=virtio"
