#!/usr/bin/env bash
# rdma-bench-quick.sh RDMA_BENCH - both sides of rdma_bench on this machine
# for a moment each: the requester's RDMA reads must bring back the
# responder's bytes, and every task must succeed.  A check that the
# benchmark still measures what it says, not a timing.  It runs without the
# raw UCX baseline (--no-raw): UCX keeps a few allocations to the end of
# the process, which the suite's leak checker would report as the bench's.
set -uo pipefail
bench=${1:?usage: rdma-bench-quick.sh PATH/TO/rdma_bench}
work=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-rdma-bench.XXXXXX") || exit 1
exp_pid=""
cleanup() {
	exec 7>&- 2>/dev/null
	[ -n "$exp_pid" ] && kill "$exp_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
mkfifo "$work/in"
"$bench" export --dir "$work" --size $((8 << 20)) --no-raw <"$work/in" >"$work/out" 2>&1 &
exp_pid=$!
exec 7>"$work/in"
for _ in $(seq 1 400); do
	grep -q ready "$work/out" && break
	sleep 0.05
done
grep -q ready "$work/out" || { cat "$work/out"; echo "FAIL: the responder did not start"; exit 1; }
SOFTDOCA_SDK_LOG=error timeout 120 "$bench" import --dir "$work" --seconds 0.02 --no-raw >"$work/imp" 2>&1
rc=$?
cat "$work/imp"
exec 7>&-
wait "$exp_pid"
exp_rc=$?
exp_pid=""
[ "$rc" -eq 0 ] || { echo "FAIL: the requester exited with $rc"; exit 1; }
[ "$exp_rc" -eq 0 ] || { cat "$work/out"; echo "FAIL: the responder exited with $exp_rc"; exit 1; }
rows=$(grep -cE '^rdma +(read|write) +[0-9]+ +- +[0-9.]+ +-$' "$work/imp")
[ "$rows" -eq 10 ] || { echo "FAIL: expected 10 rows (5 sizes, read and write), got $rows"; exit 1; }
echo "PASS"
