#!/bin/bash
# --verify is not decoration: with every 777-byte memcpy corrupted (LD_PRELOAD
# shim), the DMA and memcpy jobs of that size are reported FAILED and the
# bench exits 2; other sizes still pass.
#
#   bench_verify_catches.sh BENCH SHIM SANITIZE
#
# SANITIZE is the build's b_sanitize option: a sanitizer runtime interposes
# memcpy itself, so the shim cannot take effect there (the only skip).  In
# any other build a shim that did nothing is a failure, never a skip.
. "$(dirname "$0")/lib.sh"
BENCH=$1
SHIM=$2
SANITIZE=${3:-none}

if [ "$SANITIZE" != none ]; then
	echo "SKIP: the $SANITIZE runtime interposes memcpy before an LD_PRELOAD shim can"
	exit 77
fi
export SHIM_COUNT_FILE=$TMP/count
run corrupt 2 env LD_PRELOAD="$SHIM" "$BENCH" --verify --sizes 64,777 --tasks 200 --no-baselines
[ "$(cat "$TMP/count" 2>/dev/null || echo 0)" != 0 ] || fail "the memcpy shim corrupted nothing: it was not in effect"
has corrupt out "^FAILED: 777 B dma: 0 failed jobs, [1-9][0-9]* jobs with wrong bytes"
hasnt corrupt out "^FAILED: 64 B"
run corrupt_cpu 2 env LD_PRELOAD="$SHIM" "$BENCH" --verify --job-size 777 --tasks 200
has corrupt_cpu out "^FAILED: 777 B memcpy:"
# Without --verify nobody looks, and the run succeeds.
run unverified 0 env LD_PRELOAD="$SHIM" "$BENCH" --sizes 777 --tasks 200 --no-baselines
finish
