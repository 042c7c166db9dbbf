#!/usr/bin/env bash
# bench/compare-dpdk.sh - softdoca's 64 B DMA rate against DPDK's software
# DMA driver, measured in one run on this machine.
#
# The project's target: 64 B tasks at >= 3x the rate of DPDK's software DMA
# driver on the same machine.  That driver is DPDK's `dma_skeleton` virtual
# dmadev (drivers/dma/skeleton, shipped in Debian's libdpdk packages): a
# "device" whose own worker thread does the memcpy of each descriptor the
# application enqueues.
#
# How the comparison is made:
#   - same machine, same run: the script builds both programs and measures
#     them one after the other, DPDK (depth 32), softdoca, DPDK (largest
#     ring), so a machine that gets busier shows in both;
#   - same job: 64 B copies, 32 in flight, from a source slot to a
#     destination slot, one slot per job in flight (same working set);
#   - same time: 1 s per measurement after an unmeasured warm-up of 0.1 s,
#     3 measurements, the best kept (softdoca-bench --repeat 3; the DPDK
#     program does the same);
#   - one application thread each, pinned to the same CPU (the first one
#     this process may use): softdoca-bench pins its one worker there
#     (`taskset -c CPU`), and DPDK's EAL pins its main lcore there (`-l CPU`);
#   - two softdoca runs:
#       inline   the copies run inside doca_pe_progress on the application
#                thread (engine cpu, no DMA workers): ONE CPU;
#       async    like with like: the copies run on one softdoca DMA worker
#                thread (SOFTDOCA_DMA_WORKERS=1) pinned to the second CPU
#                (SOFTDOCA_DMA_WORKER_CPUS), as the skeleton's worker is:
#                TWO CPUs, one of them only copying;
#     the skeleton runs its own worker thread, pinned to that SECOND CPU
#     with the vdev's `lcore=` argument (`--vdev=dma_skeleton0,lcore=CPU2`).
#     The ratios are taken on copies per second as the targets state them
#     (inline >= 3x, async >= 2x); CPU time per copy is printed beside them;
#   - DPDK is used at its best: a loop turn enqueues a copy into every free
#     place (rte_dma_copy), rings the doorbell once (rte_dma_submit), then
#     reaps with rte_dma_completed (softdoca-bench submits every task on its
#     own).  It refills once 1, 4, 8 or 16 places are free ("batch"); each
#     is measured and the best one is the DPDK rate of the verdict.  Batch 1
#     is the plain loop; its best and worst runs are printed too;
#   - the skeleton's two threads pass every descriptor through shared rings,
#     so its rate follows the time a cache line takes between their two
#     CPUs.  The DPDK program times that round trip before and after each
#     of its runs and the summary prints it.  On a VM it changes when the
#     host moves the vCPUs: on the development VM (2 vCPUs) the same pair
#     measured ~55-65 ns or ~300 ns, minutes apart, and the skeleton did
#     ~28-30 M or ~4-9 M copies/s to match; softdoca (one CPU) stayed at
#     ~40 M/s.  Compare runs whose round trips were the short ones;
#   - both check their copies: the DPDK program compares every 1024th copy
#     with a fresh stamp in its source; softdoca-bench counts failed tasks.
# The DPDK program is bench/dpdk_skeleton_bench.c (our own code), built by
# bench/meson.build only where libdpdk-dev is installed.
#
# Usage: bench/compare-dpdk.sh [--build DIR] [--duration TIME] [--repeat N]
#   --build DIR   build directory (default build-dpdkcmp/ in the repository)
# Needs root or sudo the first time (apt-get install libdpdk-dev ...).  Exit
# status: 0 measured (whatever the verdict), 1 usage, 2 a program failed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-dpdkcmp"
duration=1s
duration_s=1
repeat=3

while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$(realpath -m "$2"); shift 2 ;;
	--duration) duration="$2"; shift 2 ;;
	--repeat) repeat="$2"; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "compare-dpdk: unknown option $1 (see --help)" >&2; exit 1 ;;
	esac
done
case "$duration" in
*ms) duration_s=$(awk -v v="${duration%ms}" 'BEGIN { print v / 1000 }') ;;
*s) duration_s=${duration%s} ;;
*) duration_s=$duration ;;
esac

step() { printf '\n== %s\n' "$*"; }

step "packages"
"$root/tools/ensure-packages.sh" meson ninja-build gcc libc6-dev pkg-config libjson-c-dev libdpdk-dev
echo "libdpdk $(pkg-config --modversion libdpdk)"

step "release build in ${build#"$root"/}/"
if [ -f "$build/build.ninja" ]; then
	# Reconfigure: libdpdk-dev may have arrived after the first setup.
	meson setup --reconfigure "$build" "$root" --buildtype=release >/dev/null
else
	meson setup "$build" "$root" --buildtype=release >/dev/null
fi
ninja -C "$build" >/dev/null
skel="$build/bench/dpdk_skeleton_bench"
bench="$build/tools/bench/softdoca-bench"
for p in "$skel" "$bench"; do
	[ -x "$p" ] || { echo "compare-dpdk: $p was not built" >&2; exit 2; }
done

# The first two CPUs this process may use: the application thread's and
# the skeleton worker's.
. "$root/bench/allowed-cpus.sh"
app_cpu=${cpus[0]}
worker_cpu=${cpus[1]:-${cpus[0]}}
echo "application threads on CPU $app_cpu, skeleton worker on CPU $worker_cpu"
if [ "$worker_cpu" = "$app_cpu" ]; then
	echo "compare-dpdk: only one CPU here: the skeleton's worker shares it (DPDK will look worse than it is)"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A driver .so that EAL does not load by itself (a DPDK without a plugin
# directory) is passed with -d on a second try.
skeleton_so=$(find "$(pkg-config --variable=libdir libdpdk)"/dpdk -name 'librte_dma_skeleton.so' \
	2>/dev/null | head -n 1 || true)
run_skeleton() { # depth, batches, output file
	local eal=(--no-huge -m 256 --no-pci --no-shconf --no-telemetry
		--log-level=lib.eal:warning --log-level=dma.skeleton:warning
		-l "$app_cpu" "--vdev=dma_skeleton0,lcore=$worker_cpu")
	local app=(-- --size 64 --depth "$1" --batch "$2" --duration "$duration_s" --repeat "$repeat"
		--probe-cpu "$worker_cpu")
	local cpuset="$app_cpu,$worker_cpu"
	local out=$3
	if ! taskset -c "$cpuset" "$skel" "${eal[@]}" "${app[@]}" >"$out" 2>&1; then
		if grep -q "no dma_skeleton device" "$out" && [ -n "$skeleton_so" ]; then
			taskset -c "$cpuset" "$skel" "${eal[@]}" -d "$skeleton_so" "${app[@]}" >"$out" 2>&1 || true
		fi
	fi
	sed 's/^/  /' "$out"
	grep -q '^BEST .*errors=0' "$out" || { echo "compare-dpdk: the DPDK run failed" >&2; exit 2; }
}
field() { # file, line prefix (BEST or "RESULT batch=1"), key
	sed -n "s/^$2\( .*\)\{0,1\} $3=\([0-9.]*\).*/\2/p" "$1"
}

step "DPDK dma_skeleton, 64 B, 32 in flight"
run_skeleton 32 1,4,8,16 "$tmp/skel32.txt"

step "softdoca-bench --job-size 64 --queue-depth 32 --duration $duration --repeat $repeat"
taskset -c "$app_cpu" "$bench" --job-size 64 --queue-depth 32 --duration "$duration" \
	--repeat "$repeat" --csv "$tmp/softdoca.csv" | sed 's/^/  /' ||
	{ echo "compare-dpdk: softdoca-bench failed" >&2; exit 2; }

step "softdoca-bench, the same, copies on one DMA worker thread on CPU $worker_cpu (async engine)"
SOFTDOCA_DMA_WORKERS=1 SOFTDOCA_DMA_WORKER_CPUS=$worker_cpu taskset -c "$app_cpu,$worker_cpu" "$bench" \
	--job-size 64 --queue-depth 32 --duration "$duration" --repeat "$repeat" --csv "$tmp/async.csv" |
	sed 's/^/  /' || { echo "compare-dpdk: softdoca-bench (async) failed" >&2; exit 2; }

step "DPDK dma_skeleton, 64 B, as many in flight as its ring takes"
run_skeleton max 1,64 "$tmp/skelmax.txt"

# CSV columns: ...,method(5),...,jobs_per_s(9),...,cpu_share(17),errors(18)
read -r sd_rate sd_cpu sd_err < <(awk -F, '$5 == "dma" && $6 == 64 { print $9, $17, $18 }' "$tmp/softdoca.csv")
[ "${sd_err:-1}" = 0 ] || { echo "compare-dpdk: softdoca-bench reported errors" >&2; exit 2; }
read -r as_rate as_cpu as_err < <(awk -F, '$5 == "dma" && $6 == 64 { print $9, $17, $18 }' "$tmp/async.csv")
[ "${as_err:-1}" = 0 ] || { echo "compare-dpdk: softdoca-bench (async) reported errors" >&2; exit 2; }
d32=$(field "$tmp/skel32.txt" BEST ops_per_s)
d32_batch=$(field "$tmp/skel32.txt" BEST batch)
d32_ns=$(field "$tmp/skel32.txt" BEST cpu_per_op_ns)
plain=$(field "$tmp/skel32.txt" "RESULT batch=1" ops_per_s)
plain_worst=$(field "$tmp/skel32.txt" "RESULT batch=1" worst_ops_per_s)
dmax=$(field "$tmp/skelmax.txt" BEST ops_per_s)
dmax_depth=$(field "$tmp/skelmax.txt" BEST depth)
dmax_ns=$(field "$tmp/skelmax.txt" BEST cpu_per_op_ns)
probes() { # file: "before .. after" in ns, or "not measured"
	local b a
	b=$(field "$1" "PROBE when=before" round_trip_ns)
	a=$(field "$1" "PROBE when=after" round_trip_ns)
	if [ -n "$b" ] && [ -n "$a" ]; then echo "$b ns before, $a ns after"; else echo "not measured"; fi
}

for v in "$sd_rate" "$as_rate" "$d32" "$plain" "$plain_worst" "$dmax"; do
	[ -n "$v" ] || { echo "compare-dpdk: a rate is missing from the output above" >&2; exit 2; }
done

step "result (64 B copies per second, best of $repeat x $duration)"
awk -v sd="$sd_rate" -v sdc="$sd_cpu" -v as="$as_rate" -v d32="$d32" -v d32b="$d32_batch" -v d32ns="$d32_ns" \
	-v plain="$plain" -v plainw="$plain_worst" \
	-v dmax="$dmax" -v dmaxd="$dmax_depth" -v dmaxns="$dmax_ns" 'BEGIN {
	sdns = sdc * 1e9 / sd
	line = "  %-46s %8.2f M/s  %6.1f CPU-ns/copy (%s)\n"
	printf line, "softdoca DMA memcpy tasks, 32 in flight", sd / 1e6, sdns, "1 CPU"
	printf "  %-46s %8.2f M/s  (2 CPUs: the program thread and one DMA worker)\n", "softdoca, copies on one DMA worker (async)", as / 1e6
	printf line, "DPDK dma_skeleton, 32 in flight, batch " d32b, d32 / 1e6, d32ns, "2 CPUs"
	printf "  %-46s %8.2f M/s  (worst run %.2f M/s)\n", "DPDK dma_skeleton, 32 in flight, batch 1", plain / 1e6, plainw / 1e6
	printf line, "DPDK dma_skeleton, " dmaxd " in flight", dmax / 1e6, dmaxns, "2 CPUs"
	r = sd / d32
	printf "\n  softdoca / DPDK at the same depth (32), DPDK at its best: %.2fx  (target >= 3x: %s)\n", r, (r >= 3 ? "met" : "NOT met")
	printf "  softdoca / DPDK plain loop (batch 1), its best .. worst:  %.2fx .. %.2fx\n", sd / plain, sd / plainw
	printf "  softdoca / DPDK at its largest ring:                      %.2fx\n", sd / dmax
	ra = as / d32
	printf "\n  async: softdoca on one DMA worker / DPDK at depth 32 (both 2 CPUs): %.2fx  (target >= 2x: %s)\n", ra, (ra >= 2 ? "met" : "NOT met")
	printf "  async: softdoca on one DMA worker / DPDK at its largest ring:       %.2fx\n", as / dmax
	printf "  CPU time per copy, DPDK at its best / softdoca:           %.2fx\n", d32ns / sdns
}'
echo "  cache-line round trip CPU $app_cpu <-> CPU $worker_cpu: $(probes "$tmp/skel32.txt") the depth-32 runs;" \
	"$(probes "$tmp/skelmax.txt") the largest-ring runs"
echo "  (the skeleton is slower when this is long: the host placed the two CPUs far apart)"
