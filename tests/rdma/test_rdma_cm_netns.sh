#!/usr/bin/env bash
# test_rdma_cm_netns.sh - the RDMA connection manager across two network
# namespaces joined by a veth pair (tools/netns-pair.sh): each device of a
# topology file gets the address of its side, the server listens on the
# DPU device's address, the client connects to it, writes into the
# server's memory and disconnects (rdma_cm_netns_side.c).
#
#   test_rdma_cm_netns.sh          the two sides share one PID namespace (the
#                                  peer is checked through /proc)
#   test_rdma_cm_netns.sh pidns    each side has its own PID namespace too, as
#                                  in two containers, and SOFTDOCA_PEER names
#                                  the other (the peer is asked over UCX)
# Needs root; exits 77 (skipped) where namespaces cannot be made.
#
# Environment: ROOT (the source tree), SIDE (the built rdma_cm_netns_side).
set -u
mode=${1:-shared}
. "$ROOT/tools/netns-pair.sh"
netns_pair_usable || { echo "SKIP: $NETNS_WHY"; exit 77; }
netns_pair_up rdmacm || { echo "FAIL: $NETNS_WHY"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-rdmacm.XXXXXX")
srv_pid=""
cleanup() {
	[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null
	netns_pair_down
	rm -rf "$work"
}
trap cleanup EXIT
cat >"$work/topology" <<TOPO
[device 03:00.0]
side = dpu
ipv4 = $ADDR_DPU

[rep b1:00.0]

[device b1:00.0]
side = host
ipv4 = $ADDR_HOST
TOPO
export SOFTDOCA_TOPOLOGY="$work/topology"
in_ns() { # NS PEER_ADDR CMD...: CMD in NS, in a PID namespace of its own with `pidns`
	local ns=$1 peer=$2
	shift 2
	if [ "$mode" = pidns ]; then
		"$ROOT/tools/netns-run.sh" "$ns" env SOFTDOCA_PEER="$peer" "$@"
	else
		ip netns exec "$ns" "$@"
	fi
}
in_ns "$NS_DPU" "$ADDR_HOST" "$SIDE" server "$work" >"$work/server.log" 2>&1 &
srv_pid=$!
rc=0
# Each side bounds its own waits (10 s each); meson's timeout bounds the whole.
in_ns "$NS_HOST" "$ADDR_DPU" "$SIDE" client "$work" "$ADDR_DPU" >"$work/client.log" 2>&1 || rc=$?
wait "$srv_pid"
srv_rc=$?
srv_pid=""
if [ "$rc" != 0 ] || [ "$srv_rc" != 0 ]; then
	echo "FAIL: client exit $rc, server exit $srv_rc"
	tail -5 "$work/client.log" "$work/server.log"
	exit 1
fi
echo "PASS: connected, wrote and disconnected across two network namespaces ($mode PID namespace)"
