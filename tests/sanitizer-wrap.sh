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
# LeakSanitizer (Debian's clang 14 here) writes "Unable to get registers
# from thread N." when its tracer cannot read a thread it stopped for the
# leak check at exit (the thread was leaving, or a signal came between).
# It then scans that thread's whole stack, or skips the thread, and goes on:
# a leak is still reported in full beside the line.  Upstream LLVM prints it
# only when verbose since pull request 116555, as a known spurious message.
# Likewise "Running thread N was not suspended. False leaks are possible."
# in a forked child of a process that had other threads (the DMA workers):
# the sanitizer's thread registry is copied by fork, so the child's leak
# check looks for the parent's threads, which do not exist there.  A leak
# it then reports is reported in full, and fails the test.
# A report holding nothing else is not a finding: shown, not failed.
lsan_noise='^==[0-9]+==(Unable to get registers from thread [0-9]+\.|Running thread [0-9]+ was not suspended\. False leaks are possible\.)$'
found=0
for f in "$dir"/report*; do
	[ -s "$f" ] || continue
	if ! grep -Evq "$lsan_noise" "$f"; then
		echo "LeakSanitizer could not read or stop a thread at exit in process ${f##*.} (not a finding):" >&2
		cat "$f" >&2
		continue
	fi
	found=1
	echo "sanitizer report of process ${f##*.} (tests/sanitizer-wrap.sh):" >&2
	cat "$f" >&2
done
if [ "$found" = 1 ]; then
	echo "FAIL: a process of this test wrote a sanitizer report (exit status was $rc)" >&2
	exit 1
fi
exit "$rc"
