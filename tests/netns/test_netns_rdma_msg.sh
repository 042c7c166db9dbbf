#!/usr/bin/env bash
# test_netns_rdma_msg.sh CASE - DOCA RDMA messages between two network and
# PID namespaces joined by a veth pair, carried as UCX active messages: the
# receiver (host side) posts receives and only progresses its PE, the sender
# (DPU side) runs sends, sends with immediate and writes with immediate.
# One case per run (tests/netns/meson.build lists them):
#
#   sends_and_immediates_fill_receives_in_order   a send, a send with
#                        immediate, a write with immediate, a send from a
#                        three-buffer list and 48 sends in flight: each
#                        receive reports the opcode, length, immediate and
#                        bytes the sender gave, in the order sent; then an
#                        RDMA write and a read of it back
#   too_long_message_fails_both_sides   a 16 KiB send into 8 KiB receives:
#                        the send and the receive fail with IO_FAILED
#   rnr_budget_fails_a_send_nobody_receives   no receive posted, RNR retry
#                        count 1 (110 ms): the send fails with IO_FAILED
#                        after about that long
#   late_receive_gets_the_held_message   the receive is posted 500 ms after
#                        the send (within the 2 s budget): both succeed
#   stop_flushes_each_send_once   8 sends the receiver holds (no receive
#                        posted), then the sender stops its context: each
#                        send is reported once, flushed; none reaches a
#                        receive posted afterwards
#   killed_receiver_fails_sends_within_bound   the receiver is SIGKILLed in
#                        the middle of a stream of sends: a send fails with
#                        DOCA_ERROR_NOT_CONNECTED within the liveness bound
#   cut_link_fails_sends_within_bound   the link goes down instead
#   event_mode_CASE      CASE with both programs in event mode: each sleeps
#                        on its PE's notification handle and progresses only
#                        when woken, so every arrival, answer, completion,
#                        RNR deadline and failure must wake it; each side
#                        still running at the end says it was woken, and the
#                        receiver fewer than 5000 times (no busy wake-up)
#
# The engine comes from the environment (meson runs each case with the
# default engine and with SOFTDOCA_DMA_WORKERS=1).  With RDMA_MSG_ONE_MACHINE=1
# both sides run in this namespace instead, with SOFTDOCA_XPROC_PATH=ucx (the
# same UCX path over the loopback, no root needed; no link to cut there).
set -uo pipefail

case_name=${1:?usage: test_netns_rdma_msg.sh CASE}
. "$ROOT/tests/netns/netns_lib.sh"

ev=()
if [ "${case_name#event_mode_}" != "$case_name" ]; then
	ev=(--event 1)
	case_name=${case_name#event_mode_}
fi

HOST_PCI=0000:b1:00.0
DPU_PCI=0000:03:00.0
# The liveness bound is 1 s; 2 s of slack keep a loaded 2-core machine from failing the case.
BOUND_MS=3000

if [ "${RDMA_MSG_ONE_MACHINE:-0}" = 1 ]; then
	[ "$case_name" = cut_link_fails_sends_within_bound ] && nl_skip "one machine has no link to cut"
	[ "${SD_UCX_MODULE:-none}" != none ] && [ -f "$SD_UCX_MODULE" ] || nl_skip "built without the UCX transport"
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-rmsg.XXXXXX") || nl_fail "no scratch folder"
	trap 'rm -rf "$WORK"' EXIT
	host_side=(env SOFTDOCA_XPROC_PATH=ucx)
	dpu_side=(env SOFTDOCA_XPROC_PATH=ucx)
else
	nl_setup "rmsg${case_name//_/}"
	host_side=(env SOFTDOCA_PEER="$ADDR_DPU" ip netns exec "$NS_HOST" unshare --pid --fork --mount-proc --kill-child)
	dpu_side=(env SOFTDOCA_PEER="$ADDR_HOST" ip netns exec "$NS_DPU" unshare --pid --fork --mount-proc --kill-child)
fi

# receiver ARGS... - start the receiver on the host side; its output in $WORK/recv.out.
receiver() {
	(exec env SOFTDOCA_SDK_LOG=warning "${host_side[@]}" \
		"$NETNS_RDMA_MSG" recv --dir "$WORK" --dev "$HOST_PCI" "${ev[@]}" "$@" >"$WORK/recv.out" 2>"$WORK/recv.err") &
	RECV_PID=$!
	for _ in $(seq 1 400); do
		grep -q -E '^(ready|err)' "$WORK/recv.out" 2>/dev/null && break
		sleep 0.05
	done
	grep -q '^ready' "$WORK/recv.out" || nl_fail "receiver did not start: $(cat "$WORK/recv.out" "$WORK/recv.err")"
}

# sender OPS [ARGS...] - run the sender in the DPU namespace to its end; its output in $OUT.
sender() {
	local ops=$1
	shift
	OUT=$(timeout 90 env SOFTDOCA_SDK_LOG=warning "${dpu_side[@]}" \
		"$NETNS_RDMA_MSG" send --dir "$WORK" --dev "$DPU_PCI" --ops "$ops" "${ev[@]}" "$@" 2>"$WORK/send.err")
}

sender_bg() {
	(exec timeout 90 env SOFTDOCA_SDK_LOG=warning "${dpu_side[@]}" \
		"$NETNS_RDMA_MSG" send --dir "$WORK" --dev "$DPU_PCI" --ops "$1" "${ev[@]}" >"$WORK/send.out" 2>"$WORK/send.err") &
	SEND_PID=$!
}

expect_line() {
	grep -qxF "$1" <<<"$OUT" || nl_fail "expected the line '$1'; got: $OUT; $(tail -5 "$WORK/send.err")"
}

# expect_recv LINE - the receiver printed LINE (waits up to 10 s for it).
expect_recv() {
	for _ in $(seq 1 200); do
		grep -qxF "$1" "$WORK/recv.out" && return 0
		sleep 0.05
	done
	nl_fail "the receiver did not print '$1': $(cat "$WORK/recv.out"); $(tail -5 "$WORK/recv.err")"
}

stop_receiver() {
	: >"$WORK/stop"
	wait "$RECV_PID" 2>/dev/null
}

# woken WHO FILE [MAX] - in event mode, WHO printed "wakeups N" in FILE with 0 < N (< MAX).
woken() {
	[ ${#ev[@]} -eq 0 ] && return 0
	local n
	n=$(grep -o '^wakeups [0-9]*' "$2" | cut -d' ' -f2)
	[ -n "$n" ] && [ "$n" -gt 0 ] || nl_fail "the $1 was never woken by its notification handle: $(cat "$2")"
	[ -z "${3:-}" ] || [ "$n" -lt "$3" ] || nl_fail "the $1 was woken $n times: its handle does not stay quiet"
}

case "$case_name" in
sends_and_immediates_fill_receives_in_order)
	receiver --post 8 --buf 8192
	sender send,sendimm,writeimm,list,burst,write,read
	for op in send sendimm writeimm list burst write read; do
		expect_line "$op ok"
	done
	expect_recv "recv DOCA_SUCCESS op=0 len=64 imm=0 seq=1 content=ok"
	expect_recv "recv DOCA_SUCCESS op=1 len=100 imm=abcd0102 seq=2 content=ok"
	expect_recv "recv DOCA_SUCCESS op=2 len=4096 imm=1020304 seq=0 content=ok"
	expect_recv "recv DOCA_SUCCESS op=0 len=600 imm=0 seq=3 content=ok"
	expect_recv "recv DOCA_SUCCESS op=0 len=64 imm=0 seq=147 content=ok"
	stop_receiver
	seqs=$(grep '^recv DOCA_SUCCESS' "$WORK/recv.out" | grep -o 'seq=[0-9]*' | cut -d= -f2 | tr '\n' ' ')
	want="1 2 0 3 $(seq -s ' ' 100 147) "
	[ "$seqs" = "$want" ] || nl_fail "the receives saw the messages in the order '$seqs', not '$want'"
	grep -q 'content=bad' "$WORK/recv.out" && nl_fail "a receive holds other bytes than sent: $(cat "$WORK/recv.out")"
	woken sender <(echo "$OUT")
	woken receiver "$WORK/recv.out" 5000
	;;
too_long_message_fails_both_sides)
	receiver --post 1 --buf 8192
	sender big
	grep -q '^big err DOCA_ERROR_IO_FAILED' <<<"$OUT" || nl_fail "expected the big send to fail with IO_FAILED: $OUT"
	expect_recv "recv DOCA_ERROR_IO_FAILED op=0 len=0 imm=0 seq=0 content=ok"
	stop_receiver
	woken sender <(echo "$OUT")
	woken receiver "$WORK/recv.out" 5000
	;;
rnr_budget_fails_a_send_nobody_receives)
	receiver --post 0
	sender send --rnr-retry 1
	line=$(grep '^send ' <<<"$OUT")
	case "$line" in
	"send err DOCA_ERROR_IO_FAILED ms="*) ;;
	*) nl_fail "expected the send to fail with IO_FAILED, got: ${line:-nothing}; $(tail -3 "$WORK/send.err")" ;;
	esac
	ms=${line#*ms=}
	[ "$ms" -ge 100 ] && [ "$ms" -le "$BOUND_MS" ] || nl_fail "the RNR failure took $ms ms, not about 110 ms"
	grep -q 'RNR' "$WORK/send.err" || nl_fail "no record names the RNR budget: $(cat "$WORK/send.err")"
	stop_receiver
	woken sender <(echo "$OUT")
	woken receiver "$WORK/recv.out" 5000
	;;
late_receive_gets_the_held_message)
	# A sleeping receiver holds the message past the 1 s liveness bound: its
	# timer must keep telling the sender it lives.
	after=500
	[ ${#ev[@]} -eq 0 ] || after=1300
	receiver --post 1 --post-after-ms "$after"
	sender send
	expect_line "send ok"
	expect_recv "recv DOCA_SUCCESS op=0 len=64 imm=0 seq=1 content=ok"
	stop_receiver
	woken sender <(echo "$OUT")
	woken receiver "$WORK/recv.out" 5000
	;;
stop_flushes_each_send_once)
	receiver --post 1 --post-after-ms 1500
	sender stopflush
	expect_line "stopflush ok"
	woken sender <(echo "$OUT")
	sleep 1.5
	stop_receiver
	grep -q '^recv DOCA_SUCCESS' "$WORK/recv.out" && nl_fail "a flushed send still filled a receive: $(cat "$WORK/recv.out")"
	;;
killed_receiver_fails_sends_within_bound | cut_link_fails_sends_within_bound)
	receiver --post 8
	sender_bg stream
	nl_await_running "$WORK/send.out" "$WORK/send.err"
	sleep 0.2
	if [ "$case_name" = cut_link_fails_sends_within_bound ]; then
		netns_link down
	else
		kill -KILL "$RECV_PID"
	fi
	wait "$SEND_PID"
	[ "$case_name" = cut_link_fails_sends_within_bound ] && netns_link up
	nl_stream_failed_within "$(cat "$WORK/send.out")" DOCA_ERROR_NOT_CONNECTED "$BOUND_MS"
	woken sender "$WORK/send.out"
	[ "$case_name" = cut_link_fails_sends_within_bound ] && stop_receiver
	;;
*)
	nl_fail "unknown case $case_name"
	;;
esac
echo "PASS $case_name"
exit 0
