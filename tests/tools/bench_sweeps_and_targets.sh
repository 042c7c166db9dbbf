#!/bin/bash
# softdoca-bench: a geometric sweep always ends at TO, even when the factor
# steps over it; the project's own targets appear only with --targets.
. "$(dirname "$0")/lib.sh"
BENCH=$1

run sweep 0 "$BENCH" --sizes 64:1M:x16 --tasks 4 --no-baselines
sizes=$(awk '$3 == "dma" {print $1 " " $2}' "$TMP/sweep.out" | paste -sd, -)
[ "$sizes" = "64 B,1 KiB,16 KiB,256 KiB,1 MiB" ] || fail "64:1M:x16 measured '$sizes', expected 64 B,1 KiB,16 KiB,256 KiB,1 MiB"
run exact 0 "$BENCH" --sizes 64:4K:x4 --tasks 4 --no-baselines
sizes=$(awk '$3 == "dma" {print $1 " " $2}' "$TMP/exact.out" | paste -sd, -)
[ "$sizes" = "64 B,256 B,1 KiB,4 KiB" ] || fail "64:4K:x4 measured '$sizes'"

# A plain run shows its numbers and nothing about softdoca's own goals.
hasnt sweep out "Targets"
hasnt sweep out "MISSED"
hasnt sweep out "run --targets"
run targets 0 "$BENCH" --targets --tasks 50
has targets out "^Targets \(the numbers of this run; they never change the exit status\):$"
has targets out "64 B DMA jobs per second, one thread"
finish
