#!/usr/bin/env bash
# tests/examples/demo_cases.sh CASE HOST_PROGRAM DPU_PROGRAM
#
# Runs softdoca_demo_host and softdoca_demo_dpu (examples/) as the two
# processes of a host/DPU pair and checks one behaviour, named by CASE.
# Exit 0 pass, 1 fail.  Everything lives in a fresh temporary folder.
set -uo pipefail

case_name=$1
host=$2
dpu=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-demo-test.XXXXXX")
export_file=$work/export
host_pid=
# What a sanitizer report looks like in a program's output.
sanitizer_report='ERROR: (Address|Leak)Sanitizer|runtime error:'

cleanup() {
	if [ -n "$host_pid" ] && kill -0 "$host_pid" 2>/dev/null; then
		kill -9 "$host_pid" 2>/dev/null
		wait "$host_pid" 2>/dev/null
	fi
	rm -rf "$work"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*"
	for log in "$work"/*.log; do
		[ -e "$log" ] || continue
		echo "---- $(basename "$log")"
		sed 's/^/    | /' "$log"
	done
	exit 1
}

# start_host ARGS... - the host in the background, its output in host.log.
start_host() {
	"$host" -f "$export_file" "$@" >"$work/host.log" 2>&1 &
	host_pid=$!
}

# wait_host - wait for the background host; sets host_rc.
wait_host() {
	wait "$host_pid"
	host_rc=$?
	host_pid=
}

# run_dpu ARGS... - the DPU in the foreground (bounded), output in dpu.log; sets dpu_rc.
run_dpu() {
	timeout 60 "$dpu" -f "$export_file" "$@" >"$work/dpu.log" 2>&1
	dpu_rc=$?
}

# wait_for_file PATH SECONDS
wait_for_file() {
	local i
	for ((i = 0; i < $2 * 100; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.01
	done
	return 1
}

# refused SIDE ARGS... - SIDE (host or dpu) given ARGS exits 1 (a usage refusal), output in SIDE.log.
refused() {
	local side=$1 prog rc=0
	shift
	if [ "$side" = host ]; then prog=$host; else prog=$dpu; fi
	timeout 30 "$prog" "$@" >"$work/$side.log" 2>&1 || rc=$?
	[ "$rc" -eq 1 ] || fail "the $side given '$*' exited with $rc (a refusal exits 1)"
	# The next refusal overwrites the log: look for a sanitizer report now.
	! grep -q -E "$sanitizer_report" "$work/$side.log" || fail "a sanitizer report from the $side given '$*'"
}

sha_of() { grep -o 'SHA-256 [0-9a-f]\{64\}' "$work/host.log" | head -n1 | cut -d' ' -f2; }

# A full transfer: both exit 0, digests match, the host heard "ok", files are gone.
expect_success() {
	local size=$1 sha
	[ "$dpu_rc" -eq 0 ] || fail "the DPU exited with $dpu_rc"
	[ "$host_rc" -eq 0 ] || fail "the host exited with $host_rc"
	grep -q "SHA-256 match: all $size bytes arrived intact" "$work/dpu.log" ||
		fail "the DPU did not report a SHA-256 match for $size bytes"
	sha=$(sha_of)
	[ -n "$sha" ] || fail "the host printed no SHA-256"
	grep -q "SHA-256 of the received bytes  $sha" "$work/dpu.log" ||
		fail "the DPU's digest is not the host's ($sha)"
	grep -q "the DPU side reports: ok sha256 $sha" "$work/host.log" ||
		fail "the host did not hear the DPU's success"
	grep -q "What happened, and how it maps to a real BlueField" "$work/dpu.log" ||
		fail "the DPU did not explain what happened"
	[ ! -e "$export_file" ] && [ ! -e "$export_file.done" ] ||
		fail "the host left its files behind"
}

case "$case_name" in
pair_8m)
	# The README's pair with a small buffer: 8 chunks of 1 MiB, 4 in flight.
	start_host --size 8M --timeout 30
	run_dpu --chunk 1M --depth 4 --timeout 30
	wait_host
	expect_success 8388608
	grep -q "8 DMA tasks" "$work/dpu.log" || fail "8 MiB in 1 MiB chunks should take 8 DMA tasks"
	;;
pair_odd_size)
	# 1000003 bytes in 64 KiB chunks: the last chunk is short, and the buffer's tail is not a whole word.
	start_host --size 1000003 --seed 7 --timeout 30
	run_dpu --chunk 64K --depth 3 --timeout 30
	wait_host
	expect_success 1000003
	grep -q "16 DMA tasks" "$work/dpu.log" || fail "1000003 bytes in 64 KiB chunks should take 16 DMA tasks"
	;;
pair_over_fifo)
	# The channel may be a named pipe; the DPU may even start first.
	mkfifo "$export_file" || fail "mkfifo"
	timeout 60 "$dpu" -f "$export_file" --chunk 512K --timeout 30 >"$work/dpu.log" 2>&1 &
	dpu_pid=$!
	sleep 0.2
	start_host --size 4M --timeout 30
	wait "$dpu_pid"
	dpu_rc=$?
	wait_host
	[ -p "$export_file" ] || fail "the host removed the FIFO it was given"
	rm -f "$export_file"
	expect_success 4194304
	;;
host_killed_mid_transfer)
	# 64 MiB paced at 16 MiB/s (about 4 s); the host dies half a second into the transfer.
	start_host --size 64M --timeout 30
	wait_for_file "$export_file" 20 || fail "the host published nothing"
	timeout 60 "$dpu" -f "$export_file" --chunk 1M --depth 4 --rate-limit 16 --timeout 30 \
		>"$work/dpu.log" 2>&1 &
	dpu_pid=$!
	for ((i = 0; i < 1000; i++)); do
		grep -q "pulling" "$work/dpu.log" && break
		sleep 0.01
	done
	grep -q "pulling" "$work/dpu.log" || fail "the DPU had not started pulling after 10 s"
	sleep 0.5
	kill -9 "$host_pid"
	wait "$host_pid" 2>/dev/null
	host_pid=
	killed_at=$(date +%s%N)
	wait "$dpu_pid"
	dpu_rc=$?
	took_ms=$((($(date +%s%N) - killed_at) / 1000000))
	[ "$dpu_rc" -ne 0 ] || fail "the DPU exited 0 although the host died mid-transfer"
	[ "$dpu_rc" -ne 124 ] || fail "the DPU hung after the host died"
	grep -q "DMA failed at offset" "$work/dpu.log" || fail "the DPU did not say the DMA failed"
	grep -q "the host side went away mid-transfer" "$work/dpu.log" ||
		fail "the DPU did not say the host went away"
	grep -q "SHA-256 match" "$work/dpu.log" && fail "the DPU claimed a match"
	[ "$took_ms" -lt 5000 ] || fail "the DPU took $took_ms ms to give up (limit 5 s)"
	echo "the DPU gave up $took_ms ms after the host was killed"
	;;
stale_export_refused)
	# An export file left by a host that no longer exists: the import is refused, quickly.
	start_host --size 1M --timeout 30
	wait_for_file "$export_file" 20 || fail "the host published nothing"
	kill -9 "$host_pid"
	wait "$host_pid" 2>/dev/null
	host_pid=
	run_dpu --timeout 5
	[ "$dpu_rc" -ne 0 ] && [ "$dpu_rc" -ne 124 ] || fail "the DPU exited with $dpu_rc on a stale export"
	grep -q "doca_mmap_create_from_export failed" "$work/dpu.log" ||
		fail "the DPU did not name the failing import"
	grep -q "has exited, or the file is stale" "$work/dpu.log" || fail "the DPU did not explain the refusal"
	;;
dpu_without_host_times_out)
	run_dpu --timeout 1
	[ "$dpu_rc" -eq 1 ] || fail "the DPU exited with $dpu_rc without a host (expected 1)"
	grep -q "nothing appeared in $export_file within 1 s" "$work/dpu.log" ||
		fail "the DPU did not say what it waited for"
	;;
host_without_dpu_times_out)
	start_host --size 1M --timeout 1
	wait_host
	[ "$host_rc" -eq 1 ] || fail "the host exited with $host_rc without a DPU (expected 1)"
	grep -q "no word from the DPU side within 1 s" "$work/host.log" || fail "the host did not say why"
	[ ! -e "$export_file" ] || fail "the host left its export file behind"
	;;
sha_mismatch_detected)
	# Change the published digest: the DPU must notice, and tell the host.
	start_host --size 2M --timeout 30
	wait_for_file "$export_file" 20 || fail "the host published nothing"
	old=$(LC_ALL=C grep -a -m1 '^sha256 ' "$export_file" | cut -d' ' -f2)
	if [ "${old:0:1}" = f ]; then new=0${old:1}; else new=f${old:1}; fi
	LC_ALL=C sed -i "s/^sha256 $old\$/sha256 $new/" "$export_file"
	LC_ALL=C grep -aq "^sha256 $new\$" "$export_file" || fail "could not edit the export file"
	run_dpu
	wait_host
	[ "$dpu_rc" -eq 1 ] || fail "the DPU exited with $dpu_rc on a wrong digest (expected 1)"
	[ "$host_rc" -eq 1 ] || fail "the host exited with $host_rc after the DPU's failure (expected 1)"
	grep -q "SHA-256 MISMATCH" "$work/dpu.log" || fail "the DPU did not report the mismatch"
	grep -q "the DPU side reports a failure: failed SHA-256 mismatch" "$work/host.log" ||
		fail "the host did not hear about the mismatch"
	;;
bad_flags_refused)
	# A refusal is exit status 1 with a message: a crash (a signal, 128 +
	# its number) or a sanitizer's exit is no refusal.
	refused dpu --depth 0 -f "$export_file"
	grep -q -- "--depth must be between 1 and" "$work/dpu.log" || fail "no message for --depth 0"
	refused dpu -f "$export_file" --chunk 4Q
	grep -q -- '--chunk: "4Q" is not a size' "$work/dpu.log" || fail "no message for --chunk 4Q"
	refused host -f "$export_file" --size 12X
	grep -q -- '--size: "12X" is not a size' "$work/host.log" || fail "no message for --size 12X"
	refused host --size 1M
	[ ! -e "$export_file" ] || fail "a refused run wrote the export file"
	;;
*)
	echo "unknown case $case_name"
	exit 1
	;;
esac
# A sanitizer build must stay silent on every path, failing ones included.
if grep -q -E "$sanitizer_report" "$work"/*.log 2>/dev/null; then
	fail "a sanitizer report in the programs' output"
fi
echo "PASS $case_name"
