#!/bin/bash
# softdoca-bench: every malformed option is a usage error (exit 1, a message,
# no measurement); --help and --version exit 0.
. "$(dirname "$0")/lib.sh"
BENCH=$1

bad() {
	local name=$1 msg=$2
	shift 2
	run "$name" 1 "$BENCH" "$@"
	has "$name" err "$msg"
	has "$name" err "Try 'softdoca-bench --help'"
	hasnt "$name" out "jobs/s"
}
bad unknown "unknown option" --bogus
bad positional "unexpected argument" extra
bad missing "needs an argument" --job-size
bad mode "--mode takes throughput or latency" --mode fast
bad size_zero "--job-size '0': a job moves at least one byte" --job-size 0
bad size_text "--job-size 'big': a size is a whole number of bytes" --job-size big
bad size_suffix "--job-size '4X': unknown suffix: use K, M or G" --job-size 4X
bad sweep_order "--sizes '1M:64:x4': FROM \(1 MiB\) is larger than TO \(64 B\); a sweep goes up: write 64:1M:x4" --sizes 1M:64:x4
bad sweep_factor "--sizes '64:1M:x1': the factor must be a whole number of at least 2" --sizes 64:1M:x1
bad sweep_factor_text "the factor is written xF" --sizes 64:1M:4
bad sweep_shape "a sweep is FROM:TO:xF, three parts" --sizes 64:1M
bad sweep_from "--sizes 'k:1M:x4': FROM 'k': a size is a whole number" --sizes k:1M:x4
bad list_empty "--sizes '64,,1K': an empty item in the list" --sizes 64,,1K
bad list_item "--sizes '64,huge': 'huge': a size is a whole number" --sizes 64,huge
bad depth_zero "--queue-depth takes 1..256" --queue-depth 0
bad depth_big "--queue-depth takes 1..256" --queue-depth 257
bad threads_zero "--threads takes 1..64" --threads 0
bad threads_big "--threads takes 1..64" --threads 65
bad tasks_zero "--tasks takes a positive count" --tasks 0
bad duration_zero "bad duration" --duration 0
bad duration_unit "bad duration" --duration 5min
bad mem "--mem takes local or remote" --mem host
bad pci "not a PCI address" --pci-addr 3:00
bad advise_sweep "--advise takes sizes separated by commas" --advise 64:1M:x4
bad advise_size "--advise '64,huge': 'huge': a size is" --advise 64,huge
bad core_list "--core-list '1,x': CPUs are numbers" --core-list 1,x
bad wait "--wait takes spin or event" --wait sleep
bad app_work "--app-work takes a time up to 1 s" --app-work 2s
bad core_range "--core-list '3-1': a range goes up" --core-list 3-1
bad plot_quote "--plot needs a file name without quotes" --plot "a'b.png"
bad both "--targets and --advise are separate runs" --targets --advise 64

# Over the device's per-task limit (2 GiB in the default profile, as softdoca-caps shows):
# refused before anything is allocated, naming the limit and where it comes from.
run size_over_limit 1 "$BENCH" --job-size 4G
has size_over_limit err "a job of 4 GiB is more than one DMA memcpy task may carry on 0000:03:00.0: 2 GiB \(2147483648 bytes\)"
has size_over_limit err "doca_dma_cap_task_memcpy_get_max_buf_size, which softdoca-caps"
has size_over_limit err "dma_max_buf_size"
hasnt size_over_limit out "jobs/s"
# The limit follows the device: a topology file that lowers it lowers the bench's too.
printf '[device 03:00.0]\nside = dpu\ndma_max_buf_size = 1M\n' >"$TMP/small.ini"
run size_over_topology 1 env SOFTDOCA_TOPOLOGY="$TMP/small.ini" "$BENCH" --job-size 2M
has size_over_topology err "a job of 2 MiB is more than one DMA memcpy task may carry on 0000:03:00.0: 1 MiB"
run size_at_topology 0 env SOFTDOCA_TOPOLOGY="$TMP/small.ini" "$BENCH" --job-size 1M --tasks 4 --no-baselines
has size_at_topology out "^1 MiB +dma "
run cpu_not_allowed 1 "$BENCH" --core-list 1023 --tasks 10
has cpu_not_allowed err "CPU 1023 is not one this process may run on"
# --plot into a folder that does not exist: a clear message, status 4, nothing measured, no PNG on stdout.
run plot_nowhere 4 "$BENCH" --tasks 10 --no-baselines --plot /nonexistent/x.png
has plot_nowhere err "^softdoca-bench: --plot /nonexistent/x.png: cannot write there \(the folder /nonexistent: No such file or directory\); nothing was measured\.$"
[ -s "$TMP/plot_nowhere.out" ] && fail "plot_nowhere wrote to stdout: $(head -c 80 "$TMP/plot_nowhere.out" | od -c | head -2)"

run help 0 "$BENCH" --help
has help out "^Usage: softdoca-bench"
has help out "--queue-depth"
has help out "Exit status: 0 done"
has help out "man softdoca-bench"
hasnt help out "README"
run version 0 "$BENCH" --version
has version out "^softdoca-bench \(softdoca [0-9.]+\)$"
has version out "^DOCA API level $(sed 's/\./\\./g' "$(dirname "$0")/../../VERSION")"
finish
