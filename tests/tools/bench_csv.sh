#!/bin/bash
# softdoca-bench --csv: the documented header, one row per size and method,
# the same number of fields in every row.
. "$(dirname "$0")/lib.sh"
BENCH=$1
HEADER='mode,mem,threads,queue_depth,method,job_size,jobs,seconds,jobs_per_s,gbytes_per_s,vs_memcpy,p50_ns,p90_ns,p99_ns,p999_ns,max_ns,cpu_share,errors,note'

run tput 0 "$BENCH" --sizes 64,8K --tasks 300 --csv "$TMP/t.csv"
[ "$(head -1 "$TMP/t.csv")" = "$HEADER" ] || fail "header is '$(head -1 "$TMP/t.csv")'"
[ "$(wc -l <"$TMP/t.csv")" = 17 ] || fail "expected 16 rows (2 sizes x 8 methods): $(cat "$TMP/t.csv")"
for m in dma memcpy pvr comch comch_fp rdma_write rdma_read rdma_send; do
	grep -q "^throughput,local,1,[0-9]*,$m,64," "$TMP/t.csv" || fail "no 64 B row for $m"
done
grep -q '^throughput,local,1,32,dma,8192,300,' "$TMP/t.csv" || fail "8 KiB DMA row: $(grep dma,8192 "$TMP/t.csv")"
grep -q '^throughput,local,1,32,memcpy,64,300,[0-9.]*,[0-9.]*,[0-9.]*,1.0000,' "$TMP/t.csv" || fail "memcpy ratio is not 1"
# The comch row at 8 KiB is over its message size (or the library is absent): no numbers, a note.
grep -q '^throughput,local,1,[0-9]*,comch,8192,,,,,,,,,,,,0,"n/a' "$TMP/t.csv" || fail "8 KiB comch row: $(grep comch,8192 "$TMP/t.csv")"
# The fast path has no message limit: 300 jobs at 8 KiB too.
grep -q '^throughput,local,1,[0-9]*,comch_fp,8192,300,' "$TMP/t.csv" || fail "8 KiB comch_fp row: $(grep comch_fp,8192 "$TMP/t.csv")"
# RDMA between two contexts of the process: 300 jobs each way and 300 sends, none failed.
for m in rdma_write rdma_read rdma_send; do
	grep -Eq "^throughput,local,1,[0-9]+,$m,8192,300,([^,]*,){10}0,\"\"\$" "$TMP/t.csv" || fail "8 KiB $m row: $(grep "$m,8192" "$TMP/t.csv")"
done
awk -F, 'NR > 1 && NF < 19 {bad = 1} END {exit bad}' "$TMP/t.csv" || fail "a row has fewer than 19 fields"
# cpu_share is a fraction of 1.
awk -F, 'NR > 1 && $17 != "" && ($17 < 0 || $17 > 1) {bad = 1} END {exit bad}' "$TMP/t.csv" || fail "cpu_share out of 0..1"

run lat 0 "$BENCH" --mode latency --job-size 64 --tasks 300 --no-baselines --csv "$TMP/l.csv"
[ "$(head -1 "$TMP/l.csv")" = "$HEADER" ] || fail "latency header"
grep -Eq '^latency,local,1,1,dma,64,300,[0-9.]+,[0-9.]+,[0-9.]+,,[0-9]+,[0-9]+,[0-9]+,[0-9]+,[0-9]+,[0-9.]+,0,""$' "$TMP/l.csv" ||
	fail "latency row: $(tail -1 "$TMP/l.csv")"

# An output file that cannot be written is refused before anything is measured (status 4).
run unwritable 4 "$BENCH" --tasks 10 --no-baselines --csv "$TMP/no/such/dir/x.csv"
has unwritable err "^softdoca-bench: --csv .*/no/such/dir/x.csv: cannot write there \(the folder .*/no/such/dir: No such file or directory\); nothing was measured\.$"
hasnt unwritable out "jobs/s"
mkdir "$TMP/adir"
run into_a_folder 4 "$BENCH" --tasks 10 --no-baselines --csv "$TMP/adir"
has into_a_folder err "cannot write there \(it is a folder\)"
finish
