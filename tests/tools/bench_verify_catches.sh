#!/bin/bash
# --verify is not decoration: with every 777-byte memcpy corrupted (LD_PRELOAD
# shim), the DMA and memcpy jobs of that size are reported FAILED and the
# bench exits 2; other sizes still pass.
. "$(dirname "$0")/lib.sh"
BENCH=$1
SHIM=$2

export SHIM_COUNT_FILE=$TMP/count
run corrupt 2 env LD_PRELOAD="$SHIM" "$BENCH" --verify --sizes 64,777 --tasks 200 --no-baselines
if [ "$(cat "$TMP/count" 2>/dev/null || echo 0)" = 0 ]; then
	echo "the memcpy shim was not in effect (sanitizer build?): skipped" >&2
	exit 77
fi
has corrupt out "^FAILED: 777 B dma: 0 failed jobs, [1-9][0-9]* jobs with wrong bytes"
hasnt corrupt out "^FAILED: 64 B"
run corrupt_cpu 2 env LD_PRELOAD="$SHIM" "$BENCH" --verify --job-size 777 --tasks 200
has corrupt_cpu out "^FAILED: 777 B memcpy:"
# Without --verify nobody looks, and the run succeeds.
run unverified 0 env LD_PRELOAD="$SHIM" "$BENCH" --sizes 777 --tasks 200 --no-baselines
finish
