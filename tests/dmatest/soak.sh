#!/usr/bin/env bash
# tests/dmatest/soak.sh - the long verified soak, by hand (docs/robustness.md).
#
#   tests/dmatest/soak.sh [BUILD_DIR] [TASKS] [WORKER_TASKS]
#
# Runs dmatest (random sizes, offsets and buffer lists, canaries around
# every destination element, refusals mixed in, a task pool smaller than
# the queue depth) once per configuration:
#
#   local     both arenas in this process                 inline engine
#   shared    PCI halves exported by a child (memfd):      inline engine
#             the importer maps the file
#   vm        PCI halves exported by a child (anonymous     inline engine
#             shared memory): process_vm_readv/writev
#   shm-w     PCI halves in a /dev/shm object               worker engine
#   vm-w      anonymous shared memory                       worker engine
#                                                           (SOFTDOCA_DMA_WORKERS=1)
#
# TASKS (default 10000000) for the inline engine, WORKER_TASKS (default
# 10000000) for the worker engine.
# Prints one line per run (tasks, seconds, rate, bytes checked, mismatches)
# and exits non-zero if any run found a mismatch or failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
tasks=${2:-10000000}
worker_tasks=${3:-10000000}
prog=$build/tests/dmatest/dmatest
[ -x "$prog" ] || { echo "soak: $prog is not built (ninja -C $build)" >&2; exit 2; }

failed=0
# run NAME TASKS ENV... -- ARGS...
run() {
	local name=$1 n=$2 env=() log start rc secs
	shift 2
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do env+=("$1"); shift; done
	shift
	log=$(mktemp)
	start=$(date +%s.%N)
	env "${env[@]}" "$prog" --tasks "$n" --qd 64 --pool 24 --progress "$@" >"$log" 2>&1
	rc=$?
	secs=$(echo "$(date +%s.%N) - $start" | bc)
	local summary bytes
	summary=$(grep -E '^dmatest: [0-9]+ tasks' "$log" | tail -n1)
	bytes=$(grep -oE '^dmatest: [0-9]+ bytes verified' "$log" | grep -oE '[0-9]+' | head -n1)
	printf '%-7s %9s tasks %8.1f s %9.0f tasks/s %14s bytes checked  %s  rc=%d\n' "$name" "$n" "$secs" \
		"$(echo "$n / $secs" | bc -l)" "${bytes:-?}" "${summary#dmatest: }" "$rc"
	if [ "$rc" -ne 0 ]; then
		failed=1
		grep -v '^dmatest: .*tasks reported' "$log" | tail -n 20
	fi
	rm -f "$log"
}

echo "soak: $prog, $tasks tasks per inline run, $worker_tasks per worker run"
run local "$tasks" -- --seed 101
run shared "$tasks" -- --seed 102 --remote memfd
run vm "$tasks" -- --seed 103 --remote heap
run shm-w "$worker_tasks" SOFTDOCA_DMA_WORKERS=1 -- --seed 104 --remote shm
run vm-w "$worker_tasks" SOFTDOCA_DMA_WORKERS=1 -- --seed 105 --remote heap
exit "$failed"
