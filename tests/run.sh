#!/usr/bin/env bash
# tests/run.sh - softdoca's whole test run; the one test command of the README.
#
# Works on a fresh Debian 12 machine: missing Debian packages are installed
# first (tools/ensure-packages.sh).  Steps, each selectable by name
# (`tests/run.sh gcc abi`; default: all of them, in this order):
#
#   gcc       build with gcc into build/, run every meson test suite
#   release   gcc release build (-O3, the one the benchmarks use) into
#             build-rel/, tests left out: it must compile without a warning
#   asan      build with clang + AddressSanitizer/UBSan into build-asan/ and
#             run every suite there; any sanitizer report, of the test or of
#             any process it starts, fails the test (tests/sanitizer-wrap.sh)
#   valgrind  the dmatest stress program under valgrind (reduced task count)
#   install   install into a temporary prefix, build an external program in
#             both flavours, run the installed tools and an installed
#             example with an empty environment, check the installed docs
#             and the docs/ci.md Dockerfile (tests/install/run_install_test.sh)
#   packages  build the Debian packages (debian/), refuse to install them
#             over a fake NVIDIA DOCA, install them, build and run examples/
#             with DOCA's documented PKG_CONFIG_PATH, run the tools from
#             /opt/mellanox/doca/tools, purge them and check nothing is left
#             (tests/install/run_package_test.sh; root only, else skipped)
#   abi       exported-symbol check of the libraries (tests/abi/check_symbols.sh)
#   bench     dma_bench --quick as a functional smoke run (no timing checks)
#   fuzz      every libFuzzer target (peers' bytes, users' files, programs
#             of public calls) for 25 s each, in the clang build of the asan
#             step (fuzz/run_fuzz.sh; FUZZ_SECONDS changes the time)
#   samples   the official DOCA samples, built unmodified and run through
#             tools/run-samples.sh (with valgrind; dma_local_copy also on
#             the GPU device through the stand-in CUDA driver of the gcc
#             build, when that build exists), for every tree of
#             $DOCA_SAMPLES_ROOTS (colon-separated; each a folder or a git
#             REPO@REF, e.g. doca-samples@3.1.0), else $DOCA_SAMPLES_ROOT,
#             else /opt/mellanox/doca; skipped (never passed) when there
#             is none; then the host/DPU
#             pairs again with the two sides in two network namespaces (root)
#   coverage  gcc build with --coverage into build-cov/, every suite run
#             there (and the engine suites on `workers`), then
#             tests/coverage/report.py: line and branch coverage of src/
#             per folder against the floors of tests/coverage/floor.txt,
#             every exported DOCA function entered at least once, and the
#             abi check of that build (gcov's own exports allowed there)
#
# Every meson test and every extra check counts once.  Beyond the tests'
# own verdicts, a failure is also counted when `meson test` exits non-zero
# with no failed test to show for it, when a test that `meson test --list`
# registers has no result in the log (meson died part way), and when a
# step's script exits non-zero without printing a FAIL line.  Suites are
# never named here: whatever a meson.build registers runs and is counted.  The last line is
# exactly "N passed, N failed" (", N skipped" appended when something was
# skipped; skipped checks never count as passed).  Exit status 1 when
# anything failed.
set -uo pipefail
shopt -s lastpipe # `cmd | record_lines` counts in this shell, not a subshell

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1

mapfile -t packages < <(grep -Ev '^(#|$)' "$root/tools/test-packages.txt")
jobs=$(nproc 2>/dev/null || echo 2)
all_steps=(gcc release asan valgrind install packages abi bench fuzz samples coverage)
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=("${all_steps[@]}")

passed=0
failed=0
skipped=0
failed_names=()
gcc_build_state=none # none, done (something built), broken (not configured)

banner() { printf '\n==== %s\n' "$*"; }

# record RESULT NAME - count one test or check.
record() {
	case "$1" in
	PASS) passed=$((passed + 1)) ;;
	SKIP) skipped=$((skipped + 1)) ;;
	*)
		failed=$((failed + 1))
		failed_names+=("$2")
		;;
	esac
}

# record_lines PREFIX - count the "PASS name" / "FAIL name" / "SKIP name"
# lines that a check script printed on stdin (and echo everything).
record_lines() {
	local line
	while IFS= read -r line; do
		case "$line" in
		"PASS "* | "FAIL "* | "SKIP "*)
			record "${line%% *}" "$1${line#* }"
			echo "${line%% *} $1${line#* }"
			;;
		*) echo "$line" ;;
		esac
	done
}

# run_script NAME PREFIX CMD... - run a check script that prints PASS /
# FAIL / SKIP lines, count them (prefixed by PREFIX), and fail NAME when the
# script exits non-zero without having printed a FAIL line (it died, or
# failed without saying which check).  Returns the script's exit status.
run_script() {
	local name=$1 prefix=$2 rc failed_before=$failed
	shift 2
	"$@" 2>&1 | record_lines "$prefix"
	rc=${PIPESTATUS[0]}
	if [ "$rc" -ne 0 ] && [ "$failed" -eq "$failed_before" ]; then
		record FAIL "$name: $1 exited with status $rc without a FAIL line"
		echo "FAIL $name: $1 exited with status $rc without a FAIL line"
	fi
	return "$rc"
}

want_step() {
	local s
	for s in "${steps[@]}"; do
		[ "$s" = "$1" ] && return 0
	done
	return 1
}

ensure_tools() {
	banner "checking Debian packages"
	if ! "$root/tools/ensure-packages.sh" "${packages[@]}"; then
		echo "could not install the packages the tests need"
		return 1
	fi
	# clang finds its sanitizer runtimes in libclang-rt-<major>-dev, which
	# plain `clang` only recommends.
	if want_step asan && ! echo 'int main(void){return 0;}' |
		clang -fsanitize=address,undefined -x c - -o /dev/null 2>/dev/null; then
		"$root/tools/ensure-packages.sh" "libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev"
	fi
}

# configure DIR CC MESON_ARGS... - (re)configure a build directory; one
# configured differently by hand is wiped first.
configure() {
	local dir=$1 cc=$2
	shift 2
	local want="CC=$cc $*"
	if [ -d "$dir" ] && [ "$(cat "$dir/.softdoca-run-config" 2>/dev/null)" != "$want" ]; then
		echo "reconfiguring $dir from scratch for: $want"
		rm -rf "$dir"
	fi
	if [ -f "$dir/build.ninja" ]; then
		return 0
	fi
	CC=$cc meson setup "$dir" "$@" && echo "$want" >"$dir/.softdoca-run-config"
}

# build NAME DIR CC MESON_ARGS... - configure and compile; counts one check.
# Compiles as much as it can (ninja -k 0) so the tests that did build still
# run; returns 2 when not even the configuration worked.
build() {
	local name=$1 dir=$2 cc=$3
	shift 3
	local log="${TMPDIR:-/tmp}/softdoca-$name-build.$$.log" rc=0
	if ! configure "$dir" "$cc" "$@" >"$log" 2>&1; then
		rc=2
	elif ! ninja -C "$dir" -k 0 >>"$log" 2>&1; then
		rc=1
	fi
	if [ "$rc" -eq 0 ]; then
		record PASS "$name: build"
		echo "PASS $name: build ($dir)"
	else
		grep -Ev '^\[[0-9]+/[0-9]+\] ' "$log" | tail -n 60
		record FAIL "$name: build"
		echo "FAIL $name: build ($dir)"
	fi
	rm -f "$log"
	return "$rc"
}

# meson_results NAME DIR [SETUP] - count the per-test results of the last
# meson test run in DIR from meson-logs/testlog.json (testlog-SETUP.json for
# a test setup other than the default); prints the names it counted on fd 3.
meson_results() {
	local log=$2/meson-logs/testlog${3:+-$3}.json
	[ -f "$log" ] || {
		record FAIL "$1: meson test produced no testlog.json"
		echo "FAIL $1: meson test produced no testlog.json"
		return
	}
	record_lines "$1: " < <(python3 - "$log" <<'PY'
import json, sys
verdict = {"OK": "PASS", "EXPECTEDFAIL": "PASS", "SKIP": "SKIP"}
for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        continue
    try:
        t = json.loads(line)
    except ValueError:
        continue  # a line cut short by a dying meson: its test counts as missing
    # "softdoca:unit / exec_pe" -> "unit/exec_pe"
    name = t["name"].replace("softdoca:", "", 1).replace(" / ", "/")
    print("%s %s" % (verdict.get(t["result"], "FAIL"), name))
PY
	)
}

# missing_results DIR LOG MESON_TEST_ARGS... - "suite/name" of every test that
# `meson test --list` with the same arguments registers but LOG has no
# result for (meson died, or stopped part way).
missing_results() {
	local dir=$1 log=$2
	shift 2
	python3 - "$log" <(meson test -C "$dir" --no-rebuild --list "$@" 2>/dev/null) <<'PY'
import json, os, sys
seen = set()
if os.path.exists(sys.argv[1]):
    for line in open(sys.argv[1]):
        try:
            seen.add(json.loads(line)["name"])
        except (ValueError, KeyError):
            pass
for name in open(sys.argv[2]):
    name = name.strip()
    if name and name not in seen:
        print(name.replace("softdoca:", "", 1).replace(" / ", "/"))
PY
}

# unbuilt_tests DIR - "name" of every test whose program was not built.
unbuilt_tests() {
	python3 - "$1/meson-info/intro-tests.json" <<'PY'
import json, os, sys
for t in json.load(open(sys.argv[1])):
    if not os.path.exists(t["cmd"][0]):
        print(t["suite"][0].replace("softdoca:", "", 1) + "/" + t["name"])
PY
}

# test_suites NAME DIR [MESON_TEST_ARGS...] - run every suite, count results.
# A test whose program did not build counts as failed; the others still run.
# With --setup S among the arguments the results are read from S's log
# (testlog-S.json), with --wrapper W from W's (meson prefers the wrapper's name).
test_suites() {
	local name=$1 dir=$2 t setup="" prev=""
	shift 2
	for t in "$@"; do
		[ "$prev" = --setup ] && [ -z "$setup" ] && setup=$t
		# meson names its log after the wrapper first, the setup second
		[ "$prev" = --wrapper ] && setup=$(basename "$t")
		prev=$t
	done
	local unbuilt=() built_names=()
	mapfile -t unbuilt < <(unbuilt_tests "$dir")
	if [ ${#unbuilt[@]} -gt 0 ]; then
		for t in "${unbuilt[@]}"; do
			record FAIL "$name: $t (not built)"
			echo "FAIL $name: $t (not built)"
		done
		# meson test refuses to start when a program is missing: name the others.
		mapfile -t built_names < <(python3 - "$dir/meson-info/intro-tests.json" <<'PY'
import json, os, sys
for t in json.load(open(sys.argv[1])):
    if os.path.exists(t["cmd"][0]):
        print(t["name"])
PY
		)
		[ ${#built_names[@]} -eq 0 ] && return
	fi
	local log="$dir/meson-logs/testlog${setup:+-$setup}.json" rc=0 failed_before=$failed missing=() registered
	rm -f "$log"
	registered=$(meson test -C "$dir" --no-rebuild --list "$@" "${built_names[@]}" 2>/dev/null | grep -c .)
	meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes "$jobs" "$@" "${built_names[@]}" || rc=$?
	echo "-- per-test results ($name)"
	meson_results "$name" "$dir" "$setup"
	# A test registered but never reported fails: meson died or gave up part way.
	mapfile -t missing < <(missing_results "$dir" "$log" "$@" "${built_names[@]}")
	for t in "${missing[@]}"; do
		record FAIL "$name: $t (registered, no result recorded)"
		echo "FAIL $name: $t (registered, no result recorded)"
	done
	if [ "$registered" -eq 0 ]; then
		record FAIL "$name: meson test --list registers no test"
		echo "FAIL $name: meson test --list registers no test"
	fi
	# meson's own failure with nothing failed above (a crash of the runner itself).
	if [ "$rc" -ne 0 ] && [ "$failed" -eq "$failed_before" ]; then
		record FAIL "$name: meson test exited with status $rc"
		echo "FAIL $name: meson test exited with status $rc"
	fi
}

# The suites that move bytes, run again on the asynchronous cpu engine (the
# meson setup `workers`: two library threads copy), as DPDK runs one test
# suite on every driver.  Cases that need what only one engine does skip.
# `unit` brings the context framework's task tests (exec), which run DMA
# memcpy tasks through every state, and the registration tests (mem).
# `debug` brings fault injection, tracing (the workers' own spans are
# checked there), the watchdog and the exit report.
engine_suites=(--suite unit --suite dma --suite xproc --suite flows --suite dmatest --suite examples --suite debug)

# need_gcc_build - build build/ once (counted as the check "gcc: build");
# true when there is something to test in it.
need_gcc_build() {
	if [ "$gcc_build_state" = none ]; then
		gcc_build_state=done
		build gcc build gcc
		[ $? -eq 2 ] && gcc_build_state=broken
	fi
	[ "$gcc_build_state" = done ]
}

step_gcc() {
	banner "gcc build and tests (build/)"
	need_gcc_build || return
	test_suites gcc build
	test_suites gcc-workers build --setup workers "${engine_suites[@]}"
}

# The optimiser finds warnings (truncation, overflow) that a debug build
# does not; the benchmarks and bench/*.sh build this way.
step_release() {
	banner "gcc release build (build-rel-check/)"
	build release build-rel-check gcc --buildtype=release -Dtests=false
}

step_asan() {
	banner "clang + AddressSanitizer/UBSan build and tests (build-asan/)"
	build asan build-asan clang -Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args=-fno-sanitize-recover=undefined
	[ $? -eq 2 ] && return
	local -x ASAN_OPTIONS=halt_on_error=1:print_stacktrace=1:detect_leaks=1:abort_on_error=0
	local -x UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
	# A report of any process a test starts fails that test (tests/sanitizer-wrap.sh).
	local wrap=(--wrapper "$root/tests/sanitizer-wrap.sh")
	test_suites asan build-asan --timeout-multiplier 4 "${wrap[@]}"
	test_suites asan-workers build-asan --timeout-multiplier 4 "${wrap[@]}" --setup workers "${engine_suites[@]}"
}

# A built executable of build/ whose file name is NAME.
find_program() {
	find "$root/build" -type f -name "$1" -perm -u+x -not -path '*/meson-private/*' | head -n1
}

step_valgrind() {
	banner "dmatest under valgrind"
	local prog
	if ! need_gcc_build; then
		record SKIP "valgrind: dmatest (gcc build missing)"
		echo "SKIP valgrind: dmatest (gcc build missing)"
		return
	fi
	prog=$(find_program 'dmatest')
	if [ -z "$prog" ]; then
		record FAIL "valgrind: dmatest program exists"
		echo "FAIL valgrind: dmatest program exists"
		return
	fi
	local engine
	for engine in inline workers; do
		local -a env_args=()
		[ "$engine" = workers ] && env_args=(SOFTDOCA_DMA_WORKERS=2)
		if timeout 900 env "${env_args[@]}" valgrind -q --error-exitcode=1 --leak-check=full \
			--track-origins=yes "$prog" $DMATEST_VALGRIND_ARGS; then
			record PASS "valgrind: dmatest ($engine engine) $DMATEST_VALGRIND_ARGS"
			echo "PASS valgrind: dmatest ($engine engine) $DMATEST_VALGRIND_ARGS"
		else
			record FAIL "valgrind: dmatest ($engine engine) $DMATEST_VALGRIND_ARGS"
			echo "FAIL valgrind: dmatest ($engine engine) $DMATEST_VALGRIND_ARGS"
		fi
	done
}

step_install() {
	banner "install test"
	run_script install "" "$root/tests/install/run_install_test.sh"
}

step_packages() {
	banner "Debian packages: build, refuse, install, use, purge"
	run_script packages "" "$root/tests/install/run_package_test.sh"
}

step_abi() {
	banner "exported symbols"
	if ! need_gcc_build; then
		record SKIP "abi: symbol check (gcc build missing)"
		echo "SKIP abi: symbol check (gcc build missing)"
		return
	fi
	run_script abi "" "$root/tests/abi/check_symbols.sh" "$root/build"
}

step_bench() {
	banner "dma_bench --quick (functional smoke run; numbers are not checked)"
	local prog
	if ! need_gcc_build; then
		record SKIP "bench: dma_bench --quick (gcc build missing)"
		echo "SKIP bench: dma_bench --quick (gcc build missing)"
		return
	fi
	prog=$(find_program dma_bench)
	if [ -n "$prog" ] && timeout 300 "$prog" --quick; then
		record PASS "bench: dma_bench --quick"
		echo "PASS bench: dma_bench --quick"
	else
		record FAIL "bench: dma_bench --quick"
		echo "FAIL bench: dma_bench --quick"
	fi
}

step_fuzz() {
	local secs=${FUZZ_SECONDS:-25} out rc=0
	banner "fuzzers (fuzz/run_fuzz.sh, ${secs} s each, every target: docs/robustness.md)"
	out="${TMPDIR:-/tmp}/softdoca-fuzz.$$.log"
	"$root/fuzz/run_fuzz.sh" "$secs" "$root/build-asan" >"$out" 2>&1 || rc=$?
	grep -v '^\(PASS\|FAIL\) ' "$out"
	case $rc in
	77)
		record SKIP "fuzz: no libFuzzer here"
		echo "SKIP fuzz: no libFuzzer here"
		;;
	*)
		record_lines "" < <(grep '^\(PASS\|FAIL\) ' "$out")
		if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out"; then
			record FAIL "fuzz: fuzz/run_fuzz.sh exited with status $rc"
			echo "FAIL fuzz: fuzz/run_fuzz.sh exited with status $rc"
		fi
		;;
	esac
	rm -f "$out"
}

step_samples() {
	banner "official DOCA samples (tools/run-samples.sh)"
	local roots=() tree
	if [ -n "${DOCA_SAMPLES_ROOTS:-}" ]; then
		IFS=: read -ra roots <<<"$DOCA_SAMPLES_ROOTS"
	elif [ -n "${DOCA_SAMPLES_ROOT:-}" ]; then
		roots=("$DOCA_SAMPLES_ROOT")
	elif [ -d /opt/mellanox/doca/samples ]; then
		roots=(/opt/mellanox/doca)
	fi
	if [ ${#roots[@]} -eq 0 ]; then
		record SKIP "samples: no DOCA samples tree (set DOCA_SAMPLES_ROOTS or DOCA_SAMPLES_ROOT)"
		echo "SKIP samples: no DOCA samples tree (set DOCA_SAMPLES_ROOTS or DOCA_SAMPLES_ROOT)"
		return
	fi
	for tree in "${roots[@]}"; do
		[ -n "$tree" ] && samples_tree "$tree"
	done
}

# samples_tree ROOT - one tree (a folder or REPO@REF) through tools/run-samples.sh.
samples_tree() {
	local out="${TMPDIR:-/tmp}/softdoca-samples.$$.log" rc=0 gpu=()
	# dma_local_copy also runs on gpu0, through the stand-in CUDA driver of the gcc build.
	local fake="$root/build/tests/cuda/fakecuda/libsoftdoca-fakecuda.so"
	[ -f "$fake" ] && gpu=(--cuda-lib "$fake")
	echo "-- samples tree $1"
	"$root/tools/run-samples.sh" --lines --valgrind "${gpu[@]}" "$1" >"$out" 2>&1 || rc=$?
	grep -v '^\(PASS\|FAIL\|SKIP\) ' "$out"
	record_lines "" < <(grep '^\(PASS\|FAIL\|SKIP\) ' "$out")
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out"; then
		record FAIL "samples: tools/run-samples.sh $1 exited with status $rc"
		echo "FAIL samples: tools/run-samples.sh $1 exited with status $rc"
	fi
	# The same programs on the asynchronous cpu engine (two DMA worker threads).
	rc=0
	echo "-- samples tree $1 on the workers engine (SOFTDOCA_DMA_WORKERS=2)"
	SOFTDOCA_DMA_WORKERS=2 "$root/tools/run-samples.sh" --lines "$1" >"$out" 2>&1 || rc=$?
	grep -v '^\(PASS\|FAIL\|SKIP\) ' "$out"
	record_lines "workers: " < <(grep '^\(PASS\|FAIL\|SKIP\) ' "$out")
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out"; then
		record FAIL "workers: samples: tools/run-samples.sh $1 exited with status $rc"
		echo "FAIL workers: samples: tools/run-samples.sh $1 exited with status $rc"
	fi
	# The host/DPU pairs again, the two sides in two network and PID
	# namespaces (Comch over TCP, DMA and RDMA over UCX); one SKIP line where
	# that cannot be done (not root, no namespaces).
	if [ -f "$root/_install/include/doca_dma.h" ]; then
		rc=0
		"$root/tools/run-samples.sh" --lines --two-namespaces --prefix "$root/_install" "$1" \
			dma_copy comch_ctrl_path comch_data_path_high_speed dma_copy_app secure_channel_app rdma_read rdma_write \
			rdma_sync_event rdma_send rdma_send_immediate rdma_write_immediate rdma_multi_conn rdma_read_cm \
			rdma_write_cm \
			>"$out" 2>&1 || rc=$?
		grep -v '^\(PASS\|FAIL\|SKIP\) ' "$out"
		record_lines "" < <(grep '^\(PASS\|FAIL\|SKIP\) ' "$out")
		if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out"; then
			record FAIL "samples: tools/run-samples.sh --two-namespaces exited with status $rc"
			echo "FAIL samples: tools/run-samples.sh --two-namespaces exited with status $rc"
		fi
	fi
	rm -f "$out"
}

step_coverage() {
	banner "coverage: gcc --coverage build and tests (build-cov/), gcovr report"
	build coverage build-cov gcc -Db_coverage=true
	[ $? -eq 2 ] && return
	# Counters of an earlier run would count as entered by this one.
	find "$root/build-cov" -name '*.gcda' -delete
	test_suites coverage build-cov
	test_suites coverage-workers build-cov --setup workers "${engine_suites[@]}"
	run_script coverage "" python3 "$root/tests/coverage/report.py" "$root" "$root/build-cov"
	run_script coverage "coverage build: " "$root/tests/abi/check_symbols.sh" "$root/build-cov"
}

# The stress test's own options for a run that valgrind finishes quickly.
DMATEST_VALGRIND_ARGS=${DMATEST_VALGRIND_ARGS:---tasks 2000}

main() {
	local s start=$SECONDS
	for s in "${steps[@]}"; do
		case " ${all_steps[*]} " in
		*" $s "*) ;;
		*)
			echo "usage: tests/run.sh [${all_steps[*]}]..." >&2
			exit 2
			;;
		esac
	done
	if ! ensure_tools; then
		record FAIL "setup: required Debian packages"
	else
		for s in "${all_steps[@]}"; do
			want_step "$s" && "step_$s"
		done
	fi

	banner "summary ($((SECONDS - start)) s)"
	if [ ${#failed_names[@]} -gt 0 ]; then
		printf 'failed: %s\n' "${failed_names[@]}"
	fi
	if [ "$skipped" -gt 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ "$failed" -eq 0 ]
}

main
