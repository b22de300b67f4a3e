#!/bin/bash
# check-meaning.sh [FILE...]: check what the documentation says, not only
# the names it uses (tests/check-docs.sh checks those). By default README.md
# and docs/*.md. Runs on the host, needs no root and builds nothing. One
# line per problem, "FILE:LINE: what is wrong", then "check-meaning: N
# problems"; exits 1 when N > 0.
#
#  1. Step tables. A section ("### ...") that holds a table whose first
#     column is "step" has a line "Trace: `TEST`, scenario SCENARIO.".
#     The backticked trace lines of that column (a known trace operation
#     followed by its targets, as the module logs them) must appear in
#     that order among the trace lines of the scenario in
#     tests/TEST/expected.out (the first "## SCENARIO: ok" block). Steps
#     may be left out; none may be added or moved.
#  2. The letter table. A row whose second column names "`TEST`,
#     SCENARIO" starts a recipe; the backticked trace lines ending in
#     " = 0" of its rows must appear in that order in that scenario. A
#     row that names a test without a scenario ends the recipe: its
#     " = 0" lines are problems.
#  3. Intended differences. Every row of the table under "## Intended
#     differences" names, in its last column, at least one test, and
#     every test it names runs both unions: its files mount overlayfs
#     (the word overlay as a file system type outside comments, or
#     ul_against_overlay) or run ul-diff (ul_diff_case).
#  4. Counts. Every match of a rule of COUNTS below on its page must
#     give the number the rule computes from the tree, and every rule
#     must match its page. A number before a counted noun (tests,
#     mutants, modules, variants, kernels, patches, classes, workloads,
#     scenarios, refused mounts, broken unions) is a count too: it must
#     be written in digits and lie inside a match of a rule.

# COUNTS: "PAGE<TAB>ERE<TAB>FUNCTION [ARGS]". The ERE is matched against
# a line joined with the next; its first group of digits is the count.
# The function prints the number the tree gives.
COUNTS=(
	"README.md	runs ([0-9]+) tests on	n_tests"
	"README.md	([0-9]+) tests run on base	n_tests base"
	"README.md	([0-9]+) on debug	n_tests debug"
	"README.md	([0-9]+) on kcsan	n_tests kcsan"
	"README.md	([0-9]+) each on pristine and mutant	n_tests_same pristine mutant"
	"docs/harness.md	([0-9]+) unionlite mutants	n_unionlite_mutants"
	"docs/kernel-series.md	6\\.1/. holds ([0-9]+) patches	n_patches 6.1"
	"docs/kernel-series.md	6\\.12/. holds ([0-9]+) patches	n_patches 6.12"
	"docs/atomicity.md	([0-9]+) transition classes	n_crash_classes"
)

set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pages=()
for p in "$@"; do
	[ -f "$p" ] || { echo "check-meaning: $p: no such file" >&2; exit 2; }
	pages+=("$(cd "$(dirname "$p")" && pwd)/${p##*/}")
done
cd "$top" || exit 2
[ ${#pages[@]} = 0 ] && pages=("$top/README.md" "$top"/docs/*.md)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
problems=()
problem() { problems+=("${1#"$top"/}:$2: $3"); }

# ------------------------------------------------------------ the tree
declare -A tests=()
for g in tests/*/guest.sh; do
	d=${g%/guest.sh}
	tests[${d#tests/}]=1
done

# Trace operations: the first word of the trace lines of the goldens.
declare -A traceops=()
while read -r w; do traceops[$w]=1; done < <(cat tests/*/expected.out |
	sed -n 's/^unionlite: \([a-z][a-z-]*\) .*/\1/p' | sort -u)

# golden TEST SCENARIO: the trace lines of the scenario's first block,
# without the "unionlite: " prefix and the result.
golden() {
	awk -v s="## $2: ok" '
		$0 == s && !done { on = 1; next }
		on && /^##/ { on = 0; done = 1 }
		on && /^unionlite: / { sub(/^unionlite: /, ""); sub(/ = -?[0-9]+$/, ""); print }
	' "tests/$1/expected.out" 2>/dev/null
}

default_variants=$(sed -n 's/^UL_DEFAULT_VARIANTS="\(.*\)"$/\1/p' qemu-boot/lib.sh)
make_test_variants=$(sed -n 's/^UL_TEST_VARIANTS="\(.*\)"$/\1/p' qemu-boot/lib.sh)

# The counts.
# The tests make test runs and their variants, "TEST<TAB> VARIANTS ",
# read once (qemu-boot/test.sh's rules: not KIND bench, soak or fuzz).
test_variants() {
	if [ ! -s "$tmp/variants" ]; then
		local t
		for t in "${!tests[@]}"; do
			(
				KIND='' VARIANTS=$default_variants
				# shellcheck disable=SC1090
				[ -f "tests/$t/test.conf" ] && . "tests/$t/test.conf"
				[[ $KIND =~ ^(bench|soak|fuzz)$ ]] || printf '%s\t %s \n' "$t" "$VARIANTS"
			)
		done >"$tmp/variants"
	fi
	cat "$tmp/variants"
}
# n_tests [VARIANT]: the tests make test runs (on one of its variants,
# UL_TEST_VARIANTS), or the tests that name VARIANT
n_tests() {
	if [ $# = 1 ]; then
		test_variants | grep -c " $1 "
	else
		test_variants | grep -cE " ($(echo $make_test_variants | tr ' ' '|')) "
	fi
}
# n_tests_same VARIANT VARIANT: the tests of both, when the counts agree
n_tests_same() {
	local a b
	a=$(n_tests "$1") b=$(n_tests "$2")
	[ "$a" = "$b" ] && echo "$a" || echo "$a on $1, $b on $2"
}
# n_patches TREE: the patches of the tree's series
n_patches() {
	sed 's/#.*//' kernel-series/"$1"/series | grep -c .
}
# n_unionlite_mutants: the unionlite mutants qemu-boot/modules.sh builds
n_unionlite_mutants() {
	grep -oE '^[[:space:]]*ul_mutate [0-9]+' qemu-boot/modules.sh | sort -u | wc -l
}
# n_crash_classes: the transitions of the crash tests
n_crash_classes() {
	sed -n '/^CS_CLASSES="/,/"$/p' tests/lib/crash-states.sh |
		sed 's/^CS_CLASSES="//; s/"$//' | wc -w
}

# ------------------------------------------------------------ the checks
# subsequence PAGE LINES STEPS TEST SCENARIO: STEPS (a file, one
# "LINE<TAB>STEP" per step) in order among the scenario's trace lines
subsequence() {
	local page=$1 steps=$2 t=$3 s=$4 line step prev="the start" j=0 k found
	local -a tr
	mapfile -t tr < <(golden "$t" "$s")
	if [ ${#tr[@]} = 0 ]; then
		problem "$page" "$(head -1 "$steps" | cut -f1)" "no trace of scenario $s in tests/$t/expected.out"
		return
	fi
	while IFS=$'\t' read -r line step; do
		found=0
		for ((k = j; k < ${#tr[@]}; k++)); do
			if [ "${tr[k]}" = "$step" ]; then
				found=1 j=$((k + 1))
				break
			fi
		done
		if [ $found = 0 ]; then
			if printf '%s\n' "${tr[@]}" | grep -qxF -- "$step"; then
				problem "$page" "$line" "\`$step\` comes before \`$prev\` in $t's $s trace, not after"
			else
				problem "$page" "$line" "\`$step\` is not a trace line of $t's $s"
			fi
		fi
		prev=$step
	done <"$steps"
}

# trace_spans TEXT: the backticked spans of TEXT that are trace lines
trace_spans() {
	local s=$1 span op
	while [[ $s == *'`'*'`'* ]]; do
		s=${s#*\`}
		span=${s%%\`*}
		s=${s#*\`}
		op=${span%% *}
		[[ $span == *' '* && -n ${traceops[$op]:-} ]] && printf '%s\n' "$span"
	done
}

# cells ROW: the cells of a table row, in the array $cell
cells() {
	local r=${1#|}
	r=${r%|}
	IFS='|' read -ra cell <<<"$r"
	local k
	for k in "${!cell[@]}"; do
		cell[k]=${cell[k]#"${cell[k]%%[![:space:]]*}"}
		cell[k]=${cell[k]%"${cell[k]##*[![:space:]]}"}
	done
}

# runs_both TEST: the test's scripts mount overlayfs too (the word
# overlay as a file system type, outside comments), or run ul-diff
runs_both() {
	grep -hv '^[[:space:]]*#' "tests/$1"/*.sh 2>/dev/null |
		grep -E '(^|[^.a-zA-Z_/-])overlay([^a-zA-Z_.]|$)|ul_against_overlay|ul-diff|ul_diff' >/dev/null
}

for page in "${pages[@]}"; do
	mapfile -t text <"$page"
	n=${#text[@]}

	# 1. step tables
	trace_t='' trace_s='' table=0 steprows=0 section_line=0
	: >"$tmp/steps"
	flush_steps() {
		if [ $steprows = 1 ]; then
			if [ -z "$trace_t" ]; then
				problem "$page" "$section_line" "a step table without its \"Trace: \`TEST\`, scenario SCENARIO.\" line"
			elif [ -s "$tmp/steps" ]; then
				subsequence "$page" "$tmp/steps" "$trace_t" "$trace_s"
			fi
		fi
		: >"$tmp/steps"
		steprows=0
	}
	for ((i = 0; i < n; i++)); do
		l=${text[i]}
		if [[ $l == '#'* ]]; then
			flush_steps
			trace_t='' trace_s='' section_line=$((i + 1))
			continue
		fi
		if [[ $l =~ ^Trace:\ \`([a-z0-9-]+)\`,\ scenario\ ([A-Za-z0-9_-]+)\.?$ ]]; then
			trace_t=${BASH_REMATCH[1]} trace_s=${BASH_REMATCH[2]}
			[ -n "${tests[$trace_t]:-}" ] ||
				problem "$page" $((i + 1)) "Trace: $trace_t is not a test"
			continue
		fi
		if [[ $l == '|'* ]]; then
			cells "$l"
			first=${cell[0]}
			if [ $table = 0 ]; then
				table=1
				[ "$first" = step ] && steprows=1
				continue
			fi
			[ $steprows = 1 ] || continue
			[[ $first == ---* ]] && continue
			while read -r st; do
				[ -n "$st" ] && printf '%d\t%s\n' $((i + 1)) "$st" >>"$tmp/steps"
			done < <(trace_spans "$first")
		else
			table=0
		fi
	done
	flush_steps

	# 2. the letter table (rows whose trace lines end in " = 0")
	lt='' ls=''
	: >"$tmp/letter"
	flush_letter() {
		[ -n "$lt" ] && [ -s "$tmp/letter" ] && subsequence "$page" "$tmp/letter" "$lt" "$ls"
		: >"$tmp/letter"
	}
	for ((i = 0; i < n; i++)); do
		l=${text[i]}
		if [[ $l != '|'* ]]; then
			flush_letter
			lt='' ls=''
			continue
		fi
		cells "$l"
		second=${cell[1]:-}
		if [[ $second =~ ^\`([a-z0-9-]+)\`,\ ([A-Za-z0-9_.-]+)[\;,]? ]] && [ -n "${tests[${BASH_REMATCH[1]}]:-}" ]; then
			flush_letter
			lt=${BASH_REMATCH[1]} ls=${BASH_REMATCH[2]}
		elif [[ $second =~ \`([a-z0-9-]+)\` ]] && [ -n "${tests[${BASH_REMATCH[1]}]:-}" ]; then
			flush_letter
			lt='' ls=''
		fi
		while read -r st; do
			[[ $st == *' = 0' ]] || continue
			if [ -z "$lt" ]; then
				problem "$page" $((i + 1)) "\`$st\`: a trace line with no \"\`TEST\`, SCENARIO\" row above it"
			else
				printf '%d\t%s\n' $((i + 1)) "${st% = 0}" >>"$tmp/letter"
			fi
		done < <(s=$second; while [[ $s == *'`'*'`'* ]]; do s=${s#*\`}; printf '%s\n' "${s%%\`*}"; s=${s#*\`}; done)
	done
	flush_letter

	# 3. intended differences
	on=0
	for ((i = 0; i < n; i++)); do
		l=${text[i]}
		if [[ $l == '## '* ]]; then
			[[ $l == '## Intended differences'* ]] && on=1 || on=0
			continue
		fi
		[ $on = 1 ] && [[ $l == '|'* ]] || continue
		cells "$l"
		last=${cell[${#cell[@]} - 1]}
		[[ $last == test || $last == ---* ]] && continue
		named=0
		for w in $(grep -oE '`[a-z0-9-]+`' <<<"$last" | tr -d '`'); do
			[ -n "${tests[$w]:-}" ] || continue
			named=1
			runs_both "$w" ||
				problem "$page" $((i + 1)) "intended difference: \`$w\` does not run overlayfs"
		done
		[ $named = 1 ] || problem "$page" $((i + 1)) "intended difference without a test"
	done

	# 4. counts: the rules of this page, then the counts no rule covers
	rel=${page#"$top"/}
	: >"$tmp/covered"
	for c in "${COUNTS[@]}"; do
		IFS=$'\t' read -r cp re fn <<<"$c"
		[ "$cp" = "$rel" ] || continue
		hit=0
		for ((i = 0; i < n; i++)); do
			s="${text[i]} ${text[i + 1]:-}"
			[[ $s =~ $re ]] || continue
			# the match must start on this line
			pre=${s%%"${BASH_REMATCH[0]}"*}
			[ ${#pre} -lt ${#text[i]} ] || continue
			hit=1
			num=${BASH_REMATCH[1]}
			printf '%d\t%s\n' $((i + 1)) "${BASH_REMATCH[0]}" >>"$tmp/covered"
			# shellcheck disable=SC2086
			want=$($fn)
			[ "$num" = "$want" ] ||
				problem "$page" $((i + 1)) "\"${BASH_REMATCH[0]}\": the tree gives $want ($fn)"
		done
		[ $hit = 1 ] || problem "$page" 1 "the COUNTS rule /$re/ matches nothing here: the page changed, change the rule"
	done
	words='one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve'
	nouns='tests|mutants|modules|variants|kernels|patches|classes|workloads|scenarios|refused mounts|broken unions'
	awk -v words="$words" -v nouns="$nouns" '
	{ line[NR] = $0 }
	END {
		re = "(^|[^A-Za-z0-9_.,-])([0-9]+|" words ") ([a-z0-9-]+ )?(" nouns ")([^A-Za-z]|$)"
		for (i = 1; i <= NR; i++) {
			if (line[i] ~ /^(    |\t|\|)/) continue
			s = tolower(line[i]) " " tolower(line[i + 1])
			n = length(line[i])
			off = 0
			while (match(s, re)) {
				if (off + RSTART > n) break
				m = substr(s, RSTART, RLENGTH)
				sub(/^[^a-z0-9]/, "", m)
				sub(/[^a-z]$/, "", m)
				print i "\t" m
				off += RSTART + RLENGTH - 1
				s = substr(s, RSTART + RLENGTH)
			}
		}
	}' "$page" >"$tmp/counts"
	while IFS=$'\t' read -r ln m; do
		num=${m%% *}
		if [[ ! $num =~ ^[0-9] ]]; then
			problem "$page" "$ln" "a count in words (\"$m\"): write it in digits, computed by a COUNTS rule"
			continue
		fi
		ok=0
		while IFS=$'\t' read -r cl cm; do
			[ "$cl" -ge $((ln - 1)) ] && [ "$cl" -le "$ln" ] &&
				[[ ${cm,,} == *"$m"* ]] && { ok=1; break; }
		done <"$tmp/covered"
		[ $ok = 1 ] ||
			problem "$page" "$ln" "a count no rule computes (\"$m\"): add a COUNTS rule or leave it out"
	done <"$tmp/counts"
done

n=${#problems[@]}
[ "$n" -gt 0 ] && printf '%s\n' "${problems[@]}" | sort -t: -k1,1 -k2,2n -s | awk '!seen[$0]++'
echo "check-meaning: $n problems"
[ "$n" = 0 ]
