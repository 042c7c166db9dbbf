#!/usr/bin/env bash
# tests/abi/check_symbols_catches.sh BUILD_DIR - the ABI check fails when
# the inventory and the libraries disagree.  Runs check_symbols.sh on the
# real inventory (every check passes) and on altered copies: a row
# removed, an unexported row added, a release newer than VERSION, an
# unknown release, a duplicate row, and a row for a function no header
# declares; each must produce the matching FAIL line.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=$1
inv=$here/api-inventory.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# expect NAME PATTERN INVENTORY_FILE: check_symbols.sh prints a FAIL line matching PATTERN.
expect() {
	local out
	out=$(ABI_INVENTORY=$3 bash "$here/check_symbols.sh" "$build" 2>&1)
	if echo "$out" | grep -q "^FAIL .*$2" ; then
		echo "ok   $1"
	else
		echo "FAIL $1: no FAIL line matching '$2'"
		echo "$out" | sed 's/^/    /'
		failed=1
	fi
}

if out=$(bash "$here/check_symbols.sh" "$build" 2>&1); then
	echo "ok   the real inventory passes"
else
	echo "FAIL the real inventory passes"
	echo "$out" | sed 's/^/    /'
	failed=1
fi

grep -v ' doca_dma_set_ordered_completions ' "$inv" >"$tmp/missing"
expect "an exported function missing from the table" "libdoca_dma exports exactly" "$tmp/missing"

{ cat "$inv"; echo "libdoca_dma     doca_dma_no_such_function   3.2"; } >"$tmp/extra"
expect "a listed function that is not exported" "libdoca_dma exports exactly" "$tmp/extra"

sed 's/^\(libdoca_common *doca_mmap_get_mkey *\)3\.2$/\13.3/; s/^\(libdoca_common *doca_devinfo_get_sf_index *\)3\.1$/\13.9/' "$inv" >"$tmp/unknown"
expect "an unknown release" "inventory rows name known releases" "$tmp/unknown"

{ cat "$inv"; grep ' doca_mmap_get_mkey ' "$inv"; } >"$tmp/dup"
expect "a function listed twice" "inventory rows name known releases" "$tmp/dup"

{ grep -v ' doca_dma_set_ordered_completions ' "$inv"; echo "libdoca_dma     doca_dma_set_ordered_completions  9.9"; } >"$tmp/newer"
expect "a release above VERSION" "inventory rows name known releases" "$tmp/newer"

{ cat "$inv"; echo "libdoca_comch   doca_comch_undeclared_thing   3.3"; } >"$tmp/undeclared"
expect "a function no header declares" "declared in include/" "$tmp/undeclared"

exit $failed
