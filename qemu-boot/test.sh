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
if [ $# = 0 ]; then
	# every test but the benchmarks and soaks (KIND=bench or soak in
	# test.conf), which run only when named (make bench, make soak)
	set -- $(cd "$UL_TOP/tests" && for d in */guest.sh; do
		grep -qsE '^KIND=(bench|soak)' "${d%/guest.sh}/test.conf" || echo "${d%/guest.sh}"
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

only=${VARIANTS:-$UL_VARIANTS}
need=
for t in "$@"; do
	[ -f "$UL_TOP/tests/$t/guest.sh" ] || ul_die "no such test: $t"
	for v in $(conf "$t" VARIANTS "$UL_DEFAULT_VARIANTS"); do
		case " $only " in *" $v "*) ;; *) continue ;; esac
		case " $need " in *" $v "*) ;; *) need="$need $v" ;; esac
	done
done
# shellcheck disable=SC2086
"$here/prepare.sh" $need

passed=0 failed=0 failures=
for t in "$@"; do
	expect=$(conf "$t" EXPECT_FAIL "")
	for v in $(conf "$t" VARIANTS "$UL_DEFAULT_VARIANTS"); do
		case " $only " in *" $v "*) ;; *) continue ;; esac
		"$here/run-test.sh" "$t" "$v" || true
		vfile=$UL_BUILD/logs/$v/$t.verdict
		verdict=$(head -1 "$vfile")
		secs=$(grep '^time:' "$vfile" | cut -d' ' -f2)
		reasons=$(sed -n '2,$p' "$vfile" | grep -v '^time:' || true)
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
			echo "     logs: $UL_BUILD/logs/$v/$t.{log,out,qemu,verdict}"
		fi
	done
done
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
