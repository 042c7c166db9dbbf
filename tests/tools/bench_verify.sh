#!/bin/bash
# A short softdoca-bench run with --verify: every job of every method checked
# byte for byte, in both modes and with two threads; nothing may fail.
. "$(dirname "$0")/lib.sh"
BENCH=$1

run tput 0 "$BENCH" --verify --sizes 1,64,4K,1M --tasks 400 --queue-depth 8
has tput out "every byte verified"
for size in "1 B" "64 B" "4 KiB" "1 MiB"; do
	for m in dma memcpy pvr; do
		has tput out "^$size +$m +1 +[0-9.]+ [kMG]? *[0-9.]+"
	done
done
hasnt tput out "FAILED"

run lat 0 "$BENCH" --verify --mode latency --sizes 64,64K --tasks 200
has lat out "^64 B +dma +1 +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +200 +[0-9]+% "
has lat out "^64 KiB +memcpy +1 "
hasnt lat out "FAILED"

run threads 0 "$BENCH" --verify --threads 2 --sizes 64,16K --tasks 500 --no-baselines
has threads out "^64 B +dma +2 "
has threads out "^16 KiB +dma +2 "
hasnt threads out "FAILED"

run timed 0 "$BENCH" --verify --job-size 256 --duration 20ms --no-baselines
has timed out "^256 B +dma +1 "

# The workers engine, with the program sleeping on the notification handle.
SOFTDOCA_DMA_WORKERS=1 run event 0 "$BENCH" --verify --wait event --sizes 64,64K --tasks 300 --no-baselines
has event out "DMA workers 1 \(copies run on library threads"
has event out "^64 B +dma +1 "
has event out "^64 KiB +dma +1 "
hasnt event out "FAILED"

# --app-work: the overlap table, next to the memcpy baseline with the same work.
SOFTDOCA_DMA_WORKERS=1 run work 0 "$BENCH" --verify --app-work 2us --sizes 16K --tasks 300
has work out "program work 2 us per job"
has work out "^Overlap: "
has work out "^16 KiB +2\.00 us +[0-9.]+ us"
hasnt work out "FAILED"
finish
