#!/usr/bin/env bash
# tests/docs/run_doxygen_check.sh SOURCE_ROOT PENDING_LIST
#
# Runs doxygen over the public headers with apidoc/Doxyfile.in and fails on
# any warning: an undocumented function, type, enumerator, field or macro,
# or a broken doxygen command.  Headers of PENDING_LIST (still being
# documented) are left out; every other header of include/ is read, so a
# header added later is checked as soon as it lands.  Skipped (77) only
# where doxygen is not installed.
set -u
root=$1 pending=$2
if ! command -v doxygen >/dev/null; then
	echo "doxygen is not installed (Debian: apt-get install doxygen): the reference cannot be checked here"
	exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
input=""
for h in "$root"/include/*.h; do
	grep -qx "$(basename "$h")" <(sed 's/#.*//; s/[[:space:]]//g' "$pending") && continue
	input="$input \"$h\""
done
sed -e "s|@VERSION@|check|" -e "s|@OUTPUT@|$out|" -e "s|@INPUT@|$input|" \
	-e "s|@WARN_AS_ERROR@|FAIL_ON_WARNINGS|" -e "s|@GENERATE_HTML@|YES|" \
	"$root/apidoc/Doxyfile.in" >"$out/Doxyfile"
(cd "$out" && doxygen Doxyfile) >"$out/log" 2>&1
rc=$?
warnings=$(grep -c -E '(warning|error):' "$out/log")
if [ $rc -ne 0 ] || [ "$warnings" -ne 0 ]; then
	sed "s|$root/||" "$out/log" | head -60
	echo "doxygen: $warnings warning(s), exit status $rc: document what it names (apidoc/Doxyfile.in)"
	exit 1
fi
echo "doxygen: $(echo "$input" | wc -w) header(s), no warning"
