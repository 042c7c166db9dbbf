#!/usr/bin/env bash
# tests/abi/check_symbols.sh BUILD_DIR - check what the shared libraries
# export against the API inventory (tests/abi/api-inventory.txt).
#
# Per library:
#  1. every dynamic symbol it defines is a DOCA function (doca_*) or an
#     internal cross-library entry point (priv_doca_*): nothing else leaks
#     out of -fvisibility=hidden;
#  2. the doca_* functions it exports are exactly the inventory's rows for
#     it: none missing, none unlisted.
# For the inventory as a whole:
#  3. every row names a known release, none newer than the API level of the
#     VERSION file, and no function is listed twice;
#  4. every listed function is declared in a public header (include/).
#
# Prints one "PASS name" or "FAIL name" line per check (tests/run.sh counts
# them) and exits 1 if any check failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
inventory=${ABI_INVENTORY:-$here/api-inventory.txt} # the self-test passes altered copies
failures=0

pass() { echo "PASS $1"; }
fail() {
	echo "FAIL $1"
	failures=$((failures + 1))
}

# The linker may define these bookkeeping symbols in any shared object.
linker_symbols='^(_init|_fini|_edata|_end|__bss_start)$'

# A coverage build (b_coverage, tests/run.sh coverage) links libgcov's
# runtime into each library, and it exports its own state (__gcov_*,
# mangle_path): those belong to the build, not to the API.
is_coverage_build() {
	python3 - "$build/meson-info/intro-buildoptions.json" 2>/dev/null <<'PY'
import json, sys
opts = {o["name"]: o["value"] for o in json.load(open(sys.argv[1]))}
sys.exit(0 if opts.get("b_coverage") is True else 1)
PY
}
if is_coverage_build; then
	linker_symbols='^(_init|_fini|_edata|_end|__bss_start|__gcov_[A-Za-z0-9_]+|mangle_path)$'
fi

# The inventory without comments: "library function since" per line.
rows() { grep -Ev '^[[:space:]]*(#|$)' "$inventory"; }

# defined_symbols LIB: "name type" for every dynamic symbol LIB defines.
defined_symbols() {
	nm -D --defined-only -P "$1" | awk '{ sub(/@.*/, "", $1); print $1, $2 }'
}

check_library() {
	local lib=$1 file defined stray want have missing unlisted
	file=$(find "$build" -name "$lib.so" \( -type f -o -type l \) -not -path '*/meson-private/*' | head -n1)
	if [ -z "$file" ] || [ ! -e "$file" ]; then
		fail "abi: $lib.so exists in $build"
		fail "abi: $lib exports exactly its inventory functions"
		return
	fi
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
	want=$(rows | awk -v lib="$lib" '$1 == lib { print $2 }' | LC_ALL=C sort -u)
	have=$(echo "$defined" | awk '$2 ~ /^[TiW]$/ && $1 ~ /^doca_/ { print $1 }' | LC_ALL=C sort -u)
	missing=$(comm -23 <(echo "$want") <(echo "$have") | grep -v '^$' || true)
	unlisted=$(comm -13 <(echo "$want") <(echo "$have") | grep -v '^$' || true)
	if [ -z "$missing" ] && [ -z "$unlisted" ]; then
		pass "abi: $lib exports exactly its $(echo "$want" | grep -c .) inventory functions"
	else
		fail "abi: $lib exports exactly its inventory functions"
		[ -n "$missing" ] && echo "$missing" | sed 's/^/    listed but not exported: /'
		[ -n "$unlisted" ] && echo "$unlisted" | sed 's/^/    exported but not in tests\/abi\/api-inventory.txt: /'
	fi
}

# Releases a row may name, oldest first.
releases=('<=3.0' 3.1 3.2 3.3)

check_releases() {
	local level bad dup newer
	level=$(cut -d. -f1,2 "$root/VERSION")
	bad=$(rows | awk 'NF != 3 || $3 !~ /^(<=3\.0|3\.[123])$/' || true)
	dup=$(rows | awk '{ print $2 }' | LC_ALL=C sort | uniq -d)
	newer=$(rows | awk -v level="$level" '$3 != "<=3.0" && ($3 + 0) > (level + 0) { print $2 " (" $3 ")" }')
	if [ -z "$bad" ] && [ -z "$dup" ] && [ -z "$newer" ]; then
		local counts="" r
		for r in "${releases[@]}"; do
			counts+=" $r: $(rows | awk -v r="$r" '$3 == r' | wc -l),"
		done
		pass "abi: inventory rows name known releases up to the VERSION level $level (${counts%,} )"
	else
		fail "abi: inventory rows name known releases up to the VERSION level $level"
		[ -n "$bad" ] && echo "$bad" | sed 's/^/    malformed row: /'
		[ -n "$dup" ] && echo "$dup" | sed 's/^/    listed twice: /'
		[ -n "$newer" ] && echo "$newer" | sed "s/^/    newer than $level: /"
	fi
}

check_declared() {
	local undeclared
	undeclared=$(comm -23 <(rows | awk '{ print $2 }' | LC_ALL=C sort -u) \
		<(grep -ohE '\bdoca_[A-Za-z0-9_]+\(' "$root"/include/doca_*.h | tr -d '(' | LC_ALL=C sort -u))
	if [ -z "$undeclared" ]; then
		pass "abi: every inventory function is declared in include/"
	else
		fail "abi: every inventory function is declared in include/"
		echo "$undeclared" | sed 's/^/    not declared: /'
	fi
}

check_library libdoca_common
check_library libdoca_dma
check_library libdoca_rdma
check_library libdoca_argp
check_library libdoca_comch
check_releases
check_declared

[ "$failures" -eq 0 ]
