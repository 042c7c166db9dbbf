#!/bin/bash
# softdoca-bench --export-timing: the run's DMA rows become a card timing
# table (docs/card-timing.md) that SOFTDOCA_CARD_TIMING loads back.
. "$(dirname "$0")/lib.sh"
BENCH=$1

run export 0 "$BENCH" --sizes 64,4K --tasks 300 --no-baselines --export-timing "$TMP/t.table"
for d in read write local; do
	[ "$(grep -c "^$d [0-9]* [0-9.]*K$" "$TMP/t.table")" = 2 ] || fail "expected two $d rows: $(cat "$TMP/t.table")"
done
grep -q '^# measured: local rows only' "$TMP/t.table" || fail "the file does not say what was measured"
grep -q '^batch 32$' "$TMP/t.table" || fail "batch is not the queue depth: $(cat "$TMP/t.table")"

# The table loads back: the header names it and no WARNING says it is refused.
SOFTDOCA_SDK_LOG=warning SOFTDOCA_CARD_TIMING="$TMP/t.table" run replay 0 "$BENCH" --sizes 64 --tasks 50 --no-baselines
has replay out "card timing model $TMP/t.table"
hasnt replay err "is not a built-in model|: line [0-9]+:"

# A latency run has no throughput row to export (status 4, said on stderr).
run latency 4 "$BENCH" --mode latency --job-size 64 --tasks 50 --no-baselines --export-timing "$TMP/l.table"
has latency err "no DMA throughput row to write"
# An unwritable file is refused before anything is measured.
run unwritable 4 "$BENCH" --tasks 10 --no-baselines --export-timing "$TMP/no/such/dir/x.table"
has unwritable err "^softdoca-bench: --export-timing .*: cannot write there"
finish
