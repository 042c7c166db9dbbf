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
bad size_zero "bad job size" --job-size 0
bad size_text "bad job size" --job-size big
bad size_suffix "bad job size" --job-size 4X
bad size_huge "bad job size" --job-size 2G
bad sweep_order "bad size sweep" --sizes 1M:64:x4
bad sweep_factor "bad size sweep" --sizes 64:1M:x1
bad sweep_shape "bad size sweep" --sizes 64:1M
bad list_empty "bad size sweep" --sizes 64,,1K
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
bad advise_size "--advise takes sizes separated by commas" --advise 64,huge
bad plot_quote "--plot needs a file name without quotes" --plot "a'b.png"
bad both "--targets and --advise are separate runs" --targets --advise 64

run help 0 "$BENCH" --help
has help out "^Usage: softdoca-bench"
has help out "--queue-depth"
has help out "Exit status: 0 done"
run version 0 "$BENCH" --version
has version out "^softdoca-bench \(softdoca [0-9.]+\)$"
has version out "^DOCA API level $(sed 's/\./\\./g' "$(dirname "$0")/../../VERSION")"
finish
