#!/usr/bin/env bash
# tools/mutation-campaign.sh - do the tests fail when the code breaks?
#
#   tools/mutation-campaign.sh [--full] [--work DIR] [--list] [ID...]
#
# Applies the deliberate one-line breaks of tools/mutations.txt (a rule that
# refuses bad input, a permission, a token or identity check, a bound, a
# state transition, an error code or text) one at a time to a scratch copy
# of this checkout (never to the checkout itself), rebuilds the copy and
# runs tests against it.  A break is caught when a test fails (or the copy
# does not build: then it is reported apart, as a break to rewrite).
#
#   default   each break's own selection of suites (the TESTS field),
#             stopping at the first failing test (meson --maxfail 1)
#   --full    the whole meson run on both engines instead: every suite on
#             the default setup, then the engine suites on `workers`
#             (what tests/run.sh's gcc step runs; much longer)
#   --work D  scratch folder (default: a fresh one under $TMPDIR, removed
#             at the end); an existing D is reused, its build kept
#   --list    print the breaks and exit
#   ID...     only these breaks
#
# Ends with "N breaks, N caught, N survived" and the survivors by name;
# exits 1 when a break survived or did not build, 2 when the unbroken copy
# already fails its tests (nothing could be judged).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
list_file=$root/tools/mutations.txt
full=0
work=""
only=()
list_only=0
while [ $# -gt 0 ]; do
	case $1 in
	--full) full=1 ;;
	--work) work=$2; shift ;;
	--list) list_only=1 ;;
	-h | --help) sed -n '2,25p' "$0"; exit 0 ;;
	-*) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
	*) only+=("$1") ;;
	esac
	shift
done

# The engine suites tests/run.sh also runs on the `workers` setup.
engine_suites=(--suite dma --suite xproc --suite flows --suite dmatest --suite examples)

# rows: "ID<TAB>FILE<TAB>OLD<TAB>NEW<TAB>TESTS" of the selected breaks, comments dropped.
rows() {
	local id
	grep -Ev '^[[:space:]]*(#|$)' "$list_file" | sed 's/\t# .*$//' | while IFS= read -r line; do
		id=${line%%$'\t'*}
		if [ ${#only[@]} -eq 0 ] || printf '%s\n' "${only[@]}" | grep -qxF "$id"; then
			printf '%s\n' "$line"
		fi
	done
}

if [ "$list_only" = 1 ]; then
	grep -Ev '^[[:space:]]*(#|$)' "$list_file" | awk -F'\t' '{ sub(/^# /, "", $6); printf "%-30s %-40s %s\n", $1, $2, $6 }'
	exit 0
fi

# apply_break TREE FILE OLD NEW - replace the one occurrence of OLD (\n, \t, \\ escapes).
apply_break() {
	python3 - "$@" <<'PY'
import sys
def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append({"n": "\n", "t": "\t", "\\": "\\"}.get(s[i + 1], s[i:i + 2]))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)
tree, name, old, new = sys.argv[1], sys.argv[2], unescape(sys.argv[3]), unescape(sys.argv[4])
path = tree + "/" + name
text = open(path).read()
if text.count(old) != 1:
    sys.exit("%s: the text to break occurs %d times (must be once): the list is stale" % (name, text.count(old)))
open(path, "w").write(text.replace(old, new))
PY
}

# run_selection BUILD TESTS... - meson test over suites (suite:X) and names; 0 when all passed.
run_selection() {
	local build=$1 t suites=() names=() rc=0
	shift
	for t in "$@"; do
		case $t in
		suite:*) suites+=(--suite "${t#suite:}") ;;
		*) names+=("$t") ;;
		esac
	done
	if [ ${#suites[@]} -gt 0 ]; then
		meson test -C "$build" --no-rebuild --maxfail 1 "${suites[@]}" >"$build/campaign-test.log" 2>&1 || rc=1
	fi
	if [ "$rc" = 0 ] && [ ${#names[@]} -gt 0 ]; then
		meson test -C "$build" --no-rebuild --maxfail 1 "${names[@]}" >"$build/campaign-test.log" 2>&1 || rc=1
	fi
	return "$rc"
}

# run_full BUILD - every suite, then the engine suites on `workers`; 0 when all passed.
run_full() {
	meson test -C "$1" --no-rebuild >"$1/campaign-test.log" 2>&1 &&
		meson test -C "$1" --no-rebuild --setup workers "${engine_suites[@]}" >>"$1/campaign-test.log" 2>&1
}

# judge BUILD TESTS... - run the tests the mode asks for.
judge() {
	local build=$1
	shift
	if [ "$full" = 1 ]; then run_full "$build"; else run_selection "$build" "$@"; fi
}

# The first failing test of the last run, for the report.
first_failure() {
	grep -E '^ *[0-9]+/[0-9]+ .* (FAIL|TIMEOUT|ERROR)' "$1/campaign-test.log" | head -n1 |
		sed -E 's/^ *[0-9]+\/[0-9]+ +//; s/ +(FAIL|TIMEOUT|ERROR).*/ \1/'
}

main() {
	local keep=1 tree build id file old new tests line n=0 caught=0 survived=() unbuildable=() start=$SECONDS
	mapfile -t selected < <(rows)
	[ ${#selected[@]} -gt 0 ] || { echo "no break selected (see --list)" >&2; exit 2; }
	if [ -z "$work" ]; then
		work=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-mutation.XXXXXX")
		keep=0
	fi
	tree=$work/tree
	build=$work/build
	echo "scratch copy: $tree; build: $build; mode: $([ "$full" = 1 ] && echo 'full run, both engines' || echo 'selected suites')"
	mkdir -p "$tree"
	# The checkout as it is (tracked and new files), never its build folders.
	(cd "$root" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -xf - -C "$tree"
	if [ ! -f "$build/build.ninja" ]; then
		meson setup "$build" "$tree" >"$work/setup.log" 2>&1 || { tail -20 "$work/setup.log"; exit 2; }
	fi
	ninja -C "$build" >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 2; }

	# An unbroken copy must pass what the breaks are judged by (a second
	# try, so that one flaky test on a loaded machine does not void the run;
	# the flake is named).
	local all_tests=()
	for line in "${selected[@]}"; do
		IFS=$'\t' read -r id file old new tests <<<"$line"
		for t in $tests; do all_tests+=("$t"); done
	done
	mapfile -t all_tests < <(printf '%s\n' "${all_tests[@]}" | sort -u)
	if ! judge "$build" "${all_tests[@]}" && { echo "unbroken copy: $(first_failure "$build"); trying again"; ! judge "$build" "${all_tests[@]}"; }; then
		echo "the unbroken copy fails its tests ($(first_failure "$build")): nothing can be judged" >&2
		tail -30 "$build/campaign-test.log" >&2
		exit 2
	fi

	for line in "${selected[@]}"; do
		IFS=$'\t' read -r id file old new tests <<<"$line"
		n=$((n + 1))
		cp "$tree/$file" "$work/original"
		if ! apply_break "$tree" "$file" "$old" "$new"; then
			unbuildable+=("$id (stale)")
			echo "[$n/${#selected[@]}] $id: STALE (the text to break is not in $file)"
			continue
		fi
		if ! ninja -C "$build" >"$work/build.log" 2>&1; then
			unbuildable+=("$id")
			echo "[$n/${#selected[@]}] $id: DOES NOT BUILD"
		elif judge "$build" $tests; then
			survived+=("$id")
			echo "[$n/${#selected[@]}] $id: SURVIVED"
		else
			caught=$((caught + 1))
			echo "[$n/${#selected[@]}] $id: caught by $(first_failure "$build")"
		fi
		cp "$work/original" "$tree/$file" # a new mtime: the next build recompiles it
	done
	ninja -C "$build" >"$work/build.log" 2>&1
	[ "$keep" = 1 ] || rm -rf "$work"

	echo
	echo "${#selected[@]} breaks, $caught caught, ${#survived[@]} survived$([ ${#unbuildable[@]} -gt 0 ] && echo ", ${#unbuildable[@]} not built") ($((SECONDS - start)) s)"
	[ ${#survived[@]} -eq 0 ] || printf 'survived: %s\n' "${survived[@]}"
	[ ${#unbuildable[@]} -eq 0 ] || printf 'not built: %s\n' "${unbuildable[@]}"
	[ ${#survived[@]} -eq 0 ] && [ ${#unbuildable[@]} -eq 0 ]
}

main
