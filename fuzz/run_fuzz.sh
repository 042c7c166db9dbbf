#!/bin/sh
# Run the fuzz targets for a bounded time each (CI friendly).
#
#   fuzz/run_fuzz.sh [SECONDS] [BUILD_DIR] [TARGET...]
#
# TARGET: fuzz_import (the export-descriptor import), fuzz_api (programs of
# public calls), fuzz_sync_event (the sync event importers), fuzz_card_timing (card
# timing tables), fuzz_comch_fp (the Comch fast path's frames and post queue),
# fuzz_rdma_blob (DOCA RDMA's connection blob), fuzz_rdma_desc (the RDMA
# export descriptor and the tasks run through its import), fuzz_rdma_cm (the RDMA
# connection manager's handshake messages), fuzz_rdma_net (the headers of RDMA
# messages across namespaces), fuzz_ucx_wire (the UCX transport's handshake
# and access messages), fuzz_settings (topology files, fault specifications,
# peer addresses, DOCA parameter files); default all of them.  Configures BUILD_DIR (default build-fuzz)
# with clang when needed, builds the targets and runs each for SECONDS
# (default 30) on a scratch corpus: fuzz_import's is seeded with a few
# descriptors, fuzz_api's with the committed corpus fuzz/corpus/api (read,
# never written).  Prints one "PASS fuzz: T" or "FAIL fuzz: T" line per
# target.  Exits non-zero when a fuzzer finds a crash, a leak or undefined
# behaviour, or when a target does not build; exits 77 (skip) only when
# clang or its libFuzzer runtime (Debian: libclang-rt-14-dev) is missing.
#
# A long run by hand (what the numbers in docs/robustness.md come from):
#   build-asan/fuzz/fuzz_api -runs=10000000 -print_final_stats=1 DIR fuzz/corpus/api
set -eu
secs=${1:-30}
here=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-"$here/build-fuzz"}
[ $# -ge 2 ] && shift 2 || shift $#
targets=${*:-fuzz_import fuzz_api fuzz_sync_event fuzz_card_timing fuzz_comch_fp fuzz_rdma_blob fuzz_rdma_desc fuzz_rdma_cm fuzz_rdma_net fuzz_ucx_wire fuzz_settings}

if ! command -v clang >/dev/null 2>&1; then
	echo "SKIP: clang is not installed"
	exit 77
fi
if [ ! -f "$build/build.ninja" ]; then
	CC=clang meson setup "$build" "$here" -Dbench=false >/dev/null
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Whether clang can link a libFuzzer program at all is the machine's
# capability (the only reason to skip); a target of ours that does not
# build is a failure.
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){(void)d;(void)n;return 0;}\n' \
	>"$scratch/probe.c"
if ! clang -fsanitize=fuzzer "$scratch/probe.c" -o "$scratch/probe" >/dev/null 2>&1; then
	echo "SKIP: clang cannot link libFuzzer programs here (install libclang-rt-14-dev)"
	exit 77
fi

failed=0
built=""
for t in $targets; do
	if ninja -C "$build" "fuzz/$t" >"$scratch/$t.build.log" 2>&1 && [ -x "$build/fuzz/$t" ]; then
		built="$built $t"
	else
		echo "$t does not build; the end of the build log:" >&2
		grep -Ev '^\[[0-9]+/[0-9]+\] ' "$scratch/$t.build.log" | tail -30 >&2
		echo "FAIL fuzz: $t builds"
		failed=1
	fi
done
targets=$built

# seed_import DIR - one input of each mode (raw, checksum-fixed, edits of live descriptors).
seed_import() {
	printf '\000SDXP' >"$1/raw"
	printf '\001SDXP\001\000\260\000\001' >"$1/fixed"
	printf '\002' >"$1/own"               # this process's descriptor, untouched
	printf '\003' >"$1/peer"              # the child's descriptor, untouched
	printf '\003\130\001' >"$1/peer-token" # one token byte changed
}

# seed_sync_event DIR - raw bytes, this process's descriptor as is, and as a remote-net import.
seed_sync_event() {
	printf '\000SDSE' >"$1/raw"
	printf '\002' >"$1/own"
	printf '\202' >"$1/own-net"
	printf '\002\070\001' >"$1/own-token" # one token byte changed
}

# seed_rdma_cm DIR - a message header of each kind, for the parser, a server and a client.
seed_rdma_cm() {
	printf '\000\010SDCM\001\004\000\000' >"$1/parse-ready"
	printf '\001SDCM\001\001\100\000' >"$1/server-request-cut"
	printf '\002SDCM\001\003\000\000' >"$1/client-reject"
	printf '\002SDCM\001\002\101\000' >"$1/client-accept-cut"
	printf '\003SDCM\001\004\000\000SDCM\001\005\000\000' >"$1/server-ready-disconnect"
	printf '\004SDCM\001\005\000\000' >"$1/client-disconnect"
}

# seed_rdma_desc DIR - raw bytes, this process's RDMA descriptor as is, and with one token byte changed.
seed_rdma_desc() {
	printf '\000SDXP' >"$1/raw"
	printf '\002' >"$1/own"
	printf '\002\130\001' >"$1/own-token"
}

# seed_rdma_net DIR - one record each (length 56, payload length): a send of 64 bytes, an answer for one
# message; a batch of two sends without bytes (its header, then two records: prefix, then a send's header).
seed_rdma_net() {
	printf '\070\100\000SDNM\002\004\000\000\001\000\000\000\000\000\000\000\001\000\000\000\000\000\000\000' >"$1/msg"
	head -c 32 /dev/zero >>"$1/msg"
	printf '\070\000\000SDNM\002\005\000\000\001\000\000\000\000\000\000\000\001\000\000\000\000\000\000\000\001' >"$1/ans"
	head -c 31 /dev/zero >>"$1/ans"
	printf '\070\200\000SDNM\002\010\000\000\001\000\000\000\000\000\000\000\001\000\000\000\000\000\000\000\002' >"$1/batch"
	head -c 31 /dev/zero >>"$1/batch"
	for seq in '\001' '\002'; do
		head -c 8 /dev/zero >>"$1/batch"
		printf "SDNM\\002\\004\\000\\000\\001\\000\\000\\000\\000\\000\\000\\000$seq" >>"$1/batch"
		head -c 39 /dev/zero >>"$1/batch"
	done
}

for t in $targets; do
	corpus="$scratch/$t"
	mkdir -p "$corpus"
	extra=""
	case $t in
	fuzz_import) seed_import "$corpus" ;;
	fuzz_api) extra="$here/fuzz/corpus/api" ;;
	fuzz_sync_event) seed_sync_event "$corpus" ;;
	fuzz_rdma_desc) seed_rdma_desc "$corpus" ;;
	fuzz_card_timing) extra="$here/fuzz/corpus/card_timing" ;;
	fuzz_rdma_cm) seed_rdma_cm "$corpus" ;;
	fuzz_rdma_net) seed_rdma_net "$corpus" ;;
	fuzz_ucx_wire) extra="$here/fuzz/corpus/ucx_wire" ;;
	fuzz_settings) extra="$here/fuzz/corpus/settings" ;;
	esac
	log="$scratch/$t.log"
	# New inputs go to the first directory only: the committed corpus stays as it is.
	(cd "$scratch" && "$build/fuzz/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 "$corpus" $extra) >"$log" 2>&1 || true
	grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)' "$log" || true
	if grep -q -E '==[0-9]+==ERROR|SUMMARY: (Address|Undefined|Leak)Sanitizer|deadly signal|^fuzz_api: ' "$log" ||
		! grep -q 'DONE' "$log"; then
		echo "$t found a problem; the end of its log:" >&2
		tail -40 "$log" >&2
		echo "FAIL fuzz: $t ${secs} s"
		failed=1
	else
		echo "PASS fuzz: $t ${secs} s, no crash"
	fi
done
exit "$failed"
