#!/bin/bash
# check-docs-selftest.sh [--linux DIR]: show that the documentation
# checks can fail. In a copy of the repository, plant one error of each
# kind the checks look for (a name, a figure, a step out of the golden's
# order, a difference without a test on both unions, a count the tree
# contradicts, ...), one at a time, and expect tests/check-docs.sh or
# tests/check-meaning.sh to name it. The copy without a planted error
# must pass both. One line per plant, "caught: KIND" or "MISSED: KIND";
# exits 1 when one is missed or the clean copy fails.
# shellcheck disable=SC2016
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kargs=()
if [ "${1:-}" = --linux ]; then
	kargs=(--linux "$2")
else
	for t in "$top"/build/*/linux; do kargs+=(--linux "$t"); done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The copy: the repository's files, not build/ (a git repository of its
# own, so that commit ids stay commits of this repository).
cd "$top" || exit 2
git ls-files -co --exclude-standard | tar -cf - -T - | tar -xf - -C "$tmp"
cp -r .git "$tmp/.git"
cd "$tmp" || exit 2

status=0
run_checks() {
	tests/check-docs.sh "${kargs[@]}" >"$tmp/out" 2>&1
	local a=$?
	tests/check-meaning.sh >>"$tmp/out" 2>&1
	return $((a | $?))
}
if run_checks; then
	echo "clean: both checks pass"
else
	echo "FAIL: the unplanted copy does not pass:"
	sed 's/^/  /' "$tmp/out"
	exit 1
fi

# plant CHECK KIND FILE EXPECT PERL: apply the perl program to FILE
# (-0777: the whole file at once), expect CHECK (docs or meaning) on FILE
# to report a problem holding EXPECT, then put FILE back
plant() {
	local check=$1 kind=$2 file=$3 expect=$4 prog=$5 args=()
	[ "$check" = docs ] && args=("${kargs[@]}")
	cp "$file" "$tmp/saved"
	perl -0777 -pi -e "$prog" "$file"
	if cmp -s "$file" "$tmp/saved"; then
		echo "MISSED: $kind (the plant found nothing to change in $file)"
		status=1
	elif ! tests/check-$check.sh "${args[@]}" "$file" >"$tmp/out" 2>&1 &&
		grep -F "$file:" "$tmp/out" | grep -qF -- "$expect"; then
		echo "caught: $kind: $(grep -F "$file:" "$tmp/out" | grep -F -- "$expect" | head -1)"
	else
		echo "MISSED: $kind"
		sed 's/^/  /' "$tmp/out"
		status=1
	fi
	cp "$tmp/saved" "$file"
}

# check-docs.sh: names
plant docs "a test that does not exist" docs/harness.md "no such test" \
	's/\z/\nRun `union-no-such-test`.\n/'
plant docs "a function that does not exist" docs/unionlite.md "ul_no_such_function" \
	's/\z/\nSee `ul_no_such_function()`.\n/'
# check-docs.sh: figures outside results.md
plant docs "a size" README.md "480 MB" 's/\z/\nThe image takes 480 MB.\n/'
plant docs "a duration in words" docs/harness.md "half an hour" \
	's/\z/\nThe first run takes about\nhalf an hour.\n/'
plant docs "a time" docs/recipes.md "12 s" 's/\z/\nA rename takes 12 s here.\n/'

# check-docs.sh: a sentence of 41 words
plant docs "a long sentence" docs/unionlite.md "a sentence of 41 words" \
	's/\z/\n'"$(printf 'word %.0s' $(seq 40))"'end.\n/'

# check-meaning.sh 1: step tables against the goldens. The first two
# backticked steps of the first step table swapped; a step changed; the
# table's Trace line removed.
plant meaning "two steps swapped" docs/recipes.md "comes before" '
	s{(\nTrace: [^\n]*\n(?:(?!\|)[^\n]*\n)*\| step \|[^\n]*\n\|[^\n]*\n)(\| `[^\n]*\n)(\| `[^\n]*\n)}{$1$3$2}'
plant meaning "a step not in the trace" docs/recipes.md "is not a trace line" '
	s{(\nTrace: [^\n]*\n(?:(?!\|)[^\n]*\n)*\| step \|[^\n]*\n\|[^\n]*\n\| `[a-z-]+ )([^`]*)`}{$1$2-x`}'
plant meaning "a step table without its golden" docs/recipes.md "without its" \
	's/\nTrace: [^\n]*\n/\n/'
# check-meaning.sh 2: the letter table. Two consecutive rows with trace
# lines ending in " = 0" swapped.
plant meaning "the letter's steps swapped" docs/recipes.md "comes before" '
	s{\n(\| [^\n]*\| `[^`\n]* = 0`[^\n]*\n)(\| [^\n]*\| `[^`\n]* = 0`[^\n]*\n)}{\n$2$1}'
# check-meaning.sh 3: intended differences. The first row's tests
# replaced by nothing, then by a test that runs unionlite only.
plant meaning "a difference without a test" docs/overlayfs.md "without a test" '
	s{(## Intended differences\n(?:[^|][^\n]*\n|\n)*\|[^\n]*\n\|[^\n]*\n\|[^\n]*\| )[^|\n]+( \|\n)}{$1none$2}'
plant meaning "a difference shown on unionlite only" docs/overlayfs.md "does not run overlayfs" '
	s{(## Intended differences\n(?:[^|][^\n]*\n|\n)*\|[^\n]*\n\|[^\n]*\n\|[^\n]*\| )[^|\n]+( \|\n)}{$1`recipe-rmdir`$2}'
# check-meaning.sh 4: counts. The first count a COUNTS rule computes,
# one more than the tree gives; a count in words; a count no rule
# computes.
rule=$(sed -n 's/^\t"\([^\t]*\)\t\(.*\)\t[a-z_]* *[a-z]*"$/\1\t\2/p' tests/check-meaning.sh | head -1)
cpage=${rule%%$'\t'*} cre=${rule#*$'\t'}
CRE=$cre plant meaning "a wrong count" "$cpage" "the tree gives" '
	BEGIN { $re = $ENV{CRE}; $re =~ s/\(\[0-9\]\+\)/(\\d+)/ }
	s{$re}{ my $m = $&; my $n = $1 + 1; $m =~ s/\d+/$n/; $m }e'
plant meaning "a count in words" docs/harness.md "in words" \
	's/\z/\nThe harness builds three mutants.\n/'
plant meaning "a count no rule computes" docs/unionlite.md "no rule computes" \
	's/\z/\nThe module has 7 variants.\n/'

[ $status = 0 ] && echo "check-docs-selftest: every plant caught" ||
	echo "check-docs-selftest: FAILED"
exit $status
