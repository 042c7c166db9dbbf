#!/bin/sh
# Run the descriptor-import fuzz target for a bounded time (CI friendly).
#
#   fuzz/run_fuzz.sh [SECONDS] [BUILD_DIR]
#
# Configures BUILD_DIR (default build-fuzz) with clang when needed, builds
# fuzz_import and runs it for SECONDS (default 30) on a scratch corpus
# seeded with a few descriptors.  Exits non-zero when the fuzzer finds a
# crash, a leak or undefined behaviour; exits 77 (skip) when clang or its
# libFuzzer runtime (Debian: libclang-rt-14-dev) is missing.
set -eu
secs=${1:-30}
here=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-"$here/build-fuzz"}

if ! command -v clang >/dev/null 2>&1; then
	echo "SKIP: clang is not installed"
	exit 77
fi
if [ ! -f "$build/build.ninja" ]; then
	CC=clang meson setup "$build" "$here" -Dbench=false >/dev/null
fi
ninja -C "$build" fuzz/fuzz_import >/dev/null 2>&1 || true
if [ ! -x "$build/fuzz/fuzz_import" ]; then
	echo "SKIP: clang cannot build libFuzzer targets here (install libclang-rt-14-dev)"
	exit 77
fi

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
# Seeds: one input of each mode (raw, checksum-fixed, edits of live descriptors).
printf '\000SDXP' >"$corpus/raw"
printf '\001SDXP\001\000\260\000\001' >"$corpus/fixed"
printf '\002' >"$corpus/own"                    # this process's descriptor, untouched
printf '\003' >"$corpus/peer"                   # the child's descriptor, untouched
printf '\003\130\001' >"$corpus/peer-token"      # one token byte changed

cd "$corpus"
"$build/fuzz/fuzz_import" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 "$corpus" 2>&1 | tee fuzz.log | grep -E '^(#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)' || true
status=$(grep -c -E '==[0-9]+==ERROR|SUMMARY: (Address|Undefined|Leak)Sanitizer|deadly signal' fuzz.log || true)
if [ "$status" != "0" ]; then
	echo "fuzz_import found a problem; see the log above" >&2
	tail -40 fuzz.log >&2
	exit 1
fi
echo "fuzz_import: no crash in ${secs}s"
