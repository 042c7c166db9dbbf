#!/usr/bin/env bash
# ucx-bench.sh [BUILD_DIR] [SECONDS] [IMPORT_ARGS...] - the cross-namespace benchmark.
# IMPORT_ARGS go to the importing side of both runs (rdma_bench: --tail,
# --inflight N, --messages-only).
#
# PROGRAM=ucx_bench (the default) measures DMA on an import; PROGRAM=rdma_bench
# measures DOCA RDMA read and write tasks the same way (bench/rdma_bench.c),
# and keeps the raw UCX rows in the one-namespace run too, since RDMA's
# baseline on one machine is raw UCX there as well.
#
# Runs bench/$PROGRAM twice:
#   1. host side (exporter) and DPU side (importer) in two network and PID
#      namespaces joined by a veth pair (tools/netns-pair.sh), each given
#      SOFTDOCA_PEER=<the other's address>: DMA tasks on the import go over
#      the UCX transport, against raw ucp_get_nbx / ucp_put_nbx on the same
#      buffers in the same run;
#   2. both sides in one namespace without SOFTDOCA_PEER: the import takes
#      today's local path (process_vm_readv/writev), for comparison.
# Prints both tables.  Needs root and a build with the UCX transport.
# Numbers depend on the machine and on what else runs on it: compare the
# ratios measured side by side, not the absolute values.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
seconds=${2:-1}
shift $(($# < 2 ? $# : 2))
extra=("$@")
program=${PROGRAM:-ucx_bench}
case "$program" in
ucx_bench | rdma_bench) ;;
*) echo "ucx-bench: PROGRAM must be ucx_bench or rdma_bench, not $program"; exit 2 ;;
esac
bench=$build/bench/$program
[ -x "$bench" ] || { echo "ucx-bench: $bench is missing (build with the UCX transport, -Ducx=enabled)"; exit 2; }
# One machine: DMA's local path has no raw twin; RDMA is compared with raw UCX on one machine as well.
local_raw=--no-raw
[ "$program" = rdma_bench ] && local_raw=
. "$here/tools/netns-pair.sh"
netns_pair_usable || { echo "ucx-bench: $NETNS_WHY"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-ucx-bench.XXXXXX")
cleanup() {
	exec 7>&- 2>/dev/null
	netns_pair_down
	rm -rf "$work"
}
trap cleanup EXIT
export LD_LIBRARY_PATH="$build/src/common:$build/src/dma:$build/src/rdma${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# side DIR ENV... -- CMD...: start the exporter, wait for "ready".
start_exporter() {
	mkfifo "$work/exp.in.$1"
	: >"$work/exp.out.$1"
	shift
	"$@" <"$work/exp.in.$1" >"$work/exp.out.$1" 2>&1 &
}

run() { # label ns_host ns_dpu peer_host peer_dpu
	local label=$1 dir="$work/$1" i
	mkdir -p "$dir"
	mkfifo "$dir/in"
	if [ "$label" = ucx ]; then
		"$here/tools/netns-run.sh" "$NS_HOST" env SOFTDOCA_PEER="$ADDR_DPU" "$bench" export --dir "$dir" \
			<"$dir/in" >"$dir/out" 2>&1 &
	else
		"$bench" export --dir "$dir" $local_raw <"$dir/in" >"$dir/out" 2>&1 &
	fi
	local pid=$!
	exec 7>"$dir/in"
	for i in $(seq 1 200); do
		grep -q ready "$dir/out" && break
		sleep 0.05
	done
	grep -q ready "$dir/out" || { cat "$dir/out"; echo "ucx-bench: the exporter did not start"; return 1; }
	if [ "$label" = ucx ]; then
		"$here/tools/netns-run.sh" "$NS_DPU" env SOFTDOCA_PEER="$ADDR_HOST" SOFTDOCA_SDK_LOG=error "$bench" import --dir "$dir" \
			--label ucx --seconds "$seconds" "${extra[@]}"
	else
		SOFTDOCA_SDK_LOG=error "$bench" import --dir "$dir" --label local --seconds "$seconds" $local_raw "${extra[@]}"
	fi
	local rc=$?
	exec 7>&-
	wait "$pid"
	return $rc
}

netns_pair_up bench || { echo "ucx-bench: $NETNS_WHY"; exit 1; }
what=DMA
[ "$program" = rdma_bench ] && what=RDMA
status=0
echo "== two namespaces (veth $ADDR_HOST <-> $ADDR_DPU): $what over UCX against raw UCX, $seconds s each per point in 10 alternating slices"
run ucx || status=1
netns_pair_down
echo
if [ "$program" = rdma_bench ]; then
	echo "== one namespace, no SOFTDOCA_PEER: RDMA over the local paths against raw UCX (its shared-memory transports)"
else
	echo "== one namespace, no SOFTDOCA_PEER: DMA over the local path (process_vm_readv/writev)"
fi
run local || status=1
exit $status
