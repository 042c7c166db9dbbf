#!/usr/bin/env bash
# test_netns_rdma_sync_event.sh - DOCA RDMA's remote-net sync event tasks
# between two network and PID namespaces joined by a veth pair, the
# exporter with a /dev/shm of its own (as a container without the host's),
# so the event's value can only be reached over the network (UCX atomics on
# the RDMA export of the event's page):
#
#   the exporter (DPU namespace) exports the event with a network part in
#   its descriptor and polls its value; the importer (host namespace) runs
#   get, notify-set, notify-add and gets until the exporter's own update,
#   then adds; both sides check every value (tests/netns/netns_rdma_se.c).
set -uo pipefail

. "$ROOT/tests/netns/netns_lib.sh"
command -v "$NETNS_RDMA_SE" >/dev/null || nl_fail "NETNS_RDMA_SE is not set"
nl_setup "rdmase"

: >"$WORK/exp.out"
# exec all the way down: $! is then unshare itself, whose death kills the exporter.
(exec env SOFTDOCA_PEER="$ADDR_HOST" SOFTDOCA_SDK_LOG=warning ip netns exec "$NS_DPU" \
	unshare --pid --fork --mount-proc --kill-child \
	sh -c 'mount -t tmpfs -o size=16m softdoca-shm /dev/shm && exec "$0" export "$1"' "$NETNS_RDMA_SE" "$WORK" \
	>"$WORK/exp.out" 2>"$WORK/exp.err") &
EXP_PID=$!
for _ in $(seq 1 200); do
	grep -q -E '^(ready|fail)' "$WORK/exp.out" && break
	sleep 0.05
done
read -r word len < <(grep '^ready' "$WORK/exp.out") || true
[ "${word:-}" = ready ] || nl_fail "the exporter did not start: $(cat "$WORK/exp.out" "$WORK/exp.err")"
[ "${len:-0}" -gt 128 ] || nl_fail "the descriptor ($len bytes) carries no network part"

OUT=$(timeout 60 env SOFTDOCA_PEER="$ADDR_DPU" SOFTDOCA_SDK_LOG=warning ip netns exec "$NS_HOST" \
	unshare --pid --fork --mount-proc --kill-child "$NETNS_RDMA_SE" import "$WORK" 0000:b1:00.0 2>"$WORK/imp.err")
echo "importer: $OUT"
[ "$OUT" = ok ] || nl_fail "the importer did not finish: $OUT; $(grep -v "at exit" "$WORK/imp.err" | tail -n 8); exporter: $(cat "$WORK/exp.out" "$WORK/exp.err" | tail -n 20)"
wait "$EXP_PID" || nl_fail "the exporter failed: $(cat "$WORK/exp.out" "$WORK/exp.err")"
grep -q '^done' "$WORK/exp.out" || nl_fail "the exporter did not see the importer's add: $(cat "$WORK/exp.out")"
echo "PASS: remote-net sync event tasks across namespaces, over the network"
