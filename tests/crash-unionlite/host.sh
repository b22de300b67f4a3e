# Power cuts on unionlite over an ext4 upper, in every whiteout
# transition (ul-crash classes): each boot aims at the one with the
# fewest cuts so far (its kind's loop, the ops of that transition slowed
# to 200 ms per step, the others not), and the host cuts 0.1 s after the
# console shows a chosen step of one of its ops (CRASH_AIM=steps: the
# first step, or, once the class's steps are known, a random one before
# its last). UL_CRASH_AIM=random cuts at a random moment 0.15-0.9 s into
# the loop instead (its ops slowed to 20 ms per step), as the soaks do.
# The module runs with step_sync, so each step of a recipe is committed
# on its own and cuts fall between steps, and with trace, so the console
# shows after which step each cut fell. After each cut: the
# journal replay, e2fsck -fn clean, the union in the state before or
# after the operation in flight, work/ empty after the mount. The cuts go
# on until every transition has 1 (UL_CRASH_MIN), every one with more
# than one step has one between two steps and some cut has left
# something in work/; 120 cuts (UL_CRASH_CUTS) at most; the soaks
# (make crash-soak) go deeper. The per-cut lines and the table per transition are in
# build/logs/TREE-base/crash-unionlite.cuts. UL_CRASH_TARGETS="CLASS..." aims
# the cuts at those transitions only, e.g.
#   UL_CRASH_TARGETS=rename-lower-q qemu-boot/run-test.sh crash-unionlite base
. ../lib/crash.sh
crash_every_transition atomic
