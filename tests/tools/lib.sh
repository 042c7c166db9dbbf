# lib.sh - helpers for the tools tests (sourced).  Each test script is run
# by meson with the tool's path as its first argument and exits 0 (pass),
# 1 (fail) or 77 (skip).
#
# Any sanitizer report of any program the script starts fails the test,
# whatever that program's exit status was (a refusal expected to exit 1
# can hide an ASan report that also exits 1): the sanitizers write their
# reports under $TMP/sanitizer (log_path), and finish() looks there and in
# every captured stderr.

set -u
failures=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-tools-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/sanitizer"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$TMP/sanitizer/asan"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$TMP/sanitizer/ubsan"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}log_path=$TMP/sanitizer/lsan"
# What a sanitizer report looks like on stderr, where log_path was overridden.
SANITIZER_REPORT='ERROR: (Address|Leak|Memory|Thread)Sanitizer|runtime error:|SUMMARY: [A-Za-z]+Sanitizer'

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# run NAME EXPECTED_RC CMD... : runs CMD, output in $TMP/NAME.out / .err, checks the exit status
run() {
	local name=$1 want=$2
	shift 2
	"$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	local rc=$?
	if [ "$rc" != "$want" ]; then
		fail "$name: exit status $rc, expected $want ($*)"
		sed 's/^/    stdout: /' "$TMP/$name.out" | head -20 >&2
		sed 's/^/    stderr: /' "$TMP/$name.err" | head -20 >&2
	fi
}

# has NAME STREAM REGEX : the run's stdout or stderr has a line matching REGEX
has() {
	if ! grep -Eq -- "$3" "$TMP/$1.$2"; then
		fail "$1: no line matching /$3/ in $2"
		sed "s/^/    $2: /" "$TMP/$1.$2" | head -40 >&2
	fi
}

# hasnt NAME STREAM REGEX
hasnt() {
	if grep -Eq -- "$3" "$TMP/$1.$2"; then
		fail "$1: unexpected line matching /$3/ in $2:"
		grep -E -- "$3" "$TMP/$1.$2" | head -5 | sed 's/^/    /' >&2
	fi
}

# block NAME HEADER : the lines of stdout from "HEADER" to the next blank line
block() {
	awk -v h="$2" '$0 == h {on = 1} on && $0 == "" {exit} on {print}' "$TMP/$1.out"
}

# kv TEXT KEY VALUE : TEXT has the line "<tabs>KEY<spaces>VALUE"
kv() {
	if ! printf '%s\n' "$1" | grep -Eq "^[[:space:]]+$2[[:space:]]+$3\$"; then
		fail "key '$2' is not '$3' in:"
		printf '%s\n' "$1" | sed 's/^/    /' | head -60 >&2
	fi
}

# check_sanitizers: fail for every sanitizer report written so far.
check_sanitizers() {
	local f
	for f in "$TMP"/sanitizer/*; do
		[ -s "$f" ] || continue
		fail "a sanitizer report ($(basename "$f")):"
		head -40 "$f" | sed 's/^/    /' >&2
		rm -f "$f"
	done
	for f in "$TMP"/*.err; do
		[ -f "$f" ] && grep -Eq -- "$SANITIZER_REPORT" "$f" || continue
		fail "a sanitizer report in $(basename "$f"):"
		grep -E -A20 -- "$SANITIZER_REPORT" "$f" | head -40 | sed 's/^/    /' >&2
		: >"$f"
	done
}

finish() {
	check_sanitizers
	if [ "$failures" -ne 0 ]; then
		echo "$failures check(s) failed" >&2
		exit 1
	fi
	exit 0
}
