#!/bin/bash
# check-docs.sh [--linux DIR] [FILE...]: check what a machine can check of
# the documentation (by default README.md and docs/*.md) against the tree.
# Runs on the host, needs no root and builds nothing. One line per
# problem, "FILE:LINE: what is wrong", then "check-docs: N problems";
# exits 1 when N > 0.
#
#  1. make targets: every `make X ...` (in backticks or in a code block)
#     names a target of the Makefile.
#  2. tests: the names in TESTS=..., the arguments of qemu-boot/test.sh,
#     run-test.sh and run-batch.sh, every tests/NAME path and every
#     backticked word of a test family (union-, recipe-, crash-, ...) is
#     a test (tests/NAME/guest.sh). A family word that is no test may
#     still be a file or a name the code uses (a crash class, a race
#     workload, a trace operation): then it is not a problem.
#  3. paths: every backticked path (a word with a '/', or ending in .c .h
#     .sh .md .conf .out .patch .config) exists in the repository (a bare
#     name anywhere in it, a path with an unknown first directory as the
#     tail of one), among the files the kernel series adds, or in a
#     Linux tree (build/TREE/linux) for kernel paths. build/, ~/, store and
#     guest paths (/dev, /proc, ...) are skipped. A path with a glob, a
#     <placeholder> or an all-caps placeholder (VARIANT, TEST, N, ...) is
#     a pattern: some file must match it.
#  4. functions: every backticked `name()` is defined (a line starting at
#     column 0 that holds "name(") in unionfs-lite/, tests/, qemu-boot/
#     or the lines the kernel series adds, declared in the C library's
#     headers (system calls and libc), or defined or declared in the
#     Linux trees. Without a tree, the names it would decide are
#     listed on one line and not counted. A ul_ name must be the module's.
#  5. parameters: every backticked `x=...` (x lower case, not a mount
#     option) is a module parameter of unionlite or of a test module
#     (tests/kmod), a word the harness writes (qemu-boot/, tests/:
#     ul.test=, printk.devkmsg=, rc=, ...) or a parameter of Linux's
#     command line (kernel-parameters.txt of a tree: lpj=; without
#     the tree, listed with the functions); /sys/module/M/parameters/P
#     names a parameter of M. Make variables (`make X VAR=...`) are the
#     Makefile's.
#  6. environment: every UL_NAME is used in the Makefile, qemu-boot/,
#     tests/ or .ci/run (or is a name of the module's C code).
#  7. the reference pages (all but docs/results.md) hold no commit of
#     this repository, no ISO date and no measured figure (a number with
#     a time, rate, percent or size unit, or an "x" ratio; a duration in
#     words, "a minute"), except the settings below.
#  8. sentences: no sentence of README.md and the reference pages runs
#     past 40 words (prose, list items and table cells; code skipped).
# Trace lines of code blocks ("unionlite: ...") are skipped by 3 to 5.

# Figures that are settings, not measurements: a figure is allowed when
# its line (joined with the next) contains one of these phrases and the
# phrase contains the figure. Keep this short; measured figures belong in docs/results.md.
ALLOWED_FIGURES=(
	"sleeps past a 6 s timeout"     # harness-timeout's TIMEOUT
	"its own 6 s"                   # the same, in a batch
	"hung-task (30 s)"              # debug.config
	"cut after 1 s"                 # harness-cut's cut delay
	"sleeps 1.1 s first"            # the ext2 selftest's wait
	"a 1 ms pause"                  # race-unionlite-paused's step_pause_ms
	"the pause is 200 ms"           # aimed cuts: ul.crash_pause=200
	"0.1 s after the trace line"    # aimed cuts: CRASH_AIM_DELAY
	"pause is 20 ms"                # random cuts: the pause
	"0.15-0.9 s after"              # random cuts: the cut window
	"100 to 200 µs"                 # naive mode's usleep_range()
	"15 s of stress"                # stress-debug's duration
	"for 15 seconds"                # the same
	"20 minutes of random"          # make soak: stress-soak's duration
	"runs it for 20 minutes"        # the same
)

set -uo pipefail
shopt -s extglob

usage() {
	echo "usage: tests/check-docs.sh [--linux DIR] [FILE...]" >&2
	echo "  FILE: the pages to check (default: README.md docs/*.md)" >&2
	echo "  --linux DIR: a Linux tree, again for more (default: build/*/linux)" >&2
	exit 2
}

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
self=tests/check-docs.sh
ktrees=()
pages=()
while [ $# -gt 0 ]; do
	case $1 in
	--linux) [ $# -ge 2 ] || usage; ktrees+=("$2"); shift 2 ;;
	-h|--help) usage ;;
	--) shift; pages+=("$@"); break ;;
	-*) usage ;;
	*) pages+=("$1"); shift ;;
	esac
done
# Pages named on the command line are read from where the caller is;
# everything else is relative to the top of the repository.
abs=()
for p in "${pages[@]}"; do
	[ -f "$p" ] || { echo "check-docs: $p: no such file" >&2; exit 2; }
	abs+=("$(cd "$(dirname "$p")" && pwd)/${p##*/}")
done
[ ${#ktrees[@]} = 0 ] && ktrees=("$top"/build/*/linux)
kt=()
for t in "${ktrees[@]}"; do
	[ -d "$t/fs" ] && [ -d "$t/include" ] && kt+=("$(cd "$t" && pwd)")
done
cd "$top" || exit 2
if [ ${#pages[@]} = 0 ]; then
	pages=(README.md docs/*.md)
	abs=("${pages[@]/#/$top/}")
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

problems=()
problem() { problems+=("$1:$2: $3"); }

# ---------------------------------------------------------------- facts
# The repository's files (tracked and new, not ignored), without this
# script and its self-test: what the code says must not come from the
# checker or from the errors the self-test plants.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -co --exclude-standard
else
	find . \( -path ./build -o -path ./.git \) -prune -o -type f -print |
		sed 's|^\./||'
fi | grep -vxF -e "$self" -e tests/check-docs-selftest.sh | sort >"$tmp/files"

# tails[X]: X is a repository path, or the tail of one after a '/' (a
# bare name or a path below some directory); tops[X]: X is a top-level
# entry of the repository.
declare -A tails=() tops=()
while read -r f; do
	tops[${f%%/*}]=1
	p=$f
	while :; do
		tails[$p]=1
		d=$p
		while [[ $d == */* ]]; do
			d=${d%/*}
			tails[$d]=1
		done
		[[ $p == */* ]] || break
		p=${p#*/}
	done
done <"$tmp/files"

codefiles() { grep -E "^($1)" "$tmp/files" | grep -vE '\.(md|out)$'; }

# Make targets.
declare -A targets=()
while read -r t; do
	targets[$t]=1
done < <(sed -nE 's/^([A-Za-z0-9_.-]+( +[A-Za-z0-9_.-]+)*) *:([^=].*|)$/\1/p' Makefile |
	tr ' ' '\n' | grep -v '^\.')

# The Makefile's variables (TESTS, VARIANTS, N, SEEDS, ...).
declare -A makevars=()
while read -r v; do
	makevars[$v]=1
done < <(grep -v '^[[:space:]]*#' Makefile | grep -oE '[A-Z][A-Z0-9_]*' | sort -u)

# Tests: directories with a guest.sh.
declare -A tests=()
for g in tests/*/guest.sh; do
	d=${g%/guest.sh}
	tests[${d#tests/}]=1
done

# Words of the test families the code uses (crash classes, race
# workloads, trace operations, ...): not test names, not problems.
families='union|recipe|crash|race|diff|harness|bench|stress|rename|renameat2|ext2|overlay'
declare -A codewords=()
while read -r w; do
	codewords[$w]=1
done < <(codefiles 'Makefile|qemu-boot/|tests/|unionfs-lite/|kernel-series/|\.ci/' |
	xargs -d '\n' grep -ohE "(^|[^A-Za-z0-9_.-])($families)-[A-Za-z0-9_-]*[A-Za-z0-9]" 2>/dev/null |
	sed -E 's/^[^A-Za-z0-9]//' | sort -u)

# Files the kernel series adds or changes, and what the added lines of
# the series define.
declare -A ptails=()
while read -r f; do
	p=$f
	while :; do
		ptails[$p]=1
		d=$p
		while [[ $d == */* ]]; do
			d=${d%/*}
			ptails[$d]=1
		done
		[[ $p == */* ]] || break
		p=${p#*/}
	done
done < <(sed -n 's|^+++ b/||p' kernel-series/*/*.patch 2>/dev/null | sort -u)

# Functions (and function-like macros) the project defines: a line that
# starts at column 0 and holds "name(": a definition, a prototype, a
# #define, a shell function. Calls are indented.
declare -A defs=()
{
	codefiles 'unionfs-lite/|tests/|qemu-boot/' | grep -E '\.(c|h|sh)$' |
		xargs -d '\n' grep -hE '^[A-Za-z_#]' 2>/dev/null
	sed -n 's/^+\([A-Za-z_#]\)/\1/p' kernel-series/*/*.patch 2>/dev/null
} | grep -oE '[A-Za-z_][A-Za-z0-9_]*\(' | tr -d '(' | sort -u >"$tmp/defs"
while read -r f; do defs[$f]=1; done <"$tmp/defs"

# The C library's functions and system call wrappers.
declare -A libc=()
libc_ok=0
if compgen -G '/usr/include/*-linux-gnu/sys/*.h' >/dev/null; then
	libc_ok=1
	while read -r f; do
		libc[$f]=1
	done < <(sed -nE 's/^(extern )?[a-z][^(]*[^A-Za-z0-9_(]([a-z_][a-z0-9_]*) ?\(.*/\2/p' \
		/usr/include/*.h /usr/include/*-linux-gnu/sys/*.h \
		/usr/include/*-linux-gnu/bits/*.h 2>/dev/null | sort -u)
fi

# Module parameters: unionlite's and the test modules'.
declare -A params=()	# params[NAME]=module
declare -A modparams=()	# modparams[MODULE/NAME]=1
for f in unionfs-lite/*.c tests/kmod/*.c; do
	[ -f "$f" ] || continue
	m=unionlite
	[[ $f == tests/kmod/* ]] && { m=${f##*/}; m=${m%.c}; }
	while read -r n; do
		params[$n]=$m
		modparams[$m/$n]=1
	done < <(sed -nE 's/^[[:space:]]*module_param(_named|_array|_string|_cb)?\(([a-z0-9_]+),.*/\2/p' "$f")
done
mountopts=" lowerdir upperdir workdir default_permissions redirect_dir index metacopy nfs_export xino redirect_max uuid volatile userxattr "
# Words "x=" the harness writes or reads (kernel command line, sentinel
# and output fields).
declare -A harnesswords=()
while read -r w; do
	harnesswords[$w]=1
done < <(codefiles 'qemu-boot/|tests/' |
	xargs -d '\n' grep -ohE '(^|[^A-Za-z0-9_.])[a-z][a-z0-9_.]*=' 2>/dev/null |
	sed -E 's/^[^a-z]//; s/=$//' | sort -u)

# Environment variables the code uses, and the module's C names.
declare -A envused=() cnames=()
while read -r w; do envused[$w]=1; done < <(codefiles 'Makefile|qemu-boot/|tests/|\.ci/run' |
	xargs -d '\n' grep -ohE 'UL_[A-Z0-9_]+' 2>/dev/null | sort -u)
while read -r w; do cnames[$w]=1; done < <(grep -ohE 'UL_[A-Z0-9_]+' unionfs-lite/*.[ch] 2>/dev/null | sort -u)

# The Linux trees, when they have been extracted.
have_kernel=0
[ ${#kt[@]} -gt 0 ] && have_kernel=1
kfuncs=()	# "FILE<TAB>LINE<TAB>NAME", decided by the Linux tree
kpaths=()	# "FILE<TAB>LINE<TAB>PATH", the same for kernel file names
kparams=()	# "FILE<TAB>LINE<TAB>NAME", the same for x= words

# ------------------------------------------------------------- the pages
# One record per backticked span ("S", spans that run over a line break
# joined with a blank, at the line where they start) and per line of a
# code block ("C"; trace lines left out), tab-separated: kind, page,
# line, text.
for i in "${!pages[@]}"; do
	awk -v page="${pages[$i]}" '
	function emit(kind, line, text) { printf "%s\t%s\t%d\t%s\n", kind, page, line, text }
	BEGIN { fence = 0; code = 0; blank = 1; open = 0 }
	{
		line = $0
		if (fence) {
			if (line ~ /^ *(```|~~~)/) { fence = 0; blank = 0; next }
			if (line !~ /^[ \t]*unionlite: /) emit("C", FNR, line)
			next
		}
		if (line ~ /^ *(```|~~~)/) { fence = 1; open = 0; next }
		if (line ~ /^[ \t]*$/) { blank = 1; open = 0; next }
		if (!open && line ~ /^(    |\t)/ && (code || blank)) {
			code = 1; blank = 0
			if (line !~ /^[ \t]*unionlite: /) emit("C", FNR, line)
			next
		}
		code = 0; blank = 0
		s = line
		while ((k = index(s, "`")) > 0) {
			if (open) { emit("S", start, buf substr(s, 1, k - 1)); open = 0 }
			else { open = 1; start = FNR; buf = "" }
			s = substr(s, k + 1)
		}
		if (open) buf = buf s " "
	}' "${abs[$i]}"
done >"$tmp/records"

# ------------------------------------------------------------ the checks
is_placeholder() { [[ $1 =~ ^[A-Z][A-Z0-9]*$ ]]; }

# pattern PATH: whether PATH is a pattern (a glob character, a
# <placeholder>, "..." or an all-caps word); if so, $glob is it as a glob.
glob=
pattern() {
	local p=$1 part ispat=0 rest
	glob=
	[[ $p == *[*?\<\{]* || $p == *...* ]] && ispat=1
	p=${p//<+([^>])>/*}
	p=${p//\{+([^\}])\}/*}
	p=${p//.../*}
	# each word of letters and digits that is all capitals: a placeholder
	rest=$p
	while [ -n "$rest" ]; do
		if [[ $rest =~ ^([A-Za-z0-9]+)(.*)$ ]]; then
			part=${BASH_REMATCH[1]}
			rest=${BASH_REMATCH[2]}
			if is_placeholder "$part"; then
				glob+="*"
				ispat=1
			else
				glob+=$part
			fi
		else
			glob+=${rest:0:1}
			rest=${rest:1}
		fi
	done
	[ $ispat = 1 ]
}

# fixed_prefix PATH: the directories of a pattern before its first
# segment with a glob or a placeholder, in $glob.
fixed_prefix() {
	local seg segs=() out=""
	IFS=/ read -ra segs <<<"$1"
	for seg in "${segs[@]}"; do
		pattern "$seg" && break
		out+=${out:+/}$seg
	done
	glob=$out
}

# A test name or a glob of test names.
check_test() {	# PAGE LINE NAME
	local n=${3%...} t
	[[ -z $n || $n == \$* ]] && return
	is_placeholder "$n" && return
	if [[ $n == *[*?]* ]]; then
		for t in "${!tests[@]}"; do
			# shellcheck disable=SC2053
			[[ $t == $n ]] && return
		done
		problem "$1" "$2" "\`$n\`: no test matches"
		return
	fi
	[ -n "${tests[$n]:-}" ] && return
	problem "$1" "$2" "\`$n\`: no such test (tests/$n/guest.sh)"
}

check_make() {	# PAGE LINE COMMAND
	local rest=$3 w n m names=() words=()
	rest=${rest#make}
	while [[ $rest =~ TESTS=(\"([^\"]*)\"|\'([^\']*)\'|([^][:space:]]*)) ]]; do
		m=${BASH_REMATCH[0]}
		read -ra names <<<"${BASH_REMATCH[2]}${BASH_REMATCH[3]}${BASH_REMATCH[4]}"
		for n in "${names[@]}"; do
			check_test "$1" "$2" "$n"
		done
		rest=${rest/"$m"/}
	done
	rest=${rest//\"*([^\"])\"/}
	read -ra words <<<"$rest"
	# make -C DIR, make fs/ext2/: a make of the kernel tree
	for w in "${words[@]}"; do
		[[ $w == -C* || ( $w != *=* && $w == */* ) ]] && return
	done
	for w in "${words[@]}"; do
		w=${w#[}
		w=${w%]}
		case $w in
		[A-Z]*=*)
			[ -n "${makevars[${w%%=*}]:-}" ] ||
				problem "$1" "$2" "\`make ... $w\`: the Makefile has no variable ${w%%=*}"
			;;
		-*|*=*|...|'') ;;
		*)
			[[ $w =~ ^[A-Za-z0-9_.-]+$ ]] || continue
			[ -n "${targets[$w]:-}" ] ||
				problem "$1" "$2" "\`make $w\`: no target $w in the Makefile"
			;;
		esac
	done
}

check_runner() {	# PAGE LINE SCRIPT ARGS...
	local page=$1 line=$2 script=$3 w i=0
	shift 3
	for w in "$@"; do
		i=$((i + 1))
		case $script in
		*/run-test.sh) [ $i = 1 ] || break ;;
		*/run-batch.sh) [ $i = 1 ] && continue ;;
		esac
		[[ $w == -* || $w == *=* || $w == [\;\|\&\>\<#]* ]] && break
		check_test "$page" "$line" "$w"
	done
}

# Commands in a span or a code line: make and the test runners.
check_commands() {	# PAGE LINE TEXT
	local text=" $3" cmd words
	# no comment, one command a line
	[[ $text =~ ^(.*[[:space:]])#([[:space:]].*)?$ ]] && text=${BASH_REMATCH[1]}
	[[ $text == *make* || $text == *qemu-boot/* ]] || return 0
	text=${text//&&/$'\n'}
	text=${text//||/$'\n'}
	text=${text//[;|(]/$'\n'}
	while IFS= read -r cmd; do
		cmd=${cmd##*([[:space:]])}
		cmd=${cmd#\$ }
		while [[ $cmd =~ ^[A-Za-z_][A-Za-z0-9_]*=(\"[^\"]*\"|[^[:space:]]*)[[:space:]]+(.*)$ ]]; do
			cmd=${BASH_REMATCH[2]}
		done
		case $cmd in
		make|make[[:space:]]*) check_make "$1" "$2" "$cmd" ;;
		qemu-boot/test.sh*|qemu-boot/run-test.sh*|qemu-boot/run-batch.sh*)
			read -ra words <<<"$cmd"
			check_runner "$1" "$2" "${words[@]}"
			;;
		esac
	done <<<"$text"
}

kernel_top=" arch block certs crypto Documentation drivers fs include init io_uring ipc kernel lib mm net samples scripts security sound tools usr virt "
known_ext='\.(c|h|sh|md|conf|out|patch|config)$'

check_path() {	# PAGE LINE WORD
	local page=$1 line=$2 p=$3 first
	[[ $p == */* || $p =~ $known_ext ]] || return 0
	case $p in
	*://*|*=*|-*|\$*|~*|.../*|../*|build/*|build) return ;;
	esac
	[[ $p =~ ^[0-9/]+$ ]] && return	# 0/0, a device number
	[[ $p =~ ^\.[a-z]+$ ]] && return	# an extension: `.out`
	if [[ $p == /* ]]; then
		# a guest or host path; the guest's /tests/ is the repository's
		[[ $p == /tests/* ]] || return 0
		p=${p#/}
	fi
	p=${p%/}
	[ -n "$p" ] || return 0
	first=${p%%/*}
	# a module is built from its .c (tests/kmod/ul_test_warn.ko)
	[[ $p == *.ko ]] && [ -e "${p%.ko}.c" ] && return
	# a log of a test: crash-unionlite@cut3-check.out, race-soak.out
	[[ $p != */* && -n ${tests[${p%%[@.]*}]:-} ]] && return
	if [ -n "${tails[$p]:-}" ] || [ -n "${ptails[$p]:-}" ] || [ -e "$p" ]; then
		# the repository's tests/NAME must be tests
		if [[ $p =~ ^tests/([^/]+)$ && -d $p && -z ${tests[${BASH_REMATCH[1]}]:-} ]]; then
			case ${BASH_REMATCH[1]} in helpers|kmod|lib|union-lib) ;; *)
				problem "$page" "$line" "\`$3\`: tests/${BASH_REMATCH[1]} is not a test (no guest.sh)" ;;
			esac
		fi
		return
	fi
	is_placeholder "$first" && return	# W/work, STORE/..., T.out: nothing fixed
	if [ -n "${tops[$first]:-}" ]; then
		if pattern "$p"; then
			compgen -G "$glob" >/dev/null ||
				problem "$page" "$line" "\`$3\`: no file matches $glob"
			return
		fi
		if [[ $p =~ ^tests/([^/]+) && ! -d tests/${BASH_REMATCH[1]} ]]; then
			problem "$page" "$line" "\`${BASH_REMATCH[1]}\`: no such test (tests/${BASH_REMATCH[1]}/guest.sh)"
		else
			problem "$page" "$line" "\`$3\`: no such file or directory"
		fi
		return
	fi
	if [[ $kernel_top == *" $first "* ]]; then
		# a kernel path (fs/ext2/namei.c): decided by the tree; of a
		# pattern, its fixed directories
		if pattern "$p"; then
			fixed_prefix "$p"
			p=$glob
			[ "$p" = "$first" ] && return
		fi
		kpaths+=("$page	$line	$p")
		return
	fi
	[[ $p =~ $known_ext ]] || return 0	# lower/d, upper/P: not a file of ours
	pattern "$p" && return
	if [[ $p != */* ]]; then
		# a bare name that is not ours (overlayfs.h): the tree decides
		kpaths+=("$page	$line	$p")
		return
	fi
	problem "$page" "$line" "\`$3\`: no such file in the repository"
}

check_family() {	# PAGE LINE WORD
	local w=$3 t f
	[[ $w =~ ^($families)-[A-Za-z0-9_*-]*[A-Za-z0-9*]$ ]] || return 0
	[ -n "${tests[$w]:-}" ] && return
	if [[ $w == *\** ]]; then
		for t in "${!tests[@]}"; do
			# shellcheck disable=SC2053
			[[ $t == $w ]] && return
		done
		for f in "${!tails[@]}"; do
			# shellcheck disable=SC2053
			[[ $f == $w ]] && return
		done
		problem "$1" "$2" "\`$w\`: no test matches"
		return
	fi
	[ -n "${tails[$w]:-}" ] && return	# a file or directory
	[ -n "${codewords[$w]:-}" ] && return	# a name the code uses
	problem "$1" "$2" "\`$w\`: no such test (tests/$w/guest.sh)"
}

check_param() {	# PAGE LINE WORD
	local o x opts=()
	IFS=, read -ra opts <<<"$3"
	for o in "${opts[@]}"; do
		[[ $o =~ ^([a-z][a-z0-9_.]*)= ]] || continue
		x=${BASH_REMATCH[1]}
		[[ $mountopts == *" $x "* ]] && continue
		[ -n "${params[$x]:-}" ] && continue
		[ -n "${harnesswords[$x]:-}" ] && continue
		kparams+=("$1	$2	$x")
	done
}

check_sysparam() {	# PAGE LINE WORD
	[[ $3 =~ ^/sys/module/([a-z0-9_]+)/parameters/([a-z0-9_]+) ]] || return 0
	[ -n "${modparams[${BASH_REMATCH[1]}/${BASH_REMATCH[2]}]:-}" ] ||
		problem "$1" "$2" "\`$3\`: ${BASH_REMATCH[1]} has no parameter ${BASH_REMATCH[2]}"
}

check_function() {	# PAGE LINE NAME (a glob for ul_do_*())
	local n=$3 f
	if [[ $n == *\** ]]; then
		for f in "${!defs[@]}"; do
			# shellcheck disable=SC2053
			[[ $f == $n ]] && return
		done
	else
		[ -n "${defs[$n]:-}" ] && return
		[ -n "${libc[$n]:-}" ] && return
	fi
	if [[ $n == ul_* ]]; then
		problem "$1" "$2" "\`$n()\`: not defined in unionfs-lite/ or tests/"
		return
	fi
	kfuncs+=("$1	$2	$n")
}

while IFS=$'\t' read -r kind page line text; do
	check_commands "$page" "$line" "$text"
	read -ra words <<<"$text"
	for w in "${words[@]}"; do
		# the punctuation of the prose around a word
		w=${w##+([\(\"\'\[>])}
		if [[ $w == *'()'* ]]; then
			[[ $kind == S && $w =~ ^([A-Za-z_][A-Za-z0-9_*]*)\(\)[^A-Za-z0-9_]*$ ]] &&
				check_function "$page" "$line" "${BASH_REMATCH[1]}"
			continue
		fi
		w=${w%%+([,.;:\)\"\'\]])}
		[[ $w == *[/.]* ]] && check_path "$page" "$line" "$w"
		[[ $w == /sys/module/* ]] && check_sysparam "$page" "$line" "$w"
		[[ $w == [a-z]*=* ]] && check_param "$page" "$line" "$w"
		[[ $kind == S && $w == [a-z]*-* ]] && check_family "$page" "$line" "$w"
	done
done <"$tmp/records"

# The names only the Linux tree can decide.
kgrep() {	# PCRE over the C sources of the directories that matter
	local dirs=(include fs mm kernel security lib block arch/x86/include) t
	for t in "${kt[@]}"; do
		if git -C "$t" rev-parse --git-dir >/dev/null 2>&1; then
			git -C "$t" grep -h -o -P "$@" -- "${dirs[@]/%//*.[ch]}" 2>/dev/null
			# 1: nothing found; more: no PCRE in this git
			[ $? -le 1 ] && continue
		fi
		(cd "$t" && grep -rhoP --include='*.[ch]' "$@" "${dirs[@]}")
	done
}
if [ $have_kernel = 1 ]; then
	if [ ${#kfuncs[@]} -gt 0 ]; then
		alt=$(printf '%s\n' "${kfuncs[@]}" | cut -f3 | sed 's/\*/[A-Za-z0-9_]*/' |
			sort -u | paste -sd'|')
		declare -A kdefs=()
		while read -r f; do kdefs[$f]=1; done < <(
			kgrep -e "^(?:[A-Za-z_#].*[^A-Za-z0-9_])?(?:sys_)?(?:$alt)\(" \
				-e "SYSCALL_DEFINE[0-6]\((?:$alt)," |
			sed -E 's/^SYSCALL_DEFINE[0-6]\(([A-Za-z0-9_]+),.*/\1/; s/\($//; s/.*[^A-Za-z0-9_]//; s/^sys_//' |
			sort -u)
		for r in "${kfuncs[@]}"; do
			IFS=$'\t' read -r page line n <<<"$r"
			found=0
			if [[ $n == *\** ]]; then
				for f in "${!kdefs[@]}"; do
					# shellcheck disable=SC2053
					[[ $f == $n ]] && { found=1; break; }
				done
			else
				[ -n "${kdefs[$n]:-}" ] && found=1
			fi
			[ $found = 1 ] || problem "$page" "$line" "\`$n()\`: defined nowhere (unionfs-lite/, tests/, kernel-series/, libc, the Linux trees)"
		done
	fi
	if [ ${#kparams[@]} -gt 0 ]; then
		# Linux's own command-line parameters (lpj=, tsc=)
		declare -A kcmdline=()
		while read -r f; do kcmdline[$f]=1; done < <(sed -nE 's/^\t([a-z][a-z0-9_.]*)=.*/\1/p' \
			"${kt[@]/%//Documentation/admin-guide/kernel-parameters.txt}" 2>/dev/null)
		for r in "${kparams[@]}"; do
			IFS=$'\t' read -r page line n <<<"$r"
			[ -n "${kcmdline[$n]:-}" ] ||
				problem "$page" "$line" "\`$n=\`: not a parameter of unionlite or of a test module, nor a word the harness uses, nor a Linux command-line parameter"
		done
	fi
	if [ ${#kpaths[@]} -gt 0 ]; then
		declare -A kbase=()
		printf '%s\n' "${kpaths[@]}" | cut -f3 | grep -v / | sort -u >"$tmp/kwant"
		while read -r f; do kbase[$f]=1; done < <(
			for t in "${kt[@]}"; do
				if git -C "$t" rev-parse --git-dir >/dev/null 2>&1; then
					git -C "$t" ls-files
				else
					(cd "$t" && find . -type f)
				fi
			done | awk -F/ 'NR == FNR { want[$0]; next } $NF in want { print $NF }' \
				"$tmp/kwant" - | sort -u)
		for r in "${kpaths[@]}"; do
			IFS=$'\t' read -r page line p <<<"$r"
			if [[ $p == */* ]]; then
				found=0
				for t in "${kt[@]}"; do
					[ -e "$t/$p" ] || [ -e "$t/$p.c" ] && found=1
				done
				[ $found = 1 ] ||
					problem "$page" "$line" "\`$p\`: not in the repository, the series or the Linux trees"
			else
				[ -n "${kbase[$p]:-}" ] ||
					problem "$page" "$line" "\`$p\`: no such file in the repository, the series or the Linux trees"
			fi
		done
	fi
fi

# Environment variables.
while IFS=: read -r page line w; do
	[[ $w == *\* ]] && w=${w%\*}
	if [[ $w == *_ ]]; then
		printf '%s\n' "${!envused[@]}" | grep -q "^$w" && continue
	else
		[ -n "${envused[$w]:-}" ] && continue
		[ -n "${cnames[$w]:-}" ] && continue
	fi
	problem "$page" "$line" "\`$w\`: no such variable in the Makefile, qemu-boot/, tests/ or .ci/run"
done < <(for i in "${!pages[@]}"; do
	grep -noP '(?<![A-Za-z0-9_])UL_[A-Z0-9_]+\*?' "${abs[$i]}" | sed "s|^|${pages[$i]}:|"
done)

# The reference pages: no commits, no dates, no measured figures.
figure='(^|[^A-Za-z0-9_.,-])[0-9][0-9,]*(\.[0-9]+)?(-[0-9][0-9,]*(\.[0-9]+)?)? ?(ms|µs|us|s|sec|secs|seconds?|min|mins|minutes?|h|hours?|days?|%|[A-Za-z]+/s|B|[kKMGT]i?B|bytes?)([^A-Za-z0-9_]|$)|(^|[^A-Za-z0-9_.])[0-9]+(\.[0-9]+)?x([^A-Za-z0-9_]|$)'
# a duration in words ("a minute", "half an hour", "a few seconds")
duration='(^|[^A-Za-z])((a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|several|half an|a quarter of an|under an?|about an?|within an?) (minutes?|hours?|days?)|(a few|several|two|three|four|five|six|seven|eight|nine|ten) seconds)([^A-Za-z]|$)'
date='(?<![0-9])20[0-9][0-9]-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(?![0-9])'
# figures PAGE: "LINE:FIGURE" for each figure of the page, a figure whose
# unit begins the next line ("about 10\nminutes") included.
figures() {
	awk -v re="$figure" '
	{ line[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			s = line[i]
			n = length(s)
			if (i < NR && split(line[i + 1], w, " ") > 0) s = s " " w[1]
			off = 0
			while (match(s, re)) {
				if (off + RSTART > n) break
				f = substr(s, RSTART, RLENGTH)
				sub(/^[^0-9]/, "", f)
				sub(/[^A-Za-z0-9%\/.]$/, "", f)
				sub(/[^0-9A-Za-z%]+$/, "", f)
				print i ":" f
				off += RSTART + RLENGTH - 2
				s = substr(s, RSTART + RLENGTH - 1)
			}
		}
	}' "$1"
}
is_git=0
git rev-parse --git-dir >/dev/null 2>&1 && is_git=1
for i in "${!pages[@]}"; do
	page=${pages[$i]}
	[ "${page##*/}" = results.md ] && continue
	f=${abs[$i]}
	while IFS=: read -r line d; do
		problem "$page" "$line" "a date ($d): dated facts belong in docs/results.md"
	done < <(grep -noP "$date" "$f")
	while IFS=: read -r line d; do
		d=${d//[^A-Za-z ]/}; d=${d# }; problem "$page" "$line" "a duration in words (${d% }): figures belong in docs/results.md"
	done < <(awk -v re="$duration" '
		{ line[NR] = tolower($0) }
		END {
			for (i = 1; i <= NR; i++) {
				split(line[i + 1], w, " ")
				s = line[i] " " w[1] " " w[2] " " w[3]
				n = length(line[i])
				off = 0
				while (match(s, re) && off + RSTART <= n) {
					print i ":" substr(s, RSTART, RLENGTH)
					off += RSTART + RLENGTH - 2
					s = substr(s, RSTART + RLENGTH - 1)
				}
			}
		}' "$f")
	mapfile -t text <"$f"
	while IFS=: read -r line fig; do
		ok=0
		for a in "${ALLOWED_FIGURES[@]}"; do
			[[ "${text[line - 1]} ${text[line]:-}" == *"$a"* && $a == *"$fig"* ]] &&
				{ ok=1; break; }
		done
		[ $ok = 1 ] ||
			problem "$page" "$line" "a measured figure ($fig): figures belong in docs/results.md"
	done < <(figures "$f")
	[ $is_git = 1 ] || continue
	grep -noP '(?<![A-Za-z0-9_])[0-9a-f]{7,40}(?![A-Za-z0-9_])' "$f" >"$tmp/hex"
	[ -s "$tmp/hex" ] || continue
	cut -d: -f2 "$tmp/hex" | sed 's/$/^{commit}/' | git cat-file --batch-check >"$tmp/hexok"
	while IFS=: read -r line h && read -r res <&3; do
		[[ $res == *" commit "* ]] &&
			problem "$page" "$line" "commit $h of this repository: commits belong in docs/results.md"
	done <"$tmp/hex" 3<"$tmp/hexok"
done

# Sentences of more than 40 words (README.md and the reference pages).
for i in "${!pages[@]}"; do
	[ "${pages[$i]##*/}" = results.md ] && continue
	page=${pages[$i]}
	while IFS=: read -r line k; do
		problem "$page" "$line" "a sentence of $k words: split it (40 at most)"
	done < <(awk '
	function flush(   m, j, k, ss, w) {
		m = split(buf, ss, /[.!?]["\x27)]*( |$)/)
		for (j = 1; j <= m; j++) {
			k = split(ss[j], w, " ")
			if (k > 40) print start ":" k
		}
		buf = ""; start = 0
	}
	/^ *(```|~~~)/ { if (buf != "") flush(); fence = !fence; next }
	fence { next }
	/^(    |\t)/ { if (buf != "") flush(); next }
	/^\|/ {
		if (buf != "") flush()
		n = split($0, c, "|")
		for (i = 2; i < n; i++) { buf = c[i]; start = NR; flush() }
		next
	}
	/^[ \t]*$/ || /^#/ { if (buf != "") flush(); next }
	/^[ \t]*([-*]|[0-9]+\.) / { if (buf != "") flush() }
	{ buf = buf " " $0; if (!start) start = NR }
	END { if (buf != "") flush() }' "${abs[$i]}")
done

# ------------------------------------------------------------ the report
n=0
if [ ${#problems[@]} -gt 0 ]; then
	printf '%s\n' "${problems[@]}" | sort -t: -k1,1 -k2,2n -s | awk '!seen[$0]++' >"$tmp/problems"
	cat "$tmp/problems"
	n=$(wc -l <"$tmp/problems")
fi
if [ $have_kernel = 0 ] && [ $((${#kfuncs[@]} + ${#kpaths[@]} + ${#kparams[@]})) -gt 0 ]; then
	{ printf '%s\n' "${kfuncs[@]}" | cut -f3 | sed 's/$/()/'
	  printf '%s\n' "${kpaths[@]}" | cut -f3
	  printf '%s\n' "${kparams[@]}" | cut -f3 | sed 's/$/=/'; } |
		grep -v '^()$\|^=$\|^$' | sort -u >"$tmp/unchecked"
	echo "check-docs: no Linux tree (build/*/linux), $(wc -l <"$tmp/unchecked") kernel names not checked: $(paste -sd' ' "$tmp/unchecked")"
fi
[ $libc_ok = 1 ] || echo "check-docs: no C library headers: system calls and libc functions checked against Linux only"
echo "check-docs: $n problems"
[ "$n" = 0 ]
