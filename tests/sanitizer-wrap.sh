#!/usr/bin/env bash
# tests/sanitizer-wrap.sh CMD... - run one test (meson test --wrapper) so
# that a sanitizer report from ANY process it starts fails it.
#
# A test program exits non-zero on its own report, but a report of a child
# it forked, or of a program a script expected to fail anyway (exit 1 for a
# refusal), would otherwise pass unseen.  The reports go to a folder of this
# run (log_path, appended so a test that sets its own folder keeps it and
# judges its reports itself); any report there fails the test, printed.
set -u
dir=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-sanitizer.XXXXXX")
trap 'rm -rf "$dir"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$dir/report"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$dir/report"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}log_path=$dir/report"
"$@"
rc=$?
found=0
for f in "$dir"/report*; do
	[ -s "$f" ] || continue
	found=1
	echo "sanitizer report of process ${f##*.} (tests/sanitizer-wrap.sh):" >&2
	cat "$f" >&2
done
if [ "$found" = 1 ]; then
	echo "FAIL: a process of this test wrote a sanitizer report (exit status was $rc)" >&2
	exit 1
fi
exit "$rc"
