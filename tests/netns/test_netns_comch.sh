#!/usr/bin/env bash
# test_netns_comch.sh CASE - Comch between two network namespaces, over TCP
# (each side given SOFTDOCA_PEER=<the other's address>):
#
#   messages_cross_namespaces        a DPU-side server echoes 300 messages of
#                                    1 to 4080 bytes from a host-side client
#   killed_server_is_seen_at_once    the server is SIGKILLed: the client's
#                                    link ends within 1 s
#   cut_link_is_seen_within_bound    the link goes down: the client's link
#                                    ends within 4 s (TCP keepalive / user
#                                    timeout of 2 s, then the kernel's
#                                    retransmission clock), plus 0.5 s of slack
set -uo pipefail

case_name=${1:?usage: test_netns_comch.sh CASE}
. "$ROOT/tests/netns/netns_lib.sh"
command -v "$NETNS_COMCH" >/dev/null || nl_fail "NETNS_COMCH is not set"
nl_setup "comch${case_name//_/}"

name="netns-comch-$$"
start_server() {
	: >"$WORK/srv.out"
	(exec env SOFTDOCA_PEER="$ADDR_HOST" SOFTDOCA_SDK_LOG=warning ip netns exec "$NS_DPU" unshare --pid --fork \
		--mount-proc --kill-child "$NETNS_COMCH" server "$name" >"$WORK/srv.out" 2>&1) &
	SRV_PID=$!
	for _ in $(seq 1 200); do
		grep -q listening "$WORK/srv.out" && return 0
		sleep 0.05
	done
	nl_fail "the server did not start: $(cat "$WORK/srv.out")"
}

client() { # COUNT [hold]
	timeout 60 env SOFTDOCA_PEER="$ADDR_DPU" SOFTDOCA_SDK_LOG=warning ip netns exec "$NS_HOST" unshare --pid --fork \
		--mount-proc --kill-child "$NETNS_COMCH" client "$name" "$@"
}

# A client holding the link, then FAULT; the loss must show within LIMIT ms.
lost_within() {
	local fault=$1 limit=$2 line after
	start_server
	client 5 hold >"$WORK/cli.out" 2>&1 &
	local cli=$!
	for _ in $(seq 1 400); do
		grep -q '^ok echoed' "$WORK/cli.out" && break
		sleep 0.05
	done
	grep -q '^ok echoed' "$WORK/cli.out" || nl_fail "the client never talked: $(cat "$WORK/cli.out")"
	sleep 0.3
	"$fault"
	wait "$cli"
	line=$(grep '^lost' "$WORK/cli.out")
	echo "client: $line"
	[ -n "$line" ] || nl_fail "the client did not notice: $(cat "$WORK/cli.out")"
	after=${line#*after_ms=}
	[ "$after" -le "$limit" ] || nl_fail "the loss took ${after} ms (bound ${limit} ms)"
}

kill_server() { kill -KILL "$SRV_PID"; }
cut_link() { netns_link down; }

case "$case_name" in
messages_cross_namespaces)
	start_server
	out=$(client 300)
	echo "client: $out"
	[ "$(tail -n1 <<<"$out")" = "ok echoed 300" ] || nl_fail "expected 300 echoes: $out"
	wait "$SRV_PID"
	grep -q '^disconnected' "$WORK/srv.out" || nl_fail "the server saw no disconnect: $(cat "$WORK/srv.out")"
	;;
killed_server_is_seen_at_once)
	lost_within kill_server 1000
	;;
cut_link_is_seen_within_bound)
	lost_within cut_link 4500
	netns_link up
	;;
*)
	nl_fail "unknown case $case_name"
	;;
esac
echo "PASS $case_name"
