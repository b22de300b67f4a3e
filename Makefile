# unionlite: top-level targets. The work is done by the scripts in
# qemu-boot/; each builds only what changed. See README.md.
#
#   make demo            build what is needed, boot, show the scenarios
#   make test            every test on the base kernel and its ext2
#                        variants, on each tree of LINUX (6.1 6.12)
#   make test TESTS="a b" VARIANTS=base LINUX=6.12    a subset
#   make debug           the tests that name debug, on the debug kernels
#   make shell           interactive guest, module loaded
#   make mount-program   build/unionlite-mount, for container engines
#   make check           checkpatch --strict, sparse (C=2) and W=1
#   make bench           benchmarks: unionlite against overlayfs
#   make soak            the long runs (tests with KIND=soak)
#   make crash-soak N=1000   N power cuts on each upper, a table per transition
#   make crash-states    every crash state of every transition, both
#                        uppers, unionlite and overlayfs: the table
#   make race-soak N=100000  N racing transitions per recipe on unionlite
#   make kcsan           the tests that name the kcsan variant, on it: the
#                        data-race detector's runs
#   make fuzz SEEDS=20 OPS=2000 [REDIRECT=1] [METACOPY=1]  the differential test against
#                        overlayfs, longer
#   make clean           remove build/

SHELL := /bin/bash
TESTS ?=
VARIANT ?= base
# the Linux trees: make test runs each; the other targets use the first
# (qemu-boot/lib.sh)
LINUX ?= 6.1 6.12
export VARIANTS LINUX

.PHONY: all demo test shell check clean kernels bench soak crash-soak crash-states race-soak fuzz kcsan debug mount-program

all: test

demo:
	@qemu-boot/demo.sh

test:
	@qemu-boot/test.sh $(TESTS)

bench:
	@qemu-boot/bench.sh

soak:
	@qemu-boot/test.sh $$(grep -l '^KIND=soak' tests/*/test.conf | xargs -n1 dirname | xargs -n1 basename)

# make crash-soak N=1000: N power cuts on an ext4 upper (crash-soak) and N
# on an ext2 upper (crash-soak-ext2), then each one's summary and table
# per transition
N ?= 1000
crash-soak:
	@UL_CRASH_CUTS=$(N) VARIANTS=base qemu-boot/test.sh crash-soak crash-soak-ext2; rc=$$?; \
	for k in $(LINUX); do for t in crash-soak crash-soak-ext2; do \
		echo "== $$t ($$k)"; sed -n '/^summary: /,$$p' build/logs/$$k-base/$$t.cuts; \
	done; done; exit $$rc

# make crash-states [CLASSES=a,b]: every crash state (UL_CS_FULL=1) of
# every transition (or of CLASSES) on an ext4 and an ext2 upper, on
# unionlite with one run per step boundary and on overlayfs, then the
# table (tests/lib/crash-states-table.sh), also in
# build/logs/TREE-base/crash-states.table
crash-states:
	@UL_CS_FULL=1 UL_CS_ANNOTATE=1 UL_CS_CLASSES=$(CLASSES) VARIANTS=base \
	qemu-boot/test.sh crash-states crash-states-ext2 crash-states-overlayfs; rc=$$?; \
	for k in $(LINUX); do l=build/logs/$$k-base; echo "== $$k"; \
		tests/lib/crash-states-table.sh $$l/crash-states.log \
		$$l/crash-states-ext2.log $$l/crash-states-overlayfs.log | \
		tee $$l/crash-states.table; done; exit $$rc

# make debug: every test whose VARIANTS names debug, on each tree's debug
# kernel (KASAN, lockdep)
debug:
	@VARIANTS=debug qemu-boot/test.sh $(TESTS)

# make kcsan: every test whose VARIANTS names kcsan, on the kcsan kernel;
# then the detector's counters of each run
kcsan:
	@VARIANTS=kcsan qemu-boot/test.sh $$(grep -l '^VARIANTS=.*kcsan' tests/*/test.conf | xargs -n1 dirname | xargs -n1 basename); rc=$$?; \
	for k in $(LINUX); do grep -a -H '^kcsan: [0-9]' build/logs/$$k-kcsan/*.log; done; exit $$rc

# make race-soak N=100000: the racing observers, N transitions per recipe,
# then their rates and overlap counts (tests/helpers/ul-race.c)
race-soak:
	@UL_RACE_COUNT=$(if $(filter command line,$(origin N)),$(N),100000) qemu-boot/test.sh race-soak; rc=$$?; \
	for k in $(LINUX); do grep -aE 'transitions|overlap' build/logs/$$k-base/race-soak.out build/logs/$$k-base/race-soak.log; done; exit $$rc

# make fuzz SEEDS=20 OPS=2000 [FIRST=1000] [LAYERS=3] [EXTRA=1]
# [REDIRECT=1] [METACOPY=1] [VARIANT=debug]: ul-diff against overlayfs
# over one lower layer (or three, as diff-multilower) on seeds
# FIRST..FIRST+SEEDS-1; EXTRA=1: with inode flags, move-ins and the
# layers changed between mounts (as diff-layer-changes); REDIRECT=1: both
# mounted with redirect_dir=on, so that renames of lower directories move
# them (as diff-redirect); METACOPY=1: both with metacopy=on (as
# diff-metacopy); VARIANT=debug: on the debug kernel (KASAN, lockdep)
fuzz:
	@UL_FUZZ_SEEDS=$(or $(SEEDS),20) UL_FUZZ_OPS=$(or $(OPS),2000) \
	UL_FUZZ_FIRST=$(or $(FIRST),1000) UL_FUZZ_LAYERS=$(or $(LAYERS),1) \
	UL_FUZZ_EXTRA=$(or $(EXTRA),0) UL_FUZZ_REDIRECT=$(or $(REDIRECT),0) \
	UL_FUZZ_METACOPY=$(or $(METACOPY),0) \
	VARIANTS=$(or $(VARIANT),base) \
	qemu-boot/test.sh diff-fuzz; rc=$$?; \
	for k in $(LINUX); do cat build/logs/$$k-$(or $(VARIANT),base)/diff-fuzz.out; done; exit $$rc

# make kernels [VARIANTS=debug]: what make test boots (or VARIANTS), built
kernels:
	@qemu-boot/prepare.sh $(foreach k,$(LINUX),$(addprefix $(k)-,$(or $(VARIANTS),base pristine mutant)))

# make mount-program: build/unionlite-mount, the program container
# engines run to mount a union (docs/containers.md)
mount-program:
	@mkdir -p build && gcc -static -O2 -Wall -Wextra -Werror \
	-DUL_VERSION="\"$$(git describe --always --dirty 2>/dev/null || echo unknown)\"" \
	-o build/unionlite-mount unionfs-lite/mount/unionlite-mount.c && echo build/unionlite-mount

shell:
	@qemu-boot/shell.sh $(VARIANT)

check:
	@qemu-boot/check.sh

clean:
	rm -rf build
	rm -f unionfs-lite/*.o unionfs-lite/*.ko unionfs-lite/*.mod* \
		unionfs-lite/.*.cmd unionfs-lite/Module.symvers unionfs-lite/modules.order
