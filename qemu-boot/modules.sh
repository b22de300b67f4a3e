#!/bin/bash
# modules.sh VARIANT [make args...]: build the out-of-tree modules (the
# unionlite module and the test-only modules in tests/kmod) against one
# kernel variant. Kbuild in 6.1 writes objects next to the sources, so
# each variant builds from its own copy under build/mod-VARIANT.
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: modules.sh VARIANT [make args]}
shift
ul_check_variant "$variant"
kdir=$(ul_kdir "$variant")
[ -f "$kdir/Module.symvers" ] || ul_die "kernel($variant) is not built"

for m in "${UL_MOD_SRC:-$UL_TOP/unionfs-lite}" "$UL_TOP/tests/kmod"; do
	out=$UL_BUILD/mod-$variant/$(basename "$m")
	ul_sync_dir "$m" "$out"
	make -s -C "$kdir" M="$out" W=1 "$@" modules >"$out/build.log" 2>&1 || {
		cat "$out/build.log" >&2
		ul_die "module $(basename "$m") failed to build for $variant"
	}
	# W=1 and sparse findings are errors for our own code.
	if grep -E 'warning:|error:' "$out/build.log" >&2; then
		ul_die "module $(basename "$m") builds with warnings for $variant"
	fi
done
