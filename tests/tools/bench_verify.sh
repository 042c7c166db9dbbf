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
finish
