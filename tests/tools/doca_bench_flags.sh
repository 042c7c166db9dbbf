#!/bin/bash
# doca_bench: DOCA Bench's flags for the doca_dma step run the same
# measurements as softdoca-bench; every other DOCA Bench flag is refused by
# name with the reason, never ignored.
. "$(dirname "$0")/lib.sh"
DOCA_BENCH=$1

# A DOCA Bench command line as DOCA's documentation writes it, with ibdev
# name, CPU list, job size, queue depth, run limit and CSV output.
run dma 0 "$DOCA_BENCH" --pipeline-steps doca_dma --device mlx5_0 --core-list 0 --uniform-job-size 4096 \
	--job-output-buffer-size 4096 --data-provider random-data --data-provider-job-count 16 \
	--run-limit-seconds 0.1 --csv-output-file "$TMP/d.csv"
has dma out "^doca_bench: throughput, local memory, 1 thread \(pinned to CPU 0\), queue depth 16, 0.1 s per measurement$"
has dma out "^device 0000:03:00.0, "
has dma out "^4 KiB +dma +1 "
hasnt dma out "^[0-9]+ [KMG]?i?B +(memcpy|comch|pvr) |Targets"
[ "$(wc -l <"$TMP/d.csv")" = 2 ] || fail "CSV: expected a header and one row: $(cat "$TMP/d.csv")"
grep -q '^throughput,local,1,16,dma,4096,' "$TMP/d.csv" || fail "CSV row: $(tail -1 "$TMP/d.csv")"
# --csv-append-mode adds rows under the existing header.
run append 0 "$DOCA_BENCH" --pipeline-steps doca_dma --device 03:00.0 --core-list 0 --run-limit-jobs 100 \
	--csv-output-file "$TMP/d.csv" --csv-append-mode
[ "$(wc -l <"$TMP/d.csv")" = 3 ] || fail "append: expected 3 lines: $(cat "$TMP/d.csv")"
[ "$(grep -c '^mode,' "$TMP/d.csv")" = 1 ] || fail "append wrote a second header"
grep -q '^throughput,local,1,32,dma,64,100,' "$TMP/d.csv" || fail "run-limit-jobs 100: $(tail -1 "$TMP/d.csv")"
# Interface name, two CPUs by mask, two threads per CPU, a byte limit split over the threads.
run mask 0 "$DOCA_BENCH" --pipeline-steps doca_dma --device p0 --core-mask 0x1 --threads-per-core 2 \
	--uniform-job-size 1K --run-limit-bytes 1M
has mask out "2 threads \(pinned to CPU 0\), queue depth 32, 512 jobs per thread"
run latency 0 "$DOCA_BENCH" --pipeline-steps doca_dma --core-list 0 --mode precision-latency --run-limit-jobs 200
has latency out "^doca_bench: latency, "
has latency out "p50 ns"

# The companion's connection string is not needed here: accepted, and said so.
if "$DOCA_BENCH" --pipeline-steps doca_dma --core-list 0 --use-remote-input-buffers \
	--companion-connection-string proto=tcp,addr=192.0.2.1 --run-limit-jobs 50 >"$TMP/remote.out" 2>"$TMP/remote.err"; then
	has remote out "remote memory"
fi
has remote err "note: --companion-connection-string is not used"

refused() {
	local name=$1 msg=$2
	shift 2
	run "$name" 1 "$DOCA_BENCH" "$@"
	has "$name" err "$msg"
	has "$name" err "Try 'doca_bench --help'"
	hasnt "$name" out "jobs/s"
}
refused no_step "--pipeline-steps: required" --core-list 0
refused other_step "--pipeline-steps 'doca_compress::decompress': softdoca emulates one step, doca_dma" \
	--pipeline-steps doca_compress::decompress
refused two_steps "softdoca emulates one step" --pipeline-steps doca_dma,doca_sha
refused remote_out "--use-remote-output-buffers: not emulated" --pipeline-steps doca_dma --use-remote-output-buffers
refused bulk "--mode 'bulk-latency': not emulated" --pipeline-steps doca_dma --mode bulk-latency
refused provider "--data-provider 'file': softdoca's doca_bench emulates the random-data provider only" \
	--pipeline-steps doca_dma --data-provider file
refused query "--query: not emulated: doca_caps" --pipeline-steps doca_dma --query sw-caps
refused attribute "-a: not emulated" --pipeline-steps doca_dma -a doca_dma.x=1
refused sweep "--sweep: not emulated" --pipeline-steps doca_dma --sweep core-count,1,2,+1
refused buckets "--latency-bucket-range: not emulated" --pipeline-steps doca_dma --latency-bucket-range 0,100
refused representor "--representor: not needed" --pipeline-steps doca_dma --representor 03:00.0
refused unknown "--warm-up-jobs: not a flag softdoca's doca_bench emulates" --pipeline-steps doca_dma --warm-up-jobs 8
refused two_limits "one --run-limit-\* flag per run" --pipeline-steps doca_dma --run-limit-seconds 1 --run-limit-jobs 5
refused small_output "--job-output-buffer-size: a DMA copy needs an output buffer at least as large" \
	--pipeline-steps doca_dma --uniform-job-size 4K --job-output-buffer-size 1K
refused no_device "--device 'mlx5_9': no device has that PCI address, ibdev name or interface name" \
	--pipeline-steps doca_dma --device mlx5_9
refused depth "--data-provider-job-count '0'" --pipeline-steps doca_dma --data-provider-job-count 0
refused both_sets "give --core-list or --core-mask, not both" --pipeline-steps doca_dma --core-list 0 --core-mask 1
run too_big 1 "$DOCA_BENCH" --pipeline-steps doca_dma --core-list 0 --uniform-job-size 4G
has too_big err "^doca_bench: a job of 4 GiB is more than one DMA memcpy task may carry on 0000:03:00.0: 2 GiB"
# DOCA Bench's default CPU set is CPU 1 (mask 0x02): where this process may not use it, say so.
if ! taskset -pc $$ 2>/dev/null | grep -Eq '[ ,]1([,-]|$)|0-'; then
	run default_cpu 1 "$DOCA_BENCH" --pipeline-steps doca_dma --run-limit-jobs 10
	has default_cpu err "CPU 1 is not one this process may run on"
fi

run help 0 "$DOCA_BENCH" --help
has help out "^Usage: doca_bench --pipeline-steps doca_dma"
has help out "man doca_bench"
hasnt help out "README"
run version 0 "$DOCA_BENCH" -v
has version out "^doca_bench \(softdoca [0-9.]+\)$"
finish
