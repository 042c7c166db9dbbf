#!/usr/bin/env bash
# tests/abi/check_symbols.sh BUILD_DIR - check what the shared libraries
# export.
#
#  1. Every dynamic symbol that each softdoca library defines
#     is a DOCA function (doca_*) or an internal cross-library entry point
#     (priv_doca_*): nothing else leaks out of -fvisibility=hidden.
#  2. Every function of the API inventory (tests/abi/expected_symbols.txt)
#     is exported, as a function, by the library that owns it.
#  3. When API_INVENTORY names the API inventory the list was generated
#     from (a maintainer's input, not part of the repository), the
#     committed list still matches it.
#
# Prints one "PASS name" or "FAIL name" line per check (tests/run.sh counts
# them) and exits 1 if any check failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
expected=$here/expected_symbols.txt
failures=0

pass() { echo "PASS $1"; }
fail() {
	echo "FAIL $1"
	failures=$((failures + 1))
}

# The linker may define these bookkeeping symbols in any shared object.
linker_symbols='^(_init|_fini|_edata|_end|__bss_start)$'

# defined_symbols LIB: "name type" for every dynamic symbol LIB defines.
defined_symbols() {
	nm -D --defined-only -P "$1" | awk '{ sub(/@.*/, "", $1); print $1, $2 }'
}

check_library() {
	local lib=$1 file
	file=$(find "$build" -name "$lib.so" \( -type f -o -type l \) -not -path '*/meson-private/*' | head -n1)
	if [ -z "$file" ] || [ ! -e "$file" ]; then
		fail "abi: $lib.so exists in $build"
		fail "abi: $lib exports every inventory function"
		return
	fi

	local defined stray missing want
	defined=$(defined_symbols "$file")

	stray=$(echo "$defined" | awk '{ print $1 }' | grep -Ev "$linker_symbols" |
		grep -Ev '^(doca_|priv_doca_)' || true)
	if [ -z "$stray" ]; then
		pass "abi: $lib exports only doca_* and priv_doca_* symbols"
	else
		fail "abi: $lib exports only doca_* and priv_doca_* symbols"
		echo "$stray" | sed 's/^/    unexpected export: /'
	fi

	# Functions are T (text) or i (ifunc); W would be a weak definition.
	want=$(awk -v lib="$lib" '$1 == lib { print $2 }' "$expected")
	missing=$(comm -23 <(echo "$want" | LC_ALL=C sort -u) \
		<(echo "$defined" | awk '$2 ~ /^[TiW]$/ { print $1 }' | LC_ALL=C sort -u))
	if [ -z "$missing" ]; then
		pass "abi: $lib exports every inventory function ($(echo "$want" | wc -l))"
	else
		fail "abi: $lib exports every inventory function ($(echo "$missing" | wc -l) of $(echo "$want" | wc -l) missing)"
		echo "$missing" | sed 's/^/    missing: /'
	fi
}

check_library libdoca_common
check_library libdoca_dma
check_library libdoca_argp
check_library libdoca_comch

spec=${API_INVENTORY:-}
if [ -n "$spec" ] && [ -r "$spec" ]; then
	if diff -u "$expected" <("$root/tools/gen-expected-symbols.sh" "$spec") >/dev/null; then
		pass "abi: expected_symbols.txt matches the spec's API inventory"
	else
		fail "abi: expected_symbols.txt matches the spec's API inventory (rerun tools/gen-expected-symbols.sh)"
	fi
fi

[ "$failures" -eq 0 ]
