#!/usr/bin/env bash
# test_netns_dma.sh CASE - host and DPU programs in two network namespaces
# (and two PID namespaces), joined by a veth pair; the exporter's memory is
# reached over UCX.  One case per run (tests/netns/meson.build lists them):
#
#   host_to_dpu_sg            the DPU side reads host memory: 8 MiB in 4
#                             tasks at once, each a 5-element list per side
#   dpu_to_host_sg            the DPU side writes host memory the same way;
#                             the host checks every byte
#   dpu_export_read_by_host   the reverse roles: the DPU exports, the host reads
#   read_only_refuses_writes  a PCI_READ_ONLY export: reads work, writes fail
#   forged_token_gets_nothing the descriptor's token altered: the import
#                             stands (checks are local) but every access fails
#   stopped_export_cuts_off   doca_mmap_stop on the host: the next import's
#                             access fails, and so does a stream of copies
#                             running when the stop happens (within the bound)
#   cut_link_fails_within_bound   the link goes down in the middle of a stream
#                             of copies: a task fails with DOCA_ERROR_IO_FAILED
#                             within the liveness bound (1 s, plus 0.5 s of
#                             slack for a loaded machine), no hang
#   killed_exporter_fails_within_bound   the host program is SIGKILLed
#                             mid-stream: the same
#
# The engine comes from the environment (meson runs each case with the
# default engine and with SOFTDOCA_DMA_WORKERS=1).
set -uo pipefail

case_name=${1:?usage: test_netns_dma.sh CASE}
. "$ROOT/tests/netns/netns_lib.sh"

HOST_PCI=0000:b1:00.0
DPU_PCI=0000:03:00.0
BOUND_MS=1500

nl_setup "${case_name//_/}"

# The usual roles: the host exports, the DPU imports.
host_exports() {
	nl_export "$NS_HOST" "$ADDR_DPU" "$HOST_PCI" "$1" "$2" "${3:-rw}"
}

dpu_imports() {
	nl_import "$NS_DPU" --dev "$DPU_PCI" "$@"
}

expect_ok() {
	case "$OUT" in
	ok*) ;;
	*) nl_fail "expected ok, got: $OUT; $(tail -n 5 "$WORK/imp.err")" ;;
	esac
}

# A stream of reads, then FAULT (a function); the stream must fail within the bound.
stream_then() {
	local fault=$1 line after
	host_exports $((16 << 20)) 21
	: >"$WORK/stream.out"
	env SOFTDOCA_SDK_LOG=warning "${IMPORT_ENV[@]}" timeout 30 ip netns exec "$NS_DPU" unshare --pid --fork --mount-proc --kill-child \
		"$NETNS_DMA" --desc "$WORK/desc" --addr "$EXP_ADDR" --len "$EXP_LEN" --dev "$DPU_PCI" \
		--op stream --stream-ms 20000 >"$WORK/stream.out" 2>"$WORK/imp.err" &
	local imp=$!
	for _ in $(seq 1 200); do
		grep -q running "$WORK/stream.out" && break
		sleep 0.05
	done
	grep -q running "$WORK/stream.out" || nl_fail "the stream never ran: $(cat "$WORK/stream.out" "$WORK/imp.err")"
	sleep 0.2
	"$fault"
	wait "$imp"
	line=$(grep -E '^(failed|nofail)' "$WORK/stream.out")
	echo "importer: $line"
	case "$line" in
	"failed DOCA_ERROR_IO_FAILED after_ms="*) ;;
	*) nl_fail "expected a DOCA_ERROR_IO_FAILED task, got: ${line:-nothing (hung?)}" ;;
	esac
	after=${line#*after_ms=}
	after=${after%% *}
	[ "$after" -le "$BOUND_MS" ] || nl_fail "the failure took ${after} ms (bound ${BOUND_MS} ms)"
	grep -q 'ucx transport' "$WORK/imp.err" || nl_fail "no log record says why the import died: $(tail -n 5 "$WORK/imp.err")"
}

cut_link() {
	netns_link down
}

kill_exporter() {
	kill -KILL "$EXP_PID"
}

stop_export() {
	local reply
	reply=$(nl_cmd stop)
	[ "$reply" = ok ] || nl_fail "doca_mmap_stop: $reply"
}

case "$case_name" in
host_to_dpu_sg)
	host_exports $((8 << 20)) 11
	dpu_imports --seed 11 --op read --sg 5 --inflight 4
	expect_ok
	;;
dpu_to_host_sg)
	host_exports $((8 << 20)) 12
	dpu_imports --seed 13 --op write --sg 5 --inflight 4
	expect_ok
	reply=$(nl_cmd "check 13 0 $EXP_LEN")
	[ "$reply" = ok ] || nl_fail "the host sees different bytes: $reply"
	;;
dpu_export_read_by_host)
	nl_export "$NS_DPU" "$ADDR_HOST" "$DPU_PCI" $((4 << 20)) 14
	nl_import "$NS_HOST" --dev "$HOST_PCI" --seed 14 --op read --sg 3 --inflight 2
	expect_ok
	;;
read_only_refuses_writes)
	host_exports $((1 << 20)) 15 ro
	dpu_imports --seed 15 --op read --sg 2
	expect_ok
	dpu_imports --seed 16 --op write
	case "$OUT" in
	"err DOCA_ERROR_NOT_PERMITTED"*) ;;
	*) nl_fail "a write to a read-only export gave: $OUT" ;;
	esac
	reply=$(nl_cmd "check 15 0 $EXP_LEN")
	[ "$reply" = ok ] || nl_fail "the read-only memory changed: $reply"
	;;
forged_token_gets_nothing)
	host_exports $((1 << 20)) 17
	# Flip one token bit (offset 88) and fix the checksum, as a forger would.
	python3 - "$WORK/desc" <<'PY' || nl_fail "cannot forge the descriptor"
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[88] ^= 1
h = 0xcbf29ce484222325
for x in b[:-8]:
    h = ((h ^ x) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
b[-8:] = h.to_bytes(8, "little")
open(p, "wb").write(bytes(b))
PY
	dpu_imports --seed 17 --op read
	case "$OUT" in
	"err DOCA_ERROR_IO_FAILED"*) ;;
	*) nl_fail "a forged descriptor gave: $OUT" ;;
	esac
	grep -q 'refused the descriptor' "$WORK/imp.err" || nl_fail "the log does not say the exporter refused it: $(cat "$WORK/imp.err")"
	;;
stopped_export_cuts_off)
	host_exports $((1 << 20)) 18
	dpu_imports --seed 18 --op read
	expect_ok
	reply=$(nl_cmd stop)
	[ "$reply" = ok ] || nl_fail "doca_mmap_stop: $reply"
	dpu_imports --seed 18 --op read
	case "$OUT" in
	"err DOCA_ERROR_IO_FAILED"*) ;;
	*) nl_fail "a read after the stop gave: $OUT" ;;
	esac
	echo quit >&7
	wait "$EXP_PID"
	exec 7>&-
	rm -f "$WORK/exp.in"
	stream_then stop_export
	;;
cut_link_fails_within_bound)
	stream_then cut_link
	netns_link up
	;;
killed_exporter_fails_within_bound)
	stream_then kill_exporter
	;;
*)
	nl_fail "unknown case $case_name"
	;;
esac
echo "PASS $case_name"
exit 0
