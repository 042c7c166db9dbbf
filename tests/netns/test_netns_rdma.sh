#!/usr/bin/env bash
# test_netns_rdma.sh CASE - DOCA RDMA between two network namespaces (and
# two PID namespaces) joined by a veth pair: the responder (host side)
# exports a connection and memory for RDMA, the requester (DPU side)
# connects and runs one-sided tasks over UCX.  One case per run
# (tests/netns/meson.build lists them):
#
#   one_sided_tasks_cross_namespaces   both sides connect (each checks the
#                        other over the network); read, write,
#                        compare-and-swap and fetch-and-add reach the
#                        responder's memory, which it never progresses
#                        (sends: test_netns_rdma_msg.sh)
#   memory_rights_decided_by_the_exporter   memory exported with RDMA read
#                        only: a write is refused; with the descriptor
#                        altered to claim write and atomic rights, the write
#                        and the atomic are still refused (the exporter's
#                        grant decides) and the memory is unchanged
#   context_rights_decided_by_the_exporter  the responder's context grants
#                        RDMA read only, its blob altered to claim more: a
#                        write is refused (the permissions come from the
#                        responder's own answer), the memory is unchanged
#   forged_blob_token_gets_nothing    a token bit of the blob flipped (the
#                        checksum fixed): connect fails with
#                        DOCA_ERROR_NOT_FOUND, the responder refused it
#   gone_exporter_refuses_the_connection   the responder is killed before
#                        the requester connects: DOCA_ERROR_NOT_FOUND, no hang
#   exporter_without_endpoint_is_refused_clearly   the responder runs without
#                        SOFTDOCA_PEER (no network endpoint):
#                        DOCA_ERROR_NOT_SUPPORTED and a record naming the fix
#   atomics_race_the_exporters_own   1000 fetch-and-adds over the network while
#                        the responder's own thread adds with CPU atomics: the
#                        word ends at the sum of both counts, no add lost
#   killed_exporter_fails_tasks_within_bound   the responder is SIGKILLed in
#                        the middle of a stream of reads: a task fails with
#                        DOCA_ERROR_IO_FAILED within the liveness bound
#                        (1 s) plus slack for a loaded machine
#   cut_link_fails_tasks_within_bound   the link goes down in the middle of a
#                        stream of reads: the same
#   reexported_host_memory_reached_from_another_namespace   the responder's
#                        namespace holds a host process that exports its
#                        memory over PCI and the responder as the DPU, which
#                        imports it and exports the import for RDMA (the
#                        storage application's zero-copy path); the requester
#                        in the other namespace reads, writes and runs atomics
#                        through that descriptor, and the host's own memory
#                        holds the results
#   reexport_fails_once_the_host_stops_its_mmap   the same, the host stopping
#                        its mmap in the middle of a stream of reads: a task
#                        fails with DOCA_ERROR_IO_FAILED within the bound
#   reexport_revoked_by_the_dpu_cuts_off_the_peer   the same, the DPU
#                        destroying its PCI import instead: the host's export
#                        server sees the DPU's relay record retired and cuts
#                        the requester off, whose next read fails with
#                        DOCA_ERROR_IO_FAILED within the bound
#
# The engine comes from the environment (meson runs each case with the
# default engine and with SOFTDOCA_DMA_WORKERS=1).
set -uo pipefail

case_name=${1:?usage: test_netns_rdma.sh CASE}
. "$ROOT/tests/netns/netns_lib.sh"

HOST_PCI=0000:b1:00.0
DPU_PCI=0000:03:00.0
SIZE=$((4 << 20))
ATOM_OFF=$((SIZE - 64))
# The liveness bound is 1 s; 2 s of slack keep a loaded 2-core machine from failing the case.
BOUND_MS=3000

nl_setup "rdma${case_name//_/}"

# respond [PEER_ADDR|none] ARGS... - start the responder in the host namespace.
respond() {
	local peer=$1
	shift
	local penv=(env)
	[ "$peer" != none ] && penv=(env SOFTDOCA_PEER="$peer")
	mkfifo "$WORK/exp.in"
	: >"$WORK/exp.out"
	(exec "${penv[@]}" SOFTDOCA_SDK_LOG=warning ip netns exec "$NS_HOST" unshare --pid --fork --mount-proc --kill-child \
		"$NETNS_RDMA" respond --dir "$WORK" --size "$SIZE" --seed 21 --dev "$HOST_PCI" "$@" \
		<"$WORK/exp.in" >"$WORK/exp.out" 2>"$WORK/exp.err") &
	EXP_PID=$!
	exec 7>"$WORK/exp.in"
	for _ in $(seq 1 400); do
		grep -q -E '^(ready|err)' "$WORK/exp.out" && break
		sleep 0.05
	done
	grep -q '^ready' "$WORK/exp.out" || nl_fail "responder did not start: $(cat "$WORK/exp.out" "$WORK/exp.err")"
}

# request [--go] OPS - run the requester in the DPU namespace; its output in $OUT.
request_fg() {
	OUT=$(timeout 60 env SOFTDOCA_PEER="$ADDR_HOST" SOFTDOCA_SDK_LOG=warning ip netns exec "$NS_DPU" \
		unshare --pid --fork --mount-proc --kill-child \
		"$NETNS_RDMA" request --dir "$WORK" --seed 21 --dev "$DPU_PCI" --ops "$1" 2>"$WORK/req.err")
	echo "requester: $OUT"
}

request_bg() {
	: >"$WORK/req.out"
	timeout 60 env SOFTDOCA_PEER="$ADDR_HOST" SOFTDOCA_SDK_LOG=warning ip netns exec "$NS_DPU" \
		unshare --pid --fork --mount-proc --kill-child \
		"$NETNS_RDMA" request --dir "$WORK" --seed 21 --dev "$DPU_PCI" --ops "$1" --go \
		>"$WORK/req.out" 2>"$WORK/req.err" &
	REQ_PID=$!
	for _ in $(seq 1 400); do
		[ -f "$WORK/qblob" ] && break
		sleep 0.05
	done
	[ -f "$WORK/qblob" ] || nl_fail "the requester wrote no blob: $(cat "$WORK/req.out" "$WORK/req.err")"
}

# The responder connects to the requester's blob (checking it over the network), then the requester goes.
connect_both() {
	local reply
	reply=$(nl_cmd connect)
	[ "$reply" = ok ] || nl_fail "the responder's connect gave: $reply; $(tail -n 5 "$WORK/exp.err")"
	touch "$WORK/go"
}

finish_request() {
	wait "$REQ_PID"
	OUT=$(cat "$WORK/req.out")
	echo "requester: $OUT"
}

# reexport_stream_cut_by CMD WHAT - the re-export under a stream of the requester's reads; CMD to the
# responder ends the way to the host's memory (WHAT says what failed when it answers otherwise); the
# stream's next read fails with DOCA_ERROR_IO_FAILED within the bound.
reexport_stream_cut_by() {
	local reply
	respond "$ADDR_DPU" --reexport --dev "$DPU_PCI"
	request_bg stream
	connect_both
	nl_await_running "$WORK/req.out" "$WORK/req.err"
	reply=$(nl_cmd "$1")
	[ "$reply" = ok ] || nl_fail "$2: $reply"
	finish_request
	nl_stream_failed_within "$OUT" DOCA_ERROR_IO_FAILED "$BOUND_MS"
}

expect_line() {
	grep -q -x -F "$1" <<<"$OUT" || nl_fail "expected the line '$1'; got: $OUT; $(tail -n 5 "$WORK/req.err")"
}

expect_unchanged() {
	local reply
	reply=$(nl_cmd "check 21 $((1 << 20)) $((1 << 20))")
	[ "$reply" = ok ] || nl_fail "the responder's memory changed: $reply"
	reply=$(nl_cmd "word $ATOM_OFF")
	[ "$reply" = "word 0" ] || nl_fail "the atomic word changed: $reply"
}

# forge FILE OFFSET XOR SUM - flip bits of one byte and fix the checksum
# (SUM: fnv32 for a connection blob, fnv64 for an mmap descriptor), as a forger would.
forge() {
	python3 - "$@" <<'PY' || nl_fail "cannot forge $1"
import sys
path, off, xor, kind = sys.argv[1], int(sys.argv[2]), int(sys.argv[3], 0), sys.argv[4]
b = bytearray(open(path, "rb").read())
b[off] ^= xor
if kind == "fnv32":
    h = 2166136261
    for x in b[:-4]:
        h = ((h ^ x) * 16777619) & 0xFFFFFFFF
    b[-4:] = h.to_bytes(4, "little")
else:
    h = 0xcbf29ce484222325
    for x in b[:-8]:
        h = ((h ^ x) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    b[-8:] = h.to_bytes(8, "little")
open(path + ".new", "wb").write(bytes(b))
PY
	mv "$1.new" "$1"
}

# one_sided_tasks_land WHERE - a read, a write and both atomics from the other
# namespace succeed, and WHERE (the responder's memory, or the host's behind a
# re-export) holds the written bytes and the atomics' sum.
one_sided_tasks_land() {
	local reply
	request_bg read,write,cas,fadd
	connect_both
	finish_request
	expect_line "read ok"
	expect_line "write ok"
	expect_line "cas ok old=0"
	expect_line "fadd ok old=1000"
	reply=$(nl_cmd "check 22 $((1 << 20)) $((1 << 20))")
	[ "$reply" = ok ] || nl_fail "$1 does not hold the written bytes: $reply"
	reply=$(nl_cmd "word $ATOM_OFF")
	[ "$reply" = "word 1007" ] || nl_fail "the atomics left $reply in $1, not 1007"
}

# DOCA_ACCESS_FLAG_RDMA_WRITE (4) and _ATOMIC (8): the low byte of the mask at offset 12 (descriptor), 32 (blob).
RDMA_WRITE_ATOMIC=0x0c

case "$case_name" in
one_sided_tasks_cross_namespaces)
	respond "$ADDR_DPU"
	one_sided_tasks_land "the responder's memory"
	;;
memory_rights_decided_by_the_exporter)
	respond "$ADDR_DPU" --perm ro
	request_fg read,write
	expect_line "read ok"
	expect_line "write err DOCA_ERROR_NOT_PERMITTED"
	forge "$WORK/rdesc" 12 "$RDMA_WRITE_ATOMIC" fnv64
	request_fg write,cas
	expect_line "write err DOCA_ERROR_NOT_PERMITTED"
	expect_line "cas err DOCA_ERROR_NOT_PERMITTED"
	grep -q 'the exporter grants no writes' "$WORK/req.err" ||
		nl_fail "no record says the exporter withholds the right: $(cat "$WORK/req.err")"
	expect_unchanged
	;;
context_rights_decided_by_the_exporter)
	respond "$ADDR_DPU" --ctx-perm ro
	# Context permissions at offset 32 of the blob: claim RDMA write and atomic too.
	forge "$WORK/rblob" 32 "$RDMA_WRITE_ATOMIC" fnv32
	request_fg read,write,fadd
	expect_line "read ok"
	expect_line "write err DOCA_ERROR_NOT_PERMITTED"
	expect_line "fadd err DOCA_ERROR_NOT_PERMITTED"
	expect_unchanged
	;;
forged_blob_token_gets_nothing)
	respond "$ADDR_DPU"
	forge "$WORK/rblob" 45 0x40 fnv32
	request_fg read
	[ "$OUT" = "err connect DOCA_ERROR_NOT_FOUND" ] || nl_fail "a forged blob gave: $OUT"
	grep -q 'refused' "$WORK/req.err" || nl_fail "no record says the responder refused it: $(cat "$WORK/req.err")"
	;;
gone_exporter_refuses_the_connection)
	respond "$ADDR_DPU"
	kill -KILL "$EXP_PID"
	wait "$EXP_PID" 2>/dev/null
	start=$(date +%s%N)
	request_fg read
	took=$((($(date +%s%N) - start) / 1000000))
	[ "$OUT" = "err connect DOCA_ERROR_NOT_FOUND" ] || nl_fail "a gone responder gave: $OUT"
	# The whole requester run (start, connect attempt, exit) within 10 s: no hang.
	[ "$took" -le 10000 ] || nl_fail "the refusal took $took ms"
	;;
exporter_without_endpoint_is_refused_clearly)
	respond none
	request_fg read
	[ "$OUT" = "err connect DOCA_ERROR_NOT_SUPPORTED" ] || nl_fail "a responder without endpoint gave: $OUT"
	grep -q 'SOFTDOCA_PEER' "$WORK/req.err" || nl_fail "no record names the fix: $(cat "$WORK/req.err")"
	;;
atomics_race_the_exporters_own)
	respond "$ADDR_DPU"
	# The responder adds for 5 s from the start; the requester's 1000 adds fall inside on any machine load.
	reply=$(nl_cmd "addfor 5000")
	[ "$reply" = started ] || nl_fail "the responder's adder: $reply"
	request_fg fadds
	expect_line "fadds ok"
	reply=$(nl_cmd addjoin)
	added=${reply#added }
	[ "$added" -gt 0 ] 2>/dev/null || nl_fail "the responder's adder: $reply"
	reply=$(nl_cmd "word $ATOM_OFF")
	echo "responder added $added with CPU atomics, the requester 1000 over UCX: ${reply#word }"
	[ "$reply" = "word $((added + 1000))" ] || nl_fail "the word is ${reply#word }, not $added + 1000: adds were lost"
	;;
killed_exporter_fails_tasks_within_bound | cut_link_fails_tasks_within_bound)
	respond "$ADDR_DPU"
	request_bg stream
	connect_both
	nl_await_running "$WORK/req.out" "$WORK/req.err"
	sleep 0.2
	if [ "$case_name" = cut_link_fails_tasks_within_bound ]; then
		netns_link down
	else
		kill -KILL "$EXP_PID"
	fi
	finish_request
	[ "$case_name" = cut_link_fails_tasks_within_bound ] && netns_link up
	nl_stream_failed_within "$OUT" DOCA_ERROR_IO_FAILED "$BOUND_MS"
	;;
reexported_host_memory_reached_from_another_namespace)
	respond "$ADDR_DPU" --reexport --dev "$DPU_PCI"
	one_sided_tasks_land "the host's memory"
	;;
reexport_fails_once_the_host_stops_its_mmap)
	reexport_stream_cut_by hoststop "the host could not stop its mmap"
	;;
reexport_revoked_by_the_dpu_cuts_off_the_peer)
	reexport_stream_cut_by revoke "the DPU could not destroy its import"
	;;
*)
	nl_fail "unknown case $case_name"
	;;
esac
echo "PASS $case_name"
exit 0
