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
# DOCA Bench's result block, not softdoca-bench's table.
has dma out "^Aggregate stats$"
has dma out "^	Duration: +[0-9]+ micro seconds$"
has dma out "^	Enqueued jobs: [1-9][0-9]*$"
has dma out "^	Dequeued jobs: [1-9][0-9]*$"
has dma out "^	Throughput: +[0-9]{3}\.[0-9]{3} MOperations/s$"
has dma out "^	Ingress rate: +[0-9]{3}\.[0-9]{3} Gib/s$"
has dma out "^	Egress rate: +[0-9]{3}\.[0-9]{3} Gib/s$"
hasnt dma out "jobs/s|^size |memcpy|comch|pvr|Targets"
# The rates agree with each other: Gib/s = MOperations/s x job size x 8 / 2^30 (within rounding).
mops=$(sed -n 's/^	Throughput: *\([0-9.]*\) .*/\1/p' "$TMP/dma.out")
gibs=$(sed -n 's/^	Ingress rate: *\([0-9.]*\) .*/\1/p' "$TMP/dma.out")
awk -v m="$mops" -v g="$gibs" 'BEGIN { e = m * 1e6 * 4096 * 8 / 2^30; d = e - g; if (d < 0) d = -d; exit !(d <= 0.002 + e * 0.01) }' ||
	fail "Ingress rate $gibs Gib/s does not match $mops MOperations/s of 4096-byte jobs"
csv_header='cfg.pipeline_steps,cfg.device,cfg.mode,cfg.uniform_job_size,cfg.data_provider_job_count,cfg.threads,cfg.use_remote_input_buffers,cfg.use_remote_output_buffers,stats.duration_us,stats.enqueued_jobs,stats.dequeued_jobs,stats.failed_jobs,stats.throughput_mops,stats.ingress_gibps,stats.egress_gibps,stats.latency.min_us,stats.latency.max_us,stats.latency.median_us,stats.latency.mean_us,stats.latency.p90_us,stats.latency.p95_us,stats.latency.p99_us,stats.latency.p99_9_us,stats.latency.p99_99_us'
[ "$(wc -l <"$TMP/d.csv")" = 2 ] || fail "CSV: expected a header and one row: $(cat "$TMP/d.csv")"
[ "$(head -1 "$TMP/d.csv")" = "$csv_header" ] || fail "CSV header: $(head -1 "$TMP/d.csv")"
grep -Eq '^doca_dma,0000:03:00.0,throughput,4096,16,1,0,0,[0-9]+,[1-9][0-9]*,[1-9][0-9]*,0,[0-9.]+,[0-9.]+,[0-9.]+,,,,,,,,,$' "$TMP/d.csv" ||
	fail "CSV row: $(tail -1 "$TMP/d.csv")"
# Every row has as many fields as the header.
awk -F, -v n="$(head -1 "$TMP/d.csv" | awk -F, '{print NF}')" 'NF != n { exit 1 }' "$TMP/d.csv" || fail "CSV: ragged rows"
# --csv-append-mode adds rows under the existing header.
run append 0 "$DOCA_BENCH" --pipeline-steps doca_dma --device 03:00.0 --core-list 0 --run-limit-jobs 100 \
	--csv-output-file "$TMP/d.csv" --csv-append-mode
[ "$(wc -l <"$TMP/d.csv")" = 3 ] || fail "append: expected 3 lines: $(cat "$TMP/d.csv")"
[ "$(grep -c '^cfg\.' "$TMP/d.csv")" = 1 ] || fail "append wrote a second header"
grep -Eq '^doca_dma,0000:03:00.0,throughput,64,32,1,0,0,[0-9]+,100,100,0,' "$TMP/d.csv" ||
	fail "run-limit-jobs 100: $(tail -1 "$TMP/d.csv")"
# Interface name, two CPUs by mask, two threads per CPU, a byte limit split over the threads.
run mask 0 "$DOCA_BENCH" --pipeline-steps doca_dma --device p0 --core-mask 0x1 --threads-per-core 2 \
	--uniform-job-size 1K --run-limit-bytes 1M
has mask out "2 threads \(pinned to CPU 0\), queue depth 32, 512 jobs per thread"
has mask out "^	Dequeued jobs: 1024$"
run latency 0 "$DOCA_BENCH" --pipeline-steps doca_dma --core-list 0 --mode precision-latency --run-limit-jobs 200 \
	--csv-output-file "$TMP/lat.csv"
has latency out "^doca_bench: latency, "
has latency out "^	Latency:$"
for label in Min Max Median Mean "90th %ile" "95th %ile" "99th %ile" "99.9th %ile" "99.99th %ile"; do
	has latency out "^		$label: +[0-9]+\.[0-9]{3} us$"
done
hasnt latency out "Throughput:"
grep -Eq '^doca_dma,0000:03:00.0,precision-latency,64,1,1,0,0,[0-9]+,200,200,0,,,,([0-9.]+,){8}[0-9.]+$' "$TMP/lat.csv" ||
	fail "latency CSV row: $(tail -1 "$TMP/lat.csv")"

# DOCA Bench's RDMA send and receive steps: sends into receives that a second RDMA
# context of the process keeps posted; every byte checked, 300 jobs, none failed.
for step in send receive; do
	run "rdma_$step" 0 "$DOCA_BENCH" --pipeline-steps "doca_rdma::$step" --device mlx5_0 --core-list 0 \
		--uniform-job-size 2K --run-limit-jobs 300 --verify --csv-output-file "$TMP/rdma_$step.csv"
	has "rdma_$step" out "^step doca_rdma::$step: DOCA RDMA sends into receives that a second RDMA context"
	has "rdma_$step" out "^	Dequeued jobs: 300$"
	has "rdma_$step" out "^	Throughput: +[0-9]{3}\.[0-9]{3} MOperations/s$"
	hasnt "rdma_$step" out "Failed jobs"
	grep -Eq "^doca_rdma::$step,0000:03:00.0,throughput,2048,32,1,0,0,[0-9]+,300,300,0,[0-9.]+,[0-9.]+,[0-9.]+,,,,,,,,,\$" \
		"$TMP/rdma_$step.csv" || fail "rdma $step CSV row: $(tail -1 "$TMP/rdma_$step.csv")"
done
run rdma_latency 0 "$DOCA_BENCH" --pipeline-steps doca_rdma::send --core-list 0 --mode precision-latency \
	--run-limit-jobs 200
has rdma_latency out "^		Median: +[0-9]+\.[0-9]{3} us$"
has rdma_latency out "^	Dequeued jobs: 200$"

# DPU-initiated writes into host memory: the companion exports the destination
# too; --verify (softdoca's) reads every job back from the companion.
for mode in out both; do
	flags=(--use-remote-output-buffers)
	[ "$mode" = both ] && flags+=(--use-remote-input-buffers)
	"$DOCA_BENCH" --pipeline-steps doca_dma --core-list 0 "${flags[@]}" --representor b1:00.0 --verify \
		--uniform-job-size 4K --run-limit-jobs 300 --csv-output-file "$TMP/$mode.csv" >"$TMP/$mode.out" 2>"$TMP/$mode.err"
	rc=$?
	if [ $rc = 3 ]; then
		has "$mode" err "needs the cross-process engine"
		continue
	fi
	[ $rc = 0 ] || fail "$mode: exit status $rc: $(cat "$TMP/$mode.err")"
	if [ "$mode" = out ]; then
		has out out "destination exported by pid [0-9]+ on 0000:b1:00.0, every byte verified"
		grep -q '^doca_dma,0000:03:00.0,throughput,4096,32,1,0,1,' "$TMP/out.csv" || fail "out CSV: $(cat "$TMP/out.csv")"
	else
		has both out "source and destination exported by pid [0-9]+ on 0000:b1:00.0, every byte verified"
		grep -q '^doca_dma,0000:03:00.0,throughput,4096,32,1,1,1,' "$TMP/both.csv" || fail "both CSV: $(cat "$TMP/both.csv")"
	fi
	has "$mode" out "^	Dequeued jobs: 300$"
	hasnt "$mode" out "Failed jobs"
done
# The representor by interface name; and what it cannot be.
run rep_iface 0 "$DOCA_BENCH" --pipeline-steps doca_dma --core-list 0 --use-remote-output-buffers --representor pf0hpf \
	--run-limit-jobs 50
has rep_iface out "exported by pid [0-9]+ on 0000:b1:00.0"
run rep_unused 0 "$DOCA_BENCH" --pipeline-steps doca_dma --core-list 0 --representor b1:00.0 --run-limit-jobs 50
has rep_unused err "note: --representor is not used without --use-remote-input-buffers or --use-remote-output-buffers"
hasnt rep_unused out "exported by"

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
refused other_step "--pipeline-steps 'doca_compress::decompress': softdoca emulates the steps doca_dma" \
	--pipeline-steps doca_compress::decompress
refused rdma_write_step "--pipeline-steps 'doca_rdma::write': softdoca emulates the steps doca_dma .*doca_rdma::send" \
	--pipeline-steps doca_rdma::write
refused two_steps "softdoca emulates the steps" --pipeline-steps doca_dma,doca_sha
refused rdma_remote "--use-remote-input-buffers: not with a doca_rdma step" --pipeline-steps doca_rdma::send \
	--core-list 0 --use-remote-input-buffers
refused rdma_remote_out "--use-remote-output-buffers: not with a doca_rdma step" \
	--pipeline-steps doca_rdma::receive --core-list 0 --use-remote-output-buffers
refused rdma_threads "--core-list: a doca_rdma step runs on one thread here" --pipeline-steps doca_rdma::send \
	--core-list 0 --threads-per-core 2
refused rdma_small_output "--job-output-buffer-size: a receive needs a buffer at least as large" \
	--pipeline-steps doca_rdma::send --core-list 0 --uniform-job-size 4K --job-output-buffer-size 1K
refused bulk "--mode 'bulk-latency': not emulated" --pipeline-steps doca_dma --mode bulk-latency
refused provider "--data-provider 'file': softdoca's doca_bench emulates the random-data provider only" \
	--pipeline-steps doca_dma --data-provider file
refused query "--query: not emulated: doca_caps" --pipeline-steps doca_dma --query sw-caps
refused attribute "-a: not emulated" --pipeline-steps doca_dma -a doca_dma.x=1
refused sweep "--sweep: not emulated" --pipeline-steps doca_dma --sweep core-count,1,2,+1
refused buckets "--latency-bucket-range: not emulated" --pipeline-steps doca_dma --latency-bucket-range 0,100
refused representor "--representor '03:00.0': the device has no representor of that PCI address" \
	--pipeline-steps doca_dma --use-remote-output-buffers --representor 03:00.0
refused host_representor "--representor 'b1:00.0': the device is host-side and has no representors" \
	--pipeline-steps doca_dma --device b1:00.0 --use-remote-output-buffers --representor b1:00.0
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
has help out "^Usage: doca_bench --pipeline-steps doca_dma\|doca_rdma::send\|doca_rdma::receive"
has help out "man doca_bench"
hasnt help out "README"
run version 0 "$DOCA_BENCH" -v
has version out "^doca_bench \(softdoca [0-9.]+\)$"
finish
