#!/usr/bin/env bash
# bench/async-engine.sh - the asynchronous cpu engine (SOFTDOCA_DMA_WORKERS)
# measured against its baselines, every ratio taken inside one run.
#
# What it runs (softdoca-bench of a release build; each step prints its own
# table, then a summary lists the figures next to the engine's targets):
#   1. 64 B tasks through one worker, the inline engine beside it
#   2. 64 KiB .. 16 MiB through one worker against memcpy
#   3. imported memory (--mem remote) through one worker against
#      process_vm_readv at 64 KiB and 1 MiB
#   4. 64 B latency, submit to callback, through one worker
#   5. overlap: --app-work W after each job, inline and through one worker
#   6. two PEs on two threads against one, with memcpy's own scaling, with
#      the DMA threads spinning on doca_pe_progress and sleeping on the
#      notification handle (--wait event)
#
# The program's thread is pinned to the first CPU this process may use and
# the worker to the second (SOFTDOCA_DMA_WORKER_CPUS), as
# bench/compare-dpdk.sh does for its async run.  Measure on an otherwise
# idle machine: a worker that must share its CPU waits for the scheduler.
#
# Usage: bench/async-engine.sh [--build DIR] [--duration TIME] [--repeat N]
#                              [--app-work TIME]
# Exit status: 0 measured (whatever the figures), 1 usage, 2 a run failed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-rel"
duration=500ms
repeat=3
work=5us

while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$(realpath -m "$2"); shift 2 ;;
	--duration) duration="$2"; shift 2 ;;
	--repeat) repeat="$2"; shift 2 ;;
	--app-work) work="$2"; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "async-engine: unknown option $1 (see --help)" >&2; exit 1 ;;
	esac
done

step() { printf '\n== %s\n' "$*"; }

if [ ! -f "$build/build.ninja" ]; then
	step "release build in $build"
	meson setup "$build" "$root" --buildtype=release >/dev/null
fi
ninja -C "$build" >/dev/null
bench="$build/tools/bench/softdoca-bench"
[ -x "$bench" ] || { echo "async-engine: $bench was not built" >&2; exit 2; }

. "$root/bench/allowed-cpus.sh"
app_cpu=${cpus[0]}
worker_cpu=${cpus[1]:-${cpus[0]}}
echo "program thread on CPU $app_cpu, DMA worker on CPU $worker_cpu"
[ "$worker_cpu" != "$app_cpu" ] || echo "async-engine: one CPU only: the worker shares it with the program"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common=(--duration "$duration" --repeat "$repeat")

# run NAME [ENV=..] -- BENCH ARGS: one softdoca-bench run, CSV into $tmp/NAME.csv
run() {
	local name=$1
	shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	step "$name: softdoca-bench $*"
	env "${envs[@]}" taskset -c "$app_cpu,$worker_cpu" "$bench" "$@" "${common[@]}" --csv "$tmp/$name.csv" |
		sed 's/^/  /' || { echo "async-engine: the $name run failed" >&2; exit 2; }
}
workers=(SOFTDOCA_DMA_WORKERS=1 "SOFTDOCA_DMA_WORKER_CPUS=$worker_cpu")
inline=(SOFTDOCA_DMA_WORKERS=0)

run inline64 "${inline[@]}" -- --job-size 64 --no-baselines
run workers64 "${workers[@]}" -- --job-size 64 --no-baselines
run large "${workers[@]}" -- --sizes 64K:16M:x4
run remote "${workers[@]}" -- --mem remote --sizes 64K,1M
run latency "${workers[@]}" -- --mode latency --job-size 64 --no-baselines
run overlap_inline "${inline[@]}" -- --sizes 64K --app-work "$work"
run overlap_workers "${workers[@]}" -- --sizes 64K --app-work "$work"
# Two workers, worker 0 on the second CPU and worker 1 on the first: one PE
# gets worker 0, two PEs get one each (the program threads on CPUs 0 and 1).
two=(SOFTDOCA_DMA_WORKERS=2 "SOFTDOCA_DMA_WORKER_CPUS=$worker_cpu,$app_cpu")
run one_thread "${two[@]}" -- --sizes 64K,1M --threads 1
run two_threads "${two[@]}" -- --sizes 64K,1M --threads 2
run one_thread_event "${two[@]}" -- --sizes 64K,1M --threads 1 --wait event
run two_threads_event "${two[@]}" -- --sizes 64K,1M --threads 2 --wait event

# CSV columns: ...,method(5),size(6),...,jobs_per_s(9),bytes_per_s(10),...,p50(12),..,p99(14)
col() { # file method size column
	awk -F, -v m="$2" -v s="$3" -v c="$4" '$5 == m && $6 == s { print $c; exit }' "$tmp/$1.csv"
}
step "summary (ratios within this run)"
awk -v in64="$(col inline64 dma 64 9)" -v w64="$(col workers64 dma 64 9)" 'BEGIN {
	printf "  64 B through one worker: %.2f M tasks/s (inline engine %.2f M/s)   target >= 10 M/s: %s\n",
		w64 / 1e6, in64 / 1e6, (w64 >= 10e6 ? "met" : "NOT met") }'
worst=""
for s in 65536 262144 1048576 4194304 16777216; do
	r=$(awk -v d="$(col large dma $s 10)" -v m="$(col large memcpy $s 10)" 'BEGIN { printf "%.3f", d / m }')
	echo "  ${s} B through one worker / memcpy: ${r}x"
	worst=$(awk -v a="${worst:-9}" -v b="$r" 'BEGIN { print (b < a ? b : a) }')
done
awk -v w="$worst" 'BEGIN { printf "  worst from 64 KiB up: %.3fx   target >= 0.90x: %s\n", w, (w >= 0.9 ? "met" : "NOT met") }'
for s in 65536 1048576; do
	awk -v s="$s" -v d="$(col remote dma $s 10)" -v p="$(col remote pvr $s 10)" 'BEGIN {
		printf "  imported memory, %d B, one worker / process_vm_readv: %.3fx   target >= 0.90x: %s\n",
			s, d / p, (d / p >= 0.9 ? "met" : "NOT met") }'
done
awk -v p50="$(col latency dma 64 12)" -v p99="$(col latency dma 64 14)" 'BEGIN {
	printf "  64 B latency through one worker: p50 %.0f ns, p99 %.0f ns   targets <= 2000 / 20000 ns: %s\n",
		p50, p99, (p50 <= 2000 && p99 <= 20000 ? "met" : "NOT met") }'
echo "  overlap at 64 KiB with --app-work $work: see the two Overlap tables above (target: workers <= 1.15x max(W, C))"
for wait in "" _event; do
	for s in 65536 1048576; do
		awk -v s="$s" -v w="${wait:-_spin}" -v d1="$(col one_thread$wait dma $s 10)" \
			-v d2="$(col two_threads$wait dma $s 10)" -v m1="$(col one_thread$wait memcpy $s 10)" \
			-v m2="$(col two_threads$wait memcpy $s 10)" 'BEGIN {
			sd = d2 / d1; sm = m2 / m1
			printf "  %d B, wait%s, two PEs / one PE: %.2fx; memcpy two threads / one: %.2fx; share %.2f   target >= 0.9: %s\n",
				s, w, sd, sm, sd / sm, (sd / sm >= 0.9 ? "met" : "NOT met") }'
	done
done
