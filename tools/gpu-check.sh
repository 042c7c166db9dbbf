#!/usr/bin/env bash
# gpu-check.sh - everything the GPU machine has to do, in one call.
#
# Run from a copy of this repository on a machine with an NVIDIA GPU and
# its driver (no network needed, nothing is installed):
#
#   tools/gpu-check.sh [CUDA_BENCH_ARGS...]
#
# Steps, each reported as it runs and summed up at the end:
#   1. machine: nvidia-smi -L and the GPU's PCIe link, where nvidia-smi is
#      there; where libcuda.so.1 is found
#   2. tools: meson, ninja and a C compiler (PATH, else Python's meson and
#      ninja packages); a missing one stops the script with its name
#   3. configure a release build into build-gpu/ and build it
#   4. meson test -C build-gpu --suite gpu --suite cuda --print-errorlogs
#      (gpu: the real driver; cuda: the stand-in driver)
#   5. bench/cuda_bench --verify (default sizes 1M,4M,16M,64M, or the
#      arguments given): raw cuMemcpyAsync against DOCA DMA on gpu0; if it
#      fails, once more with --pinned-host (driver-allocated pinned memory)
#      so that a failure to pin pageable memory still leaves numbers
#
# Everything is printed and, when $OUT is set, also written to
# $OUT/gpu-check.log (with meson's test log as $OUT/testlog.txt).
# GPU_CHECK_BUDGET (seconds, default 480) bounds the whole run: the bench
# gets what the earlier steps left.  GPU_CHECK_BUILD_DIR replaces build-gpu/.  Exit status: 0 when every step passed,
# 1 when one failed, 3 when a tool is missing.
set -u -o pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${GPU_CHECK_BUILD_DIR:-$root/build-gpu}
budget=${GPU_CHECK_BUDGET:-480}
start_s=$SECONDS
jobs=$(nproc 2>/dev/null || echo 4)
declare -a summary=()
failed=0

say() { printf '%s\n' "$*"; }
banner() { printf '\n==== %s  (t+%ds)\n' "$*" $((SECONDS - start_s)); }
note() { summary+=("$1"); [ "${1%% *}" = FAIL ] && failed=1; return 0; }
left_s() { echo $((budget - (SECONDS - start_s))); }

# ---- 1. the machine --------------------------------------------------------

# libcuda.so.1 must be reachable by dlopen; add the driver's folder if the
# loader cache does not know it (never the toolkit's stubs: they are fakes).
find_driver() {
	if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
		say "libcuda.so.1: $(ldconfig -p | grep -m1 'libcuda\.so\.1 ' | sed 's/.*=> //') (loader cache)"
		return 0
	fi
	local d
	for d in ${LD_LIBRARY_PATH:+${LD_LIBRARY_PATH//:/ }} /usr/local/nvidia/lib64 /usr/local/nvidia/lib \
		/usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/cuda/compat /usr/local/cuda/lib64; do
		if [ -e "$d/libcuda.so.1" ]; then
			export LD_LIBRARY_PATH=$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
			say "libcuda.so.1: $d/libcuda.so.1 (added $d to LD_LIBRARY_PATH)"
			return 0
		fi
	done
	say "libcuda.so.1: NOT FOUND (the gpu tests and the bench will report 'skipped')"
	return 1
}

step_machine() {
	banner "1. machine"
	say "date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	say "host:    $(uname -srm), $jobs CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo 2>/dev/null)"
	say "tree:    $root ($(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo 'no git metadata'))"
	if command -v nvidia-smi >/dev/null 2>&1; then
		nvidia-smi -L 2>&1
		# The link as it is now (it may train down while idle) and at most.
		local fields=name,pci.bus_id,driver_version
		fields+=,pcie.link.gen.current,pcie.link.width.current,pcie.link.gen.max,pcie.link.width.max
		nvidia-smi --format=csv --query-gpu="$fields" 2>&1
	else
		say "nvidia-smi: not found"
	fi
	# The bench and the tests must use the machine's driver, not a stand-in.
	unset SOFTDOCA_CUDA_LIB
	if find_driver; then
		note "PASS machine: libcuda.so.1 found"
	else
		note "FAIL machine: libcuda.so.1 not found"
	fi
}

# ---- 2. tools ----------------------------------------------------------------

MESON=()
NINJA=""

find_meson() {
	local v
	if command -v meson >/dev/null 2>&1; then
		MESON=(meson)
	elif command -v python3 >/dev/null 2>&1 && python3 -m mesonbuild.mesonmain --version >/dev/null 2>&1; then
		MESON=(python3 -m mesonbuild.mesonmain)
	else
		for v in /opt/*/.venv/bin/meson /usr/local/bin/meson; do
			[ -x "$v" ] && MESON=("$v") && break
		done
	fi
	[ ${#MESON[@]} -gt 0 ]
}

find_ninja() {
	local v
	NINJA=$(command -v ninja 2>/dev/null || command -v ninja-build 2>/dev/null || true)
	if [ -z "$NINJA" ] && command -v python3 >/dev/null 2>&1; then
		v=$(python3 -c 'import ninja, os; print(os.path.join(ninja.BIN_DIR, "ninja"))' 2>/dev/null || true)
		[ -n "$v" ] && [ -x "$v" ] && NINJA=$v
	fi
	if [ -z "$NINJA" ]; then
		for v in /opt/*/.venv/bin/ninja; do
			[ -x "$v" ] && NINJA=$v && break
		done
	fi
	[ -n "$NINJA" ] || return 1
	# meson looks for ninja on PATH (or in $NINJA).
	PATH=$(dirname "$NINJA"):$PATH
	export PATH NINJA
}

step_tools() {
	banner "2. tools"
	local cc=""
	cc=$(command -v cc 2>/dev/null || command -v gcc 2>/dev/null || command -v clang 2>/dev/null || true)
	if ! find_meson; then
		say "STOP: meson is not installed here (not on PATH, not as python3 -m mesonbuild)."
		say "      Nothing can be installed on this machine: carry meson into the tree"
		say "      (an ignored folder named in the device tool's 'carry') and put it on PATH."
		note "FAIL tools: meson missing"
		return 3
	fi
	if ! find_ninja; then
		say "STOP: ninja is not installed here (not on PATH, not as python3's ninja package)."
		note "FAIL tools: ninja missing"
		return 3
	fi
	if [ -z "$cc" ]; then
		say "STOP: no C compiler (cc, gcc or clang) here."
		note "FAIL tools: C compiler missing"
		return 3
	fi
	say "meson:   ${MESON[*]} $("${MESON[@]}" --version 2>&1)"
	say "ninja:   $NINJA $("$NINJA" --version 2>&1)"
	say "cc:      $cc ($("$cc" --version 2>&1 | head -n1))"
	note "PASS tools: meson, ninja, cc"
}

# ---- 3. build -----------------------------------------------------------------

step_build() {
	banner "3. configure and build (release, build-gpu/)"
	# werror off: another compiler's new warnings must not cost the measurement.
	local opts=(--buildtype=release -Dwerror=false -Dtests=true -Dbench=true) how=()
	# The Arg Parser needs json-c, which a GPU image may lack; nothing the GPU checks run uses it.
	if ! pkg-config --exists json-c 2>/dev/null; then
		opts+=(-Dargp=disabled)
		say "json-c not found: building without libdoca_argp (-Dargp=disabled)"
	fi
	[ -f "$build/meson-private/coredata.dat" ] && how=(--reconfigure)
	if ! timeout 120 "${MESON[@]}" setup "${how[@]}" "$build" "$root" "${opts[@]}" >/dev/null &&
		! timeout 120 "${MESON[@]}" setup --wipe "$build" "$root" "${opts[@]}" >/dev/null; then
		# Run again in the open so that the reason is in the log.
		"${MESON[@]}" setup --wipe "$build" "$root" "${opts[@]}" 2>&1 | tail -n 30
		note "FAIL build: meson setup"
		return 1
	fi
	say "configured; building with $jobs jobs"
	if ! timeout 300 "$NINJA" -C "$build" -j "$jobs" >"$build/gpu-check-build.log" 2>&1; then
		grep -E 'error|FAILED' "$build/gpu-check-build.log" | head -n 40
		tail -n 20 "$build/gpu-check-build.log"
		note "FAIL build: ninja (see above)"
		return 1
	fi
	tail -n 1 "$build/gpu-check-build.log"
	note "PASS build"
}

# ---- 4. tests -------------------------------------------------------------------

# One line per test of the last meson test run: result, suite/name, and for
# the gpu suite the program's own lines (driver used, skip reason).
test_details() {
	command -v python3 >/dev/null 2>&1 || return 0
	python3 - "$build/meson-logs/testlog.json" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    t = json.loads(line)
    # Meson versions name a test "project:suite / name" (1.0), "suite - project:name" (1.12),
    # or give a separate "suite" list: take every spelling.
    full = t["name"]
    suites = [s.split(":")[-1] for s in (t.get("suite") or [])]
    if " / " in full:
        head, _, name = full.rpartition(" / ")
        suites.append(head.split(":")[-1])
    elif " - " in full:
        head, _, name = full.partition(" - ")
        suites.append(head.split(":")[-1])
        name = name.split(":")[-1]
    else:
        name = full.split(":")[-1]
    if "gpu" not in suites:
        continue
    print(f'  {t["result"]:<5} gpu/{name}')
    lines = (t.get("stdout") or "").splitlines()
    passed = [l for l in lines if l.startswith("ok ")]
    for out in [l for l in lines if not l.startswith("ok ")][-12:]:
        print(f'        | {out}')
    print(f'        | ({len(passed)} cases ok)')
EOF
}

step_tests() {
	banner "4. meson test --suite gpu --suite cuda"
	local rc log=$build/gpu-check-tests.log
	timeout 300 "${MESON[@]}" test -C "$build" --no-rebuild --suite gpu --suite cuda --print-errorlogs \
		--num-processes "$jobs" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	say ""
	say "gpu suite details:"
	test_details
	[ -n "${OUT:-}" ] && cp "$build/meson-logs/testlog.txt" "$OUT/testlog.txt" 2>/dev/null
	local ok skip fail
	ok=$(awk '/^Ok:/ {print $2}' "$log")
	skip=$(awk '/^Skipped:/ {print $2}' "$log")
	fail=$(awk '/^Fail:/ {print $2}' "$log")
	local counts="${ok:-?} ok, ${fail:-?} failed, ${skip:-?} skipped"
	if [ "$rc" -eq 0 ]; then
		note "PASS tests: $counts"
	else
		note "FAIL tests: $counts (meson test exit $rc)"
	fi
	if grep -qE '^ *[0-9]+/[0-9]+ .*gpu_dma +SKIP' "$log"; then
		note "FAIL tests: gpu_dma was SKIPPED on the GPU machine (see its reason above)"
	fi
}

# ---- 5. bench ---------------------------------------------------------------------

run_bench() {
	local limit=$1
	shift
	timeout "$limit" "$build/bench/cuda_bench" "$@" 2>&1 | tee -a "$build/gpu-check-bench.log"
	return "${PIPESTATUS[0]}"
}

step_bench() {
	local args=("$@") limit rc
	[ ${#args[@]} -eq 0 ] && args=(--verify)
	banner "5. cuda_bench ${args[*]}"
	if [ ! -x "$build/bench/cuda_bench" ]; then
		note "FAIL bench: $build/bench/cuda_bench was not built"
		return 1
	fi
	: >"$build/gpu-check-bench.log"
	limit=$(($(left_s) - 10))
	[ "$limit" -lt 60 ] && limit=60
	run_bench "$limit" "${args[@]}"
	rc=$?
	case $rc in
	0) note "PASS bench: cuda_bench ${args[*]}" ;;
	77) note "FAIL bench: cuda_bench skipped (no driver or GPU seen; reason above)"; return 1 ;;
	124) note "FAIL bench: cuda_bench ran out of time (${limit} s)"; return 1 ;;
	*)
		note "FAIL bench: cuda_bench ${args[*]} exit $rc"
		limit=$(($(left_s) - 5))
		if [ "$limit" -lt 45 ]; then
			say "no time left for a run with --pinned-host"
			return 1
		fi
		banner "5b. cuda_bench ${args[*]} --pinned-host (driver-allocated host memory)"
		run_bench "$limit" "${args[@]}" --pinned-host
		rc=$?
		if [ $rc -eq 0 ]; then
			note "PASS bench: cuda_bench ${args[*]} --pinned-host"
		else
			note "FAIL bench: cuda_bench ${args[*]} --pinned-host exit $rc"
		fi
		;;
	esac
}

# ---- all of it --------------------------------------------------------------------

main() {
	say "gpu-check: build, test and benchmark softdoca's cuda engine (budget ${budget} s)"
	rm -f "$build/gpu-check-bench.log" # the summary quotes this run's bench only
	step_machine
	step_tools || { finish; return 3; }
	if step_build; then
		step_tests
		step_bench "$@"
	fi
	finish
	return $failed
}

finish() {
	banner "summary"
	local line
	for line in "${summary[@]}"; do
		say "  $line"
	done
	if [ -s "$build/gpu-check-bench.log" ]; then
		say ""
		grep -E '^(\*\*\*|targets|  softdoca >=|  both directions)' "$build/gpu-check-bench.log" | sed 's/^/  /'
	fi
	say ""
	say "gpu-check: $([ $failed -eq 0 ] && echo 'all steps passed' || echo 'some steps FAILED') in $((SECONDS - start_s)) s"
}

if [ -n "${OUT:-}" ] && mkdir -p "$OUT" 2>/dev/null; then
	main "$@" 2>&1 | tee "$OUT/gpu-check.log"
	exit "${PIPESTATUS[0]}"
fi
main "$@"
