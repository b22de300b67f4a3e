#!/bin/bash
# test.sh [TEST...]: run tests (default: all of tests/*/guest.sh) on the
# kernel variants each one asks for, print one line per run and a final
# "N passed, N failed". Exit status 1 when anything failed.
#
# A test whose test.conf sets EXPECT_FAIL=KIND (rc, console, timeout,
# fsck, golden) is a harness self-test: it passes only when the verdict
# is FAIL and every reason is of that kind.
. "$(dirname "$0")/lib.sh"

here=$UL_TOP/qemu-boot
all=0
if [ $# = 0 ]; then
	all=1
	# every test but the benchmarks, soaks and fuzz runs (KIND=bench,
	# soak or fuzz in test.conf), which run only when named (make bench,
	# make soak, make fuzz)
	set -- $(cd "$UL_TOP/tests" && for d in */guest.sh; do
		grep -qsE '^KIND=(bench|soak|fuzz)' "${d%/guest.sh}/test.conf" || echo "${d%/guest.sh}"
	done)
fi

conf() { # conf TEST VAR DEFAULT
	(
		eval "$2=\$3"
		# shellcheck disable=SC1090
		[ -f "$UL_TOP/tests/$1/test.conf" ] && . "$UL_TOP/tests/$1/test.conf"
		eval "echo \"\$$2\""
	)
}

only=${VARIANTS:-$UL_TEST_VARIANTS}
for k in $LINUX; do
	ul_use_linux "$k"	# known trees only
done
ul_use_linux "${LINUX%% *}"
# kvs TEST: the runs of TEST, TREE-VARIANT: each tree of LINUX that its
# TREES (default: all) names, each variant of its VARIANTS that VARIANTS
# (default: UL_TEST_VARIANTS) names
kvs() {
	local k v
	for k in $LINUX; do
		case " $(conf "$1" TREES "$UL_LINUXES") " in *" $k "*) ;; *) continue ;; esac
		for v in $(conf "$1" VARIANTS "$UL_DEFAULT_VARIANTS"); do
			case " $only " in *" $v "*) echo "$k-$v" ;; esac
		done
	done
}
need=
for t in "$@"; do
	[ -f "$UL_TOP/tests/$t/guest.sh" ] || ul_die "no such test: $t"
	for v in $(kvs "$t"); do
		case " $need " in *" $v "*) ;; *) need="$need $v" ;; esac
	done
done
# shellcheck disable=SC2086
"$here/prepare.sh" $need

# The runs, UL_TEST_JOBS job slots at a time (default: one per core; a
# TCG vCPU mostly keeps one core busy); a run whose test.conf sets CPUS=n
# takes n slots (all of them when there are fewer). Each run has its own logs and images.
# Tests that need only guest.sh and the two disks run UL_BATCH (default 12)
# to a boot (run-batch.sh); UL_BATCH=1 boots once per test. The host-driven
# tests (several boots each) start first, then the others that boot
# alone (the crash-state tests are the longest), then the batches.
jobs=${UL_TEST_JOBS:-$UL_JOBS}
batch=${UL_BATCH:-12}
batchable() { # batchable TEST
	[ "$batch" -gt 1 ] &&
	[ -z "$(conf "$1" HOST_DRIVER "")$(conf "$1" LOGDISK "")$(conf "$1" CMDLINE "")$(conf "$1" EXPECT_FAIL "")" ] &&
	[ "$(conf "$1" MEM 512M)" = 512M ] && [ "$(conf "$1" BATCH yes)" = yes ] &&
	[ "$(conf "$1" CPUS 1)" = 1 ]
}
first=() runs=() last=()
declare -A group=()
for t in "$@"; do
	for v in $(kvs "$t"); do
		if [ -n "$(conf "$t" HOST_DRIVER "")" ]; then
			first+=("$t@$v")
		elif batchable "$t"; then
			group[$v]="${group[$v]:-} $t"
		else
			last+=("$t@$v")
		fi
	done
done
# the tests that boot alone (the longest among them) before the batches,
# and first of all those that take more than one job slot, one after
# the other: later, each would wait with slots idle until the runs
# before it ended
runs=()
for r in "${first[@]}" "${last[@]}"; do
	[ "$(conf "${r%@*}" CPUS 1)" -gt 1 ] && runs+=("$r")
done
for r in "${first[@]}" "${last[@]}"; do
	[ "$(conf "${r%@*}" CPUS 1)" -gt 1 ] || runs+=("$r")
done
for v in $(for k in $LINUX; do
	for v in debug kcsan base pristine mutant; do echo "$k-$v"; done
done); do
	set -- ${group[$v]:-}
	while [ $# -gt 0 ]; do
		n=$batch
		[ $# -lt $n ] && n=$#
		b=$v:$(IFS=,; echo "${*:1:$n}")
		[ "$n" = 1 ] && b=$1@$v
		runs+=("$b")
		shift "$n"
	done
done

passed=0 failed=0 failures=
# report TEST@VARIANT [HARNESS]: the line of one finished run (HARNESS:
# the run/VARIANT/HARNESS.harness log to show when it left no verdict)
report() {
	local t=${1%@*} v=${1##*@} expect vfile verdict secs reasons ok what
	expect=$(conf "$t" EXPECT_FAIL "")
	vfile=$UL_LOGS/$v/$t.verdict
	verdict=$(head -1 "$vfile" 2>/dev/null || echo "FAIL")
	secs=$(grep '^time:' "$vfile" 2>/dev/null | cut -d' ' -f2 || true)
	reasons=$(sed -n '2,$p' "$vfile" 2>/dev/null | grep -v '^time:' || true)
	ok=0
	if [ -z "$expect" ]; then
		[ "$verdict" = PASS ] && ok=1
		what=
	else
		what=" (must fail: $expect)"
		if [ "$verdict" = FAIL ] && [ -z "$(echo "$reasons" | grep -v "^$expect: ")" ]; then
			ok=1
		fi
	fi
	if [ $ok = 1 ]; then
		passed=$((passed + 1))
		printf 'PASS %-32s %6s s%s\n' "$t@$v" "$secs" "$what"
	else
		failed=$((failed + 1))
		failures="$failures $t@$v"
		printf 'FAIL %-32s %6s s%s\n' "$t@$v" "$secs" "$what"
		[ -n "$reasons" ] && echo "$reasons" | sed 's/^/     /'
		[ -n "$expect" ] && [ "$verdict" = PASS ] && echo "     the harness did not catch it"
		echo "     logs: $UL_LOGS/$v/$t.{log,out,qemu,verdict}"
		[ -f "$vfile" ] || tail -5 "$UL_RUNS/$v/${2:-$t}.harness" | sed 's/^/     /'
	fi
}

# slots RUN: the job slots a run takes (a batch: one)
slots() {
	local n=1
	case "$1" in *@*) n=$(conf "${1%@*}" CPUS 1) ;; esac
	[ "$n" -gt "$jobs" ] && n=$jobs
	echo "$n"
}
start=$SECONDS
declare -A running=() taken=()
next=0 busy=0
while [ $next -lt ${#runs[@]} ] || [ ${#running[@]} -gt 0 ]; do
	if [ $next -lt ${#runs[@]} ] && [ $((busy + $(slots "${runs[$next]}"))) -le "$jobs" ]; then
		r=${runs[$next]}
		next=$((next + 1))
		case "$r" in
		*@*)
			rm -f "$UL_LOGS/${r##*@}/${r%@*}.verdict"
			mkdir -p "$UL_RUNS/${r##*@}"
			"$here/run-test.sh" "${r%@*}" "${r##*@}" \
				>"$UL_RUNS/${r##*@}/${r%@*}.harness" 2>&1 &
			;;
		*)
			v=${r%%:*}
			set -- $(echo "${r#*:}" | tr ',' ' ')
			for t in "$@"; do
				rm -f "$UL_LOGS/$v/$t.verdict"
			done
			mkdir -p "$UL_RUNS/$v"
			"$here/run-batch.sh" "$v" "$@" >"$UL_RUNS/$v/batch-$1.harness" 2>&1 &
			;;
		esac
		running[$!]=$r
		taken[$!]=$(slots "$r")
		busy=$((busy + taken[$!]))
		continue
	fi
	wait -n || true
	for pid in "${!running[@]}"; do
		if ! kill -0 "$pid" 2>/dev/null; then
			r=${running[$pid]}
			case "$r" in
			*@*) report "$r" ;;
			*)
				set -- $(echo "${r#*:}" | tr ',' ' ')
				for t in "$@"; do
					report "$t@${r%%:*}" "batch-$1"
				done
				;;
			esac
			busy=$((busy - taken[$pid]))
			unset "running[$pid]" "taken[$pid]"
		fi
	done
done
# With the whole suite, the documentation on the host: its names and
# figures (tests/check-docs.sh), its meaning (tests/check-meaning.sh),
# and both checks failing on planted errors
# (tests/check-docs-selftest.sh). A few seconds each.
if [ "$all" = 1 ]; then
	mkdir -p "$UL_LOGS/host"
	# the names in the docs are looked up in every tree
	for k in $UL_LINUXES; do
		LINUX=$k "$here/tree.sh"
	done
	for c in check-docs check-meaning check-docs-selftest; do
		if "$UL_TOP/tests/$c.sh" >"$UL_LOGS/host/$c.out" 2>&1; then
			echo "PASS $c@host"
			passed=$((passed + 1))
		else
			echo "FAIL $c@host"
			sed 's/^/     /' "$UL_LOGS/host/$c.out"
			failed=$((failed + 1))
			failures="$failures $c@host"
		fi
	done
fi
[ -n "$failures" ] && echo "failed:$failures"
echo "test phase: $((SECONDS - start)) s, $jobs at a time"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
