#!/bin/bash
# softdoca-bench --advise: for each size the candidates with their numbers,
# then one recommendation that names the rule it applied.
. "$(dirname "$0")/lib.sh"
BENCH=$1

run advise 0 "$BENCH" --advise 64,64K --tasks 300
has advise out "^Advice: which data path for which job size"
has advise out "^Rule: 1\. dma when it reaches >= 0\.90x of the fastest candidate; 2\. otherwise the fastest\.$"
has advise out "^64 B:$"
has advise out "^64 KiB:$"
[ "$(grep -Ec '^  dma +[0-9.]+ GB/s +[0-9.]+ [kMG]? ?jobs/s$' "$TMP/advise.out")" = 2 ] || fail "two dma lines"
[ "$(grep -Ec '^  memcpy +[0-9.]+ GB/s' "$TMP/advise.out")" = 2 ] || fail "two memcpy lines"
[ "$(grep -Ec '^  comch ' "$TMP/advise.out")" = 2 ] || fail "two comch lines"
has advise out "^  comch +n/a"
# The fast path carries any size: measured at both.
[ "$(grep -Ec '^  comch_fp +[0-9.]+ GB/s +[0-9.]+ [kMG]? ?jobs/s$' "$TMP/advise.out")" = 2 ] || fail "two comch_fp lines"
# RDMA between two contexts of the process: measured at both sizes, both ways, and as sends.
[ "$(grep -Ec '^  rdma_(write|read|send) +[0-9.]+ GB/s +[0-9.]+ [kMG]? ?jobs/s$' "$TMP/advise.out")" = 6 ] || fail "six rdma lines"
[ "$(grep -Ec '^  -> (dma|memcpy|comch|comch_fp|rdma_write|rdma_read|rdma_send) \(rule [12]: ' "$TMP/advise.out")" = 2 ] ||
	fail "two recommendations naming their rule"
# It says whose numbers these are: this machine's engine, not a card's.
has advise out "^Measured on this machine: dma ran on 0000:03:00.0 through softdoca's cpu engine"
has advise out "On a BlueField or ConnectX the DMA engine moves the bytes without the CPU"
has advise out "measure there with"
hasnt advise out "Targets"
finish
