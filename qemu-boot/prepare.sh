#!/bin/bash
# prepare.sh VARIANT...: everything a guest run needs, built only where
# something changed: packages, tree + series, kernel, static helpers,
# modules, initramfs.
. "$(dirname "$0")/lib.sh"

here=$UL_TOP/qemu-boot
"$here/deps.sh"
"$here/tree.sh"

# The static C helpers of tests/helpers, for the guest.
mkdir -p "$UL_BUILD/helpers"
for c in "$UL_TOP"/tests/helpers/*.c; do
	[ -f "$c" ] || continue
	bin=$UL_BUILD/helpers/$(basename "$c" .c)
	if [ ! -x "$bin" ] || [ "$c" -nt "$bin" ]; then
		gcc -static -O2 -Wall -Wextra -Werror -pthread -o "$bin" "$c" ||
			ul_die "helper $c failed to build"
	fi
done

for v in "${@:-base}"; do
	"$here/kernel.sh" "$v"
	"$here/modules.sh" "$v"
	"$here/initramfs.sh" "$v"
done
