#!/usr/bin/env bash
# test_netns_sync_event.sh CASE - a sync event shared by a "DPU" process in
# one network and PID namespace and a "host" process in another (the
# shared page lives in /dev/shm, which both see):
#
#   ping_pong_cross_namespaces    CPU updates and waits both ways
#   wait_task_cross_namespaces    the host waits with a wait task, its PE
#                                 asleep on the notification handle
#   killed_exporter_fails_waiter  the exporter is SIGKILLed while the host
#                                 waits: the wait fails with IO_FAILED
#                                 within 1 s (20 ms lock check, plus process
#                                 and namespace teardown)
set -uo pipefail

case_name=${1:?usage: test_netns_sync_event.sh CASE}
. "$ROOT/tests/netns/netns_lib.sh"
command -v "$NETNS_SYNC_EVENT" >/dev/null || nl_fail "NETNS_SYNC_EVENT is not set"
nl_setup "se${case_name//_/}"

in_ns() { # NS CMD... - as a container would run it
	ip netns exec "$1" unshare --pid --fork --mount-proc --kill-child "${@:2}"
}

start_exporter() { # [hold]
	: >"$WORK/exp.out"
	(exec env SOFTDOCA_SDK_LOG=warning ip netns exec "$NS_DPU" unshare --pid --fork --mount-proc --kill-child \
		"$NETNS_SYNC_EVENT" export "$WORK/desc" "$@" >"$WORK/exp.out" 2>&1) &
	EXP_PID=$!
	for _ in $(seq 1 200); do
		grep -q '^ready' "$WORK/exp.out" && return 0
		sleep 0.05
	done
	nl_fail "the exporter did not start: $(cat "$WORK/exp.out")"
}

ping_pong() { # [task]
	start_exporter
	out=$(timeout 30 env SOFTDOCA_SDK_LOG=warning ip netns exec "$NS_HOST" unshare --pid --fork --mount-proc \
		--kill-child "$NETNS_SYNC_EVENT" import "$WORK/desc" "$@" 2>&1)
	echo "host: $out"
	[ "$(tail -n1 <<<"$out")" = ok ] || nl_fail "the host side did not finish: $out"
	wait "$EXP_PID" || nl_fail "the exporter failed: $(cat "$WORK/exp.out")"
	grep -q '^done' "$WORK/exp.out" || nl_fail "the exporter did not see the host's answer: $(cat "$WORK/exp.out")"
}

case "$case_name" in
ping_pong_cross_namespaces)
	ping_pong
	;;
wait_task_cross_namespaces)
	ping_pong task
	;;
killed_exporter_fails_waiter)
	start_exporter hold
	: >"$WORK/imp.out"
	(exec env SOFTDOCA_SDK_LOG=warning ip netns exec "$NS_HOST" unshare --pid --fork --mount-proc --kill-child \
		"$NETNS_SYNC_EVENT" import-dies "$WORK/desc" >"$WORK/imp.out" 2>&1) &
	imp=$!
	for _ in $(seq 1 200); do
		grep -q '^waiting' "$WORK/imp.out" && break
		sleep 0.05
	done
	grep -q '^waiting' "$WORK/imp.out" || nl_fail "the host never waited: $(cat "$WORK/imp.out")"
	sleep 0.2
	t0=${EPOCHREALTIME/./}
	kill -KILL "$EXP_PID"
	wait "$imp"
	rc=$?
	t1=${EPOCHREALTIME/./}
	ms=$(((t1 - t0) / 1000))
	echo "host: $(cat "$WORK/imp.out") (after ${ms} ms, exit $rc)"
	grep -q '^failed DOCA_ERROR_IO_FAILED' "$WORK/imp.out" || nl_fail "the wait did not fail with IO_FAILED"
	[ "$ms" -le 1000 ] || nl_fail "the failure took ${ms} ms (bound 1000 ms)"
	;;
*)
	nl_fail "unknown case $case_name"
	;;
esac
echo "PASS $case_name"
