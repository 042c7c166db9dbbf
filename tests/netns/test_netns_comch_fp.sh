#!/usr/bin/env bash
# test_netns_comch_fp.sh CASE - the Comch fast path between two network
# namespaces (and two PID namespaces): Comch over TCP (SOFTDOCA_PEER), the
# consumer's posts and filled slots as frames on the connection, the bytes
# through a UCX import of the consumer's mmap.  Both sides are
# tests/comch/fp_pair, asleep in epoll on their PEs' handles between events.
#
#   messages_land_and_wake_the_consumer   a DPU-side consumer receives 60
#                        messages of 1 byte to 64 KiB from a host-side
#                        producer, every byte, the immediate data and the
#                        order checked, each landing waking it
#   consumer_that_never_posts            the producer gets DOCA_ERROR_AGAIN
#                        until the consumer stops, then DOCA_ERROR_NOT_FOUND
#   killed_producer_fails_posted_receives the producer is SIGKILLed
#                        mid-stream: the consumer's posted receives fail with
#                        DOCA_ERROR_NOT_CONNECTED within 2 s (plus slack for
#                        a loaded machine), the consumer asleep all along
#   killed_consumer_fails_the_sends      the consumer is SIGKILLed mid-stream:
#                        the producer's next send fails (DOCA_ERROR_NOT_CONNECTED,
#                        or DOCA_ERROR_IO_FAILED when the UCX write finds it
#                        dead first) within 2.5 s
set -uo pipefail

case_name=${1:?usage: test_netns_comch_fp.sh CASE}
. "$ROOT/tests/netns/netns_lib.sh"
command -v "$FP_PAIR" >/dev/null || nl_fail "FP_PAIR is not set"
nl_setup "fp${case_name//_/}"
name="netns-fp-$$"

consumer() { # ARGS... (in the background; output in $WORK/cons.out)
	: >"$WORK/cons.out"
	(exec env SOFTDOCA_PEER="$ADDR_HOST" SOFTDOCA_SDK_LOG=warning ip netns exec "$NS_DPU" unshare --pid --fork \
		--mount-proc --kill-child timeout 90 "$FP_PAIR" consumer "$name" "$@" >"$WORK/cons.out" 2>&1) &
	CONS_PID=$!
}

producer() { # ARGS... (in the background; output in $WORK/prod.out)
	: >"$WORK/prod.out"
	(exec env SOFTDOCA_PEER="$ADDR_DPU" SOFTDOCA_SDK_LOG=warning ip netns exec "$NS_HOST" unshare --pid --fork \
		--mount-proc --kill-child timeout 90 "$FP_PAIR" producer "$name" "$@" >"$WORK/prod.out" 2>&1) &
	PROD_PID=$!
}

expect_line() { # FILE REGEX WHAT
	grep -Eq "$2" "$1" || nl_fail "$3: $(cat "$WORK/cons.out" "$WORK/prod.out")"
}

case "$case_name" in
messages_land_and_wake_the_consumer)
	consumer 60
	producer 60
	wait "$CONS_PID" || nl_fail "the consumer failed: $(cat "$WORK/cons.out")"
	wait "$PROD_PID" || nl_fail "the producer failed: $(cat "$WORK/prod.out")"
	cat "$WORK/cons.out" "$WORK/prod.out"
	expect_line "$WORK/cons.out" '^ok received 60 wakes=[1-9]' "the consumer did not get 60 messages"
	expect_line "$WORK/prod.out" '^ok sent 60 ' "the producer did not send 60 messages"
	;;
consumer_that_never_posts)
	consumer 1 never
	producer 1 never
	wait "$CONS_PID" || nl_fail "the consumer failed: $(cat "$WORK/cons.out")"
	wait "$PROD_PID" || nl_fail "the producer failed: $(cat "$WORK/prod.out")"
	cat "$WORK/cons.out" "$WORK/prod.out"
	expect_line "$WORK/prod.out" '^ok never again=[1-9][0-9]* then DOCA_ERROR_NOT_FOUND' "the producer saw something else"
	;;
killed_producer_fails_posted_receives)
	consumer 0
	producer 0
	for _ in $(seq 1 400); do
		grep -q '^receiving' "$WORK/cons.out" && break
		sleep 0.05
	done
	sleep 1 # let messages flow
	kill -KILL "$PROD_PID"
	wait "$CONS_PID" || nl_fail "the consumer failed: $(cat "$WORK/cons.out")"
	cat "$WORK/cons.out"
	line=$(grep '^lost' "$WORK/cons.out")
	case "$line" in
	"lost DOCA_ERROR_NOT_CONNECTED after_ms="*) ;;
	*) nl_fail "expected the receives to fail with DOCA_ERROR_NOT_CONNECTED, got: ${line:-nothing}" ;;
	esac
	got=${line#*received=}
	[ "$got" -gt 0 ] || nl_fail "no message landed before the kill"
	after=${line#*after_ms=}
	after=${after%% *}
	[ "$after" -le 2500 ] || nl_fail "the loss took ${after} ms (bound 2500 ms)"
	;;
killed_consumer_fails_the_sends)
	consumer 0
	producer 0
	for _ in $(seq 1 400); do
		grep -q '^receiving' "$WORK/cons.out" && break
		sleep 0.05
	done
	sleep 1 # let messages flow
	kill -KILL "$CONS_PID"
	wait "$PROD_PID" || nl_fail "the producer failed: $(cat "$WORK/prod.out")"
	cat "$WORK/prod.out"
	line=$(grep '^lost' "$WORK/prod.out")
	case "$line" in
	"lost DOCA_ERROR_NOT_CONNECTED after_ms="* | "lost DOCA_ERROR_IO_FAILED after_ms="*) ;;
	*) nl_fail "expected a send to fail with NOT_CONNECTED or IO_FAILED, got: ${line:-nothing}" ;;
	esac
	after=${line#*after_ms=}
	after=${after%% *}
	[ "$after" -le 2500 ] || nl_fail "the loss took ${after} ms (bound 2500 ms)"
	;;
*)
	nl_fail "unknown case $case_name"
	;;
esac
echo "PASS $case_name"
