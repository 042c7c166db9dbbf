#!/usr/bin/env bash
# run-samples.sh - build official DOCA samples unmodified against an
# installed softdoca and run them, printing a pass/fail table.
#
# The samples are never part of this repository: point the runner at the
# tree you have (an SDK's /opt/mellanox/doca, or a checkout of NVIDIA's
# public doca-samples repository at any DOCA 3.x tag).  The runner copies
# what it needs into a scratch folder, so your tree is only read.
#
# Usage: tools/run-samples.sh [options] DOCA_ROOT [SAMPLE ...]
#   DOCA_ROOT   folder holding samples/ (and applications/ + VERSION), or
#               its samples/ folder itself, or a git repository (bare or
#               not) holding samples/ and applications/ at HEAD; REPO@REF
#               takes them at tag, branch or commit REF instead
#               (doca-samples@3.1.0)
#   SAMPLE      names from the acceptance set (default: all of it; the
#               DMA Copy application part only when the tree holds
#               applications/meson.build or applications/meson.build.public;
#               rdma_read_cm and rdma_write_cm are the rdma_read /
#               rdma_write pairs joined by the connection manager), or a
#               name run only on request (none at present)
#
# Both layouts of a tree work: an installed SDK's, where every sample
# folder holds its standalone meson.build, and the public repository's
# (DOCA 3.3 on), where the standalone file is meson.build.public next to a
# meson.build that is only a fragment of the tree-wide build.  In the
# scratch copy every meson.build.public replaces its meson.build, as
# NVIDIA's install step does.  The tree's VERSION file says which DOCA
# release the programs are; the runner prints it and passes it on to the
# samples' own meson projects, which read it.
# Options:
#   --prefix P     softdoca installed under P (default: build this checkout
#                  and install it into ./_install)
#   --timeout S    seconds per run (default 30; a timeout is a failure)
#   --valgrind     also run each sample under valgrind and fail it when
#                  valgrind reports any error (invalid read or write,
#                  uninitialised value, bad free), the program dies or
#                  exits non-zero under it, valgrind does not finish, or a
#                  leak record points into a softdoca library
#   --work DIR     scratch folder (default: a fresh mktemp folder)
#   --lines        also print one "PASS name" / "FAIL name" line per check
#                  (what tests/run.sh counts)
#   --cuda-lib L   also run dma_local_copy on the GPU device gpu0 (the
#                  cuda engine), with SOFTDOCA_CUDA_LIB=L: a real driver
#                  (libcuda.so.1) or the test suite's stand-in driver
#                  (build/tests/cuda/fakecuda/libsoftdoca-fakecuda.so)
#   --two-namespaces  run every host-flavour program in one network and PID
#                  namespace and every DPU-flavour program in another, joined
#                  by a veth pair (tools/netns-pair.sh), each given
#                  SOFTDOCA_PEER=<the other's address>: Comch goes over TCP,
#                  DMA on host memory over UCX.  Needs root; prints one SKIP
#                  line and exits 0 where namespaces cannot be made
#   --list         print the acceptance set and exit
#   -h, --help     this text
#
# dma_copy_app builds the applications/ meson project unmodified in both
# flavours (-Denable_all_applications=false -Denable_dma_copy=true) and
# runs DMA Copy as a host/DPU pair: files of 1 B, 4 KiB, 3 MB and 64 MiB
# each way, bytes compared, then the failure cases (either side killed
# mid-copy, no server, a file above the DPU's max buffer size through a
# SOFTDOCA_TOPOLOGY file, no file on either side).  Comch runs through a
# private SOFTDOCA_COMCH_DIR, so other programs on the machine cannot meet
# these servers and clients.
#
# secure_channel_app builds Secure Channel from the same project
# (-Denable_secure_channel=true) in both flavours and runs it as a pair:
# each side produces and consumes at once over the Comch fast path, 1 x 1 B,
# 1000 x 64 B and 20000 x 4080 B messages;
# both sides must exit 0, report every message sent and received, and log
# no ERROR record.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
prefix=""
timeout_s=30
use_valgrind=0
lines=0
work=""
cuda_lib=""
judge_env=()  # extra NAME=VALUE for the next judge run
judge_args=() # extra arguments for the next judge run
two_ns=0
host_side=()  # command prefix of host-flavour programs (--two-namespaces)
dpu_side=()   # command prefix of DPU-flavour programs

# name:flavour:folder.  Flavour decides which pkg-config folder the build
# sees (dma_local_copy refuses to run unless built for the DPU).  "pair"
# runs two programs side by side: dma_copy_host (host flavour) exports a
# buffer, dma_copy_dpu (DPU flavour) imports it and copies it over;
# comch_ctrl_path_server (DPU flavour) answers comch_ctrl_path_client
# (host flavour), and comch_data_path_high_speed does the same over the
# fast path; rdma_NAME runs NAME_responder (DPU flavour) and
# NAME_requester (host flavour) with descriptors in files (run_rdma_pair);
# rdma_NAME_cm runs the same pair joined by the connection manager
# (--use-rdma-cm, run_rdma_cm_pair).
# "apps" is the DMA Copy application part (see above); it
# prints one row per check.
acceptance=(
	pe_polling:host:doca_common
	pe_async_stop:host:doca_common
	pe_event:host:doca_common
	pe_multi_context:host:doca_common
	pe_reactive:host:doca_common
	pe_single_task_comp_cb:host:doca_common
	pe_task_error:host:doca_common
	pe_task_resubmit:host:doca_common
	pe_task_try_submit:host:doca_common
	graph:host:doca_common
	cache_invalidate:host:doca_common
	dma_local_copy:dpu:doca_dma
	dma_copy:pair:doca_dma
	comch_ctrl_path:pair:doca_comch
	sync_event:pair:doca_common
	clock_cross_timestamp:host:doca_common
	comch_data_path_high_speed:pair:doca_comch
	rdma_read:pair:doca_rdma
	rdma_write:pair:doca_rdma
	rdma_sync_event:pair:doca_rdma
	rdma_write_immediate:pair:doca_rdma
	rdma_send:pair:doca_rdma
	rdma_send_immediate:pair:doca_rdma
	rdma_multi_conn:pair:doca_rdma
	rdma_read_cm:pair:doca_rdma
	rdma_write_cm:pair:doca_rdma
	dma_copy_app:apps:dma_copy
	secure_channel_app:apps:secure_channel
)
# Run only when named on the command line: programs that do not pass yet
# (docs/rdma.md says why) wait here until they join the acceptance set.
on_request=()

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

die() { echo "run-samples: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case "$1" in
	--prefix) prefix=$(realpath -m "$2"); shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--valgrind) use_valgrind=1; shift ;;
	--lines) lines=1; shift ;;
	--work) work=$(realpath -m "$2"); shift 2 ;;
	--cuda-lib) cuda_lib=$2; shift 2 ;;
	--two-namespaces) two_ns=1; shift ;;
	--list) printf '%s\n' "${acceptance[@]}" | cut -d: -f1; exit 0 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; break ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { usage >&2; exit 2; }
root=$1
shift
# REPO@REF: a git repository at a tag, branch or commit.
ref=HEAD
if [ ! -e "$root" ] && [[ "$root" == *@* ]]; then
	ref=${root##*@}
	root=${root%@*}
fi
[[ "$timeout_s" =~ ^[0-9]+$ ]] || die "--timeout needs a whole number of seconds"
[ -e "$root" ] || die "$root does not exist"

wanted=("$@")
selected=()
for entry in "${acceptance[@]}"; do
	name=${entry%%:*}
	if [ ${#wanted[@]} -eq 0 ] || printf '%s\n' "${wanted[@]}" | grep -qx "$name"; then
		selected+=("$entry")
	fi
done
for entry in "${on_request[@]}"; do
	printf '%s\n' "${wanted[@]}" | grep -qx "${entry%%:*}" && selected+=("$entry")
done
for w in "${wanted[@]}"; do
	printf '%s\n' "${acceptance[@]}" "${on_request[@]}" | cut -d: -f1 | grep -qx "$w" || die "unknown sample '$w' (try --list)"
done

for tool in meson ninja pkg-config timeout; do
	command -v "$tool" >/dev/null || die "$tool is missing (apt-get install meson ninja-build pkg-config coreutils)"
done
command -v c++ >/dev/null || die "a C++ compiler is missing: the samples' meson projects declare C++ (apt-get install g++)"
if [ $use_valgrind = 1 ]; then
	command -v valgrind >/dev/null || die "valgrind is missing (apt-get install valgrind)"
fi

# One exit handler for everything a run leaves behind.
comch_dir=""
on_exit() {
	[ -n "$comch_dir" ] && rm -rf "$comch_dir"
	[ $two_ns = 1 ] && netns_pair_down
	return 0
}
trap on_exit EXIT
if [ $two_ns = 1 ]; then
	. "$here/tools/netns-pair.sh"
	if ! netns_pair_usable; then
		echo "SKIP samples: two namespaces: $NETNS_WHY"
		exit 0
	fi
	netns_pair_up samples || die "$NETNS_WHY"
	trap on_exit EXIT
	trap 'on_exit; exit 130' INT TERM
	host_side=("$here/tools/netns-run.sh" "$NS_HOST" env SOFTDOCA_PEER="$ADDR_DPU")
	dpu_side=("$here/tools/netns-run.sh" "$NS_DPU" env SOFTDOCA_PEER="$ADDR_HOST")
	echo "== host side in network namespace $NS_HOST ($ADDR_HOST), DPU side in $NS_DPU ($ADDR_DPU)"
fi

[ -n "$work" ] || work=$(mktemp -d /tmp/softdoca-samples.XXXXXX)
mkdir -p "$work"

# --- softdoca itself -------------------------------------------------------
if [ -z "$prefix" ]; then
	prefix="$here/_install"
	echo "== building softdoca into $prefix"
	meson setup "$here/build-samples" "$here" --prefix="$prefix" -Dtests=false -Dbench=false \
		--reconfigure >"$work/softdoca-setup.log" 2>&1 ||
		meson setup "$here/build-samples" "$here" --prefix="$prefix" -Dtests=false -Dbench=false \
			>"$work/softdoca-setup.log" 2>&1 || { cat "$work/softdoca-setup.log"; die "meson setup failed"; }
	meson install -C "$here/build-samples" >"$work/softdoca-install.log" 2>&1 ||
		{ cat "$work/softdoca-install.log"; die "building softdoca failed"; }
fi
pc_host=$(dirname "$(find "$prefix" -path '*/pkgconfig/doca-common.pc' | head -n1)")
pc_dpu=$(dirname "$(find "$prefix" -path '*/pkgconfig-dpu/doca-common.pc' | head -n1)")
[ -f "$pc_host/doca-common.pc" ] || die "no doca-common.pc under $prefix (is softdoca installed there?)"
[ -f "$pc_dpu/doca-common.pc" ] || die "no DPU flavour (pkgconfig-dpu) under $prefix"
libdir=$(dirname "$pc_host")

# --- the samples tree ------------------------------------------------------
tree="$work/doca"
rm -rf "$tree"
mkdir -p "$tree"
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1 && { [ "$ref" != HEAD ] || ! [ -d "$root/samples" ]; }; then
	git -C "$root" rev-parse --verify -q "$ref^{commit}" >/dev/null || die "$root has no tag, branch or commit '$ref'"
	echo "== exporting samples/ and applications/ of $ref from git repository $root"
	git -C "$root" archive "$ref" samples applications | tar -x -C "$tree" ||
		die "$root holds no samples/ and applications/ at $ref"
	git -C "$root" cat-file -e "$ref:VERSION" 2>/dev/null && git -C "$root" show "$ref:VERSION" >"$tree/VERSION"
else
	[ "$ref" = HEAD ] || die "$root is not a git repository, so '@$ref' means nothing"
	[ -d "$root/samples" ] || { [ "$(basename "$root")" = samples ] && root=$(dirname "$root"); }
	[ -d "$root/samples" ] || die "$root holds no samples/ folder"
	cp -r "$root/samples" "$tree/"
	[ -d "$root/applications" ] && cp -r "$root/applications" "$tree/"
	[ -f "$root/VERSION" ] && cp "$root/VERSION" "$tree/"
fi
[ -d "$tree/applications/common" ] || die "applications/common is missing next to samples/ (the samples compile utils.c from it)"

# The public repository's layout: standalone build files are meson.build.public.
public_files=$(find "$tree" -name meson.build.public | wc -l)
if [ "$public_files" -gt 0 ]; then
	find "$tree" -name meson.build.public -exec sh -c 'mv -f "$1" "${1%.public}"' _ {} \;
	layout="public repository layout: $public_files meson.build.public renamed to meson.build, as NVIDIA's install step does"
else
	layout="installed layout: standalone meson.build files"
fi
# Each sample reads ../../../VERSION; a tree without one gets softdoca's level.
softdoca_version=$(PKG_CONFIG_PATH="$pc_host" pkg-config --modversion doca-common)
if [ -f "$tree/VERSION" ]; then
	tree_version=$(tr -d ' \t\r\n' <"$tree/VERSION")
	[ -n "$tree_version" ] || die "the tree's VERSION file is empty"
	echo "== DOCA samples tree of release $tree_version ($layout)"
else
	tree_version=$softdoca_version
	echo "$softdoca_version" >"$tree/VERSION"
	echo "== DOCA samples tree without a VERSION file: running it as release $tree_version, softdoca's level ($layout)"
fi
echo "== against softdoca $softdoca_version (DOCA API level of $prefix)"
# The application part joins the default set only where the tree has the
# applications project; asked for by name it runs and says what is missing.
if [ ${#wanted[@]} -eq 0 ] && [ ! -f "$tree/applications/meson.build" ]; then # after the rename above
	kept=()
	for entry in "${selected[@]}"; do
		[ "$(cut -d: -f2 <<<"$entry")" = apps ] || kept+=("$entry")
	done
	selected=("${kept[@]}")
fi

# --- build, run, judge -----------------------------------------------------
declare -a rows
passed=0
failed=0
row_kind=samples # the word after PASS/FAIL in --lines output

# valgrind as every run of this script starts it: leaks listed (and judged
# below, inside softdoca only: the samples' own leaks are theirs), every
# other error counted in the ERROR SUMMARY line.
valgrind_cmd="valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=none"

# valgrind_findings LOG - what valgrind saw that fails a run, one line each;
# nothing when the run was clean.  A log without its ERROR SUMMARY line
# means valgrind never finished (a timeout, a kill): that fails too.
valgrind_findings() {
	local log=$1 errors leaks
	if [ ! -s "$log" ]; then
		echo "valgrind wrote no log ($log)"
		return
	fi
	errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9][0-9]*\) error.*/\1/p' "$log" | tail -n1)
	[ -n "$errors" ] || echo "valgrind did not finish its run ($log)"
	grep -q "Process terminating with default action of signal" "$log" &&
		echo "the program died of a signal under valgrind ($log)"
	[ -n "$errors" ] && [ "$errors" != 0 ] &&
		echo "valgrind: $errors error(s): invalid accesses or uninitialised values ($log)"
	leaks=$(softdoca_leaks "$log")
	[ "$leaks" != 0 ] && echo "valgrind: $leaks leak record(s) inside softdoca ($log)"
	return 0
}

# Leak records whose stack passes through a softdoca library.
softdoca_leaks() {
	awk '/(definitely|indirectly|possibly) lost in loss record/ {rec=1; hit=0; next}
	     rec && /libdoca_/ {hit=1}
	     rec && /^==[0-9]+== $/ {if (hit) n++; rec=0}
	     END {print n+0}' "$1"
}

judge() { # name exe flavour -> sets verdict, detail
	local name=$1 exe=$2 out="$work/$1.stdout" err="$work/$1.stderr" rc=0
	( cd "$(dirname "$exe")" && env LD_LIBRARY_PATH="$libdir" "${judge_env[@]}" timeout "$timeout_s" \
		"$exe" "${judge_args[@]}" >"$out" 2>"$err" ) || rc=$?
	if [ $rc = 124 ]; then verdict=FAIL; detail="timed out after ${timeout_s}s"; return; fi
	if [ $rc != 0 ]; then verdict=FAIL; detail="exit status $rc"; return; fi
	if grep -q "Memcpy failed" "$out" "$err"; then verdict=FAIL; detail="'Memcpy failed' logged"; return; fi
	if [ "$name" = pe_task_error ]; then
		# Its error callbacks log "Task failed with status" by design:
		# judge it by its own criteria instead of the setup-failure marker.
		local done_n fail_n
		done_n=$(grep -c "Task completed" "$out" "$err" | awk -F: '{s += $NF} END {print s}')
		fail_n=$(grep -c "Task failed" "$out" "$err" | awk -F: '{s += $NF} END {print s}')
		if [ $((done_n + fail_n)) != 255 ]; then
			verdict=FAIL; detail="$done_n completed + $fail_n failed != 255"; return
		fi
		if grep -q "Task completed (expected value = 3)" "$out" "$err" ||
			! grep -q "Task failed.*(expected value = 3)" "$out" "$err"; then
			verdict=FAIL; detail="task 3 did not fail"; return
		fi
		if ! grep -q "from stopping to idle" "$out"; then
			verdict=FAIL; detail="no stopping -> idle transition"; return
		fi
	elif grep -q "failed with status" "$err"; then
		verdict=FAIL; detail="'failed with status' on stderr"; return
	fi
	if ! grep -v '^[[:space:]]*$' "$out" | tail -n1 | grep -q "Sample finished successfully"; then
		verdict=FAIL; detail="last stdout line is not 'Sample finished successfully'"; return
	fi
	verdict=PASS; detail="ok"
	if [ $use_valgrind = 1 ]; then
		local vlog="$work/$name.valgrind" found
		rc=0
		( cd "$(dirname "$exe")" && env LD_LIBRARY_PATH="$libdir" "${judge_env[@]}" timeout $((timeout_s * 10)) \
			$valgrind_cmd --log-file="$vlog" "$exe" "${judge_args[@]}" >/dev/null 2>&1 ) || rc=$?
		found=$(valgrind_findings "$vlog")
		[ $rc = 0 ] || found="exit status $rc under valgrind${found:+; }$found"
		if [ -n "$found" ]; then verdict=FAIL; detail=$(printf '%s' "$found" | tr '\n' ';'); return; fi
		detail="ok, valgrind clean"
	fi
}

# The acceptance program the current rows belong to; it passes when all do.
program=""
programs=()
declare -A program_failed

record_row() { # name flavour (verdict, detail set by the caller)
	local what=$1
	[ $two_ns = 1 ] && what="$what [two namespaces]"
	if [ "$verdict" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
	[ "$verdict" = PASS ] || program_failed[$program]=1
	rows+=("$(printf '%-30s %-5s %-5s %s' "$what" "$2" "$verdict" "$detail")")
	printf '%s\n' "${rows[-1]}"
	[ $lines = 1 ] && echo "$verdict $row_kind $tree_version: $what ($2 flavour): $detail"
	return 0
}

# -h: usage on stdout, exit 0; -v: both versions, exit 0; an unknown flag:
# an error and a non-zero exit, never a crash or a hang.
check_flags() { # name exe flavour
	local name=$1 exe=$2 flavour=$3 out="$work/$1.flags.out" rc
	run_flag() { rc=0; ( cd "$(dirname "$exe")" && LD_LIBRARY_PATH="$libdir" timeout "$timeout_s" "$exe" "$@" >"$out" 2>&1 ) || rc=$?; }

	run_flag -h
	if [ $rc = 0 ] && grep -q "^Usage: doca_$name" "$out"; then verdict=PASS; detail="usage, exit 0"
	else verdict=FAIL; detail="exit $rc, usage text missing ($out)"; fi
	record_row "$name -h" "$flavour"

	run_flag -v
	if [ $rc = 0 ] && [ "$(grep -cF "$softdoca_version" "$out")" -ge 2 ]; then verdict=PASS; detail="both versions ($softdoca_version), exit 0"
	else verdict=FAIL; detail="exit $rc, versions missing ($out)"; fi
	record_row "$name -v" "$flavour"

	run_flag --no-such-flag
	if [ $rc != 0 ] && [ $rc -lt 124 ] && grep -q "no-such-flag" "$out"; then verdict=PASS; detail="refused, exit $rc"
	else verdict=FAIL; detail="exit $rc ($out)"; fi
	record_row "$name --no-such-flag" "$flavour"
}

# build_sample NAME FOLDER FLAVOUR - meson setup + ninja; sets exe, or
# verdict=FAIL and detail.
build_sample() {
	local name=$1 src="$tree/samples/$2/$1" build="$work/build/$1" pc=$pc_host
	[ "$3" = dpu ] && pc=$pc_dpu
	exe="$build/doca_$name"
	verdict=PASS
	if [ ! -f "$src/meson.build" ]; then
		verdict=FAIL; detail="not in this samples tree"
	elif ! grep -Eq '^[[:space:]]*project[[:space:]]*\(' "$src/meson.build"; then
		verdict=FAIL
		detail="its meson.build is a fragment of the tree-wide build (no project() call) and the tree has no meson.build.public for it"
	elif ! rm -rf "$build" || ! PKG_CONFIG_PATH="$pc" meson setup "$build" "$src" -Dwarning_level=2 \
		>"$work/$name.setup.log" 2>&1; then
		verdict=FAIL; detail="meson setup failed ($work/$name.setup.log)"
	elif ! ninja -C "$build" >"$work/$name.build.log" 2>&1; then
		verdict=FAIL; detail="build failed ($work/$name.build.log)"
	elif grep -q 'warning:' "$work/$name.build.log"; then
		# NVIDIA builds the samples with -Wall -Wextra -Werror against its headers.
		verdict=FAIL; detail="$(grep -c 'warning:' "$work/$name.build.log") compiler warning(s) at -Wall -Wextra ($work/$name.build.log)"
	fi
}

# The command prefix of a run: valgrind with a log file when asked.
run_prefix() { # name
	if [ $use_valgrind = 1 ]; then
		echo "$valgrind_cmd --log-file=$work/$1.valgrind"
	fi
}

# dma_copy_host and dma_copy_dpu as two processes.  The host exports its
# buffer and waits for Enter on stdin (a FIFO here); the DPU imports the
# descriptor from the files the host wrote and prints the host's text.
run_pair() {
	local host_exe dpu_exe text="softdoca pair $$ $(date +%s%N)"
	local desc="$work/export_desc.txt" info="$work/buffer_info.txt" fifo="$work/host.stdin"
	local host_pid rc=0 waited=0 t=$((timeout_s * (use_valgrind ? 10 : 1)))
	build_sample dma_copy_host doca_dma host; host_exe=$exe
	[ "$verdict" = PASS ] || return
	build_sample dma_copy_dpu doca_dma dpu; dpu_exe=$exe
	[ "$verdict" = PASS ] || return
	rm -f "$desc" "$info" "$fifo" "$work/dma_copy_host.stdout" # old lines would pass for new ones
	mkfifo "$fifo"
	( cd "$(dirname "$host_exe")" && LD_LIBRARY_PATH="$libdir" exec timeout "$t" "${host_side[@]}" \
		$(run_prefix dma_copy_host) "$host_exe" -t "$text" -d "$desc" -b "$info" <"$fifo" >"$work/dma_copy_host.stdout" 2>"$work/dma_copy_host.stderr" ) &
	host_pid=$!
	exec 7>"$fifo" # keep the host's stdin open until we press Enter
	while ! grep -q "press enter" "$work/dma_copy_host.stdout" 2>/dev/null; do
		if ! kill -0 $host_pid 2>/dev/null || [ $waited -ge $((t * 10)) ]; then
			exec 7>&-
			wait $host_pid || true
			verdict=FAIL; detail="the host side never exported (see $work/dma_copy_host.stderr)"; return
		fi
		sleep 0.1; waited=$((waited + 1))
	done
	( cd "$(dirname "$dpu_exe")" && LD_LIBRARY_PATH="$libdir" timeout "$t" "${dpu_side[@]}" \
		$(run_prefix dma_copy_dpu) "$dpu_exe" -d "$desc" -b "$info" >"$work/dma_copy_dpu.stdout" 2>"$work/dma_copy_dpu.stderr" ) || rc=$?
	printf '\n' >&7 # "Wait till the DPU has finished and press enter"
	exec 7>&-
	local host_rc=0
	wait $host_pid || host_rc=$?
	if [ $rc != 0 ]; then verdict=FAIL; detail="DPU side exit status $rc"; return; fi
	if ! grep -qF "Memory content: $text" "$work/dma_copy_dpu.stdout"; then
		verdict=FAIL; detail="the DPU did not print the host's text"; return
	fi
	if [ $host_rc != 0 ]; then verdict=FAIL; detail="host side exit status $host_rc after Enter"; return; fi
	for side in host dpu; do
		if grep -q "failed with status" "$work/dma_copy_$side.stderr" ||
			! grep -v '^[[:space:]]*$' "$work/dma_copy_$side.stdout" | tail -n1 | grep -q "Sample finished successfully"; then
			verdict=FAIL; detail="$side side did not finish successfully"; return
		fi
		if [ $use_valgrind = 1 ] && found=$(valgrind_findings "$work/dma_copy_$side.valgrind") && [ -n "$found" ]; then
			verdict=FAIL; detail="$side side: $(printf '%s' "$found" | tr '\n' ';')"; return
		fi
	done
	verdict=PASS; detail="DPU printed the host's text; host exited on Enter"
	[ $use_valgrind = 1 ] && detail="$detail; valgrind clean"
	return 0
}

# --- Comch control path and the DMA Copy application ------------------------

# Comch servers and clients of this run meet in a private folder
# (SOFTDOCA_COMCH_DIR), never the machine-wide names: a second run, or a
# test suite running at the same time, cannot answer our clients.  Socket
# paths are short (sun_path holds 108 bytes), hence a folder of its own.
init_comch_dir() { # in the runner's own shell, before any comch_env (on_exit removes it)
	[ -n "$comch_dir" ] || comch_dir=$(mktemp -d /tmp/sd-comch.XXXXXX)
}
comch_env() { echo "SOFTDOCA_COMCH_DIR=$comch_dir"; }

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# wait_for_line FILE TEXT PID SECONDS: until FILE holds TEXT (0), PID has
# ended (1) or SECONDS passed (2).
wait_for_line() {
	local n=0
	while ! grep -qF -- "$2" "$1" 2>/dev/null; do
		kill -0 "$3" 2>/dev/null || { grep -qF -- "$2" "$1" 2>/dev/null && return 0; return 1; }
		[ $n -ge $(($4 * 100)) ] && return 2
		sleep 0.01
		n=$((n + 1))
	done
}

# wait_exit PID SECONDS: sets rc to PID's exit status, or 124 after ending
# it when it is still running after SECONDS.  PID may be a `timeout`
# process: SIGTERM reaches its program through it, SIGKILL would not.
wait_exit() {
	local n=0
	while kill -0 "$1" 2>/dev/null && [ $n -lt $(($2 * 100)) ]; do
		sleep 0.01
		n=$((n + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -TERM "$1" 2>/dev/null || true
		n=0
		while kill -0 "$1" 2>/dev/null && [ $n -lt 200 ]; do sleep 0.01; n=$((n + 1)); done
		kill -9 "$1" 2>/dev/null || true
		wait "$1" 2>/dev/null || true
		rc=124
		return
	fi
	rc=0
	wait "$1" || rc=$?
}

# NAME_server (DPU flavour) and NAME_client (host flavour) of a Comch pair:
# the client sends its text, the server prints it and answers with its own
# text, the client prints that; both finish on their own.  NAME is
# comch_ctrl_path (messages) or comch_data_path_high_speed (the texts go
# through a consumer and a producer of each side).
run_comch_pair() {
	local base=$1 srv_exe cli_exe srv_pid rc=0 cli_rc=0 t=$((timeout_s * (use_valgrind ? 10 : 1)))
	local ctext="softdoca client $$ $(date +%s%N)" stext="softdoca server $$ $(date +%s%N)"
	local so="$work/${base}_server.stdout" co="$work/${base}_client.stdout"
	init_comch_dir
	build_sample ${base}_server doca_comch dpu; srv_exe=$exe
	[ "$verdict" = PASS ] || return 0
	build_sample ${base}_client doca_comch host; cli_exe=$exe
	[ "$verdict" = PASS ] || return 0
	: >"$so" # a reused --work folder holds old lines
	( cd "$(dirname "$srv_exe")" && exec env LD_LIBRARY_PATH="$libdir" "$(comch_env)" timeout "$t" \
		"${dpu_side[@]}" $(run_prefix ${base}_server) "$srv_exe" -t "$stext" >"$so" 2>"${so%.stdout}.stderr" ) &
	srv_pid=$!
	if ! wait_for_line "$so" "Waiting for clients to connect" $srv_pid "$t"; then
		wait_exit $srv_pid 1
		verdict=FAIL; detail="the server never listened (see ${so%.stdout}.stderr)"; return 0
	fi
	( cd "$(dirname "$cli_exe")" && LD_LIBRARY_PATH="$libdir" exec env "$(comch_env)" timeout "$t" \
		"${host_side[@]}" $(run_prefix ${base}_client) "$cli_exe" -t "$ctext" >"$co" 2>"${co%.stdout}.stderr" ) || cli_rc=$?
	wait_exit $srv_pid "$t"
	if [ $rc != 0 ]; then verdict=FAIL; detail="server exit status $rc"; return 0; fi
	if [ $cli_rc != 0 ]; then verdict=FAIL; detail="client exit status $cli_rc"; return 0; fi
	if ! grep -qF "Message received: '$ctext'" "$so"; then
		verdict=FAIL; detail="the server did not print the client's text"; return 0
	fi
	if ! grep -qF "Message received: '$stext'" "$co"; then
		verdict=FAIL; detail="the client did not print the server's text"; return 0
	fi
	for side in server client; do
		if grep -q "failed with status" "$work/${base}_$side.stderr" ||
			! grep -v '^[[:space:]]*$' "$work/${base}_$side.stdout" | tail -n1 | grep -q "Sample finished successfully"; then
			verdict=FAIL; detail="$side did not finish successfully"; return 0
		fi
		if [ $use_valgrind = 1 ] && found=$(valgrind_findings "$work/${base}_$side.valgrind") && [ -n "$found" ]; then
			verdict=FAIL; detail="$side side: $(printf '%s' "$found" | tr '\n' ';')"; return 0
		fi
	done
	verdict=PASS; detail="each side printed the other's text and finished"
	[ $use_valgrind = 1 ] && detail="$detail; valgrind clean"
	return 0
}

# sync_event_local_pci (DPU flavour: creates, exports over Comch, then
# signals and waits) and sync_event_remote_pci (host flavour: imports the
# event and answers), once with the CPU calls and once with the context's
# tasks and atomic updates; both must finish on their own.
run_sync_event_pair() {
	local dpu_exe host_exe
	init_comch_dir
	build_sample sync_event_local_pci doca_common dpu; dpu_exe=$exe
	[ "$verdict" = PASS ] || return 0
	build_sample sync_event_remote_pci doca_common host; host_exe=$exe
	[ "$verdict" = PASS ] || return 0
	se_pair_once "$dpu_exe" "$host_exe" sync && se_pair_once "$dpu_exe" "$host_exe" async --async --async-num-tasks 8 --atomic
	return 0
}

se_pair_once() { # dpu_exe host_exe label [flags...] -> verdict, detail
	local dpu_exe=$1 host_exe=$2 label=$3 dpu_pid rc=0 host_rc=0 t=$((timeout_s * (use_valgrind ? 10 : 1)))
	shift 3
	local so="$work/sync_event_local_pci.$label.stdout" ho="$work/sync_event_remote_pci.$label.stdout"
	: >"$so"
	( cd "$(dirname "$dpu_exe")" && exec env LD_LIBRARY_PATH="$libdir" "$(comch_env)" timeout "$t" \
		"${dpu_side[@]}" $(run_prefix sync_event_local_pci) "$dpu_exe" -d 03:00.0 -r b1:00.0 "$@" >"$so" 2>"${so%.stdout}.stderr" ) &
	dpu_pid=$!
	if ! wait_for_line "$so" "Starting the sample" $dpu_pid "$t"; then
		wait_exit $dpu_pid 1
		verdict=FAIL; detail="$label: the DPU side never started (see ${so%.stdout}.stderr)"; return 1
	fi
	sleep 1 # its Comch server listens once it has started
	( cd "$(dirname "$host_exe")" && LD_LIBRARY_PATH="$libdir" exec env "$(comch_env)" timeout "$t" \
		"${host_side[@]}" $(run_prefix sync_event_remote_pci) "$host_exe" -d b1:00.0 "$@" >"$ho" 2>"${ho%.stdout}.stderr" ) || host_rc=$?
	wait_exit $dpu_pid "$t"
	if [ $rc != 0 ]; then verdict=FAIL; detail="$label: DPU side exit status $rc"; return 1; fi
	if [ $host_rc != 0 ]; then verdict=FAIL; detail="$label: host side exit status $host_rc"; return 1; fi
	for out in "$so" "$ho"; do
		if grep -q "failed with status\|Failed" "${out%.stdout}.stderr" ||
			! grep -v '^[[:space:]]*$' "$out" | tail -n1 | grep -q "Sample finished successfully"; then
			verdict=FAIL; detail="$label: $(basename "${out%%.*}") did not finish successfully"; return 1
		fi
	done
	for side in sync_event_local_pci sync_event_remote_pci; do
		if [ $use_valgrind = 1 ] && found=$(valgrind_findings "$work/$side.valgrind") && [ -n "$found" ]; then
			verdict=FAIL; detail="$label: $side: $(printf '%s' "$found" | tr '\n' ';')"; return 1
		fi
	done
	verdict=PASS; detail="sync and async (tasks, atomic) runs: both sides signalled, waited and finished"
	[ $use_valgrind = 1 ] && detail="$detail; valgrind clean"
	return 0
}

# A DOCA RDMA pair: the responder side (DPU flavour, device mlx5_0) and the
# requester side (host flavour, mlx5_1) exchange connection and mmap
# descriptors through files in the scratch folder, as the samples document:
# the responder writes its files and asks for Enter; the requester writes
# its own and asks too; Enter to the responder (it connects), then to the
# requester (it connects and runs its task); once the requester has ended,
# one more Enter to a responder still waiting ("the requester has
# finished").  Both must exit 0 and print "Sample finished successfully";
# read and write also check the text that crossed.
# Enter on the stdin FIFO held as descriptor $1; a side that already ended
# (its FIFO has no reader) must not end the runner with SIGPIPE.
rdma_enter() { ( trap '' PIPE; printf '\n' >&"$1" ) 2>/dev/null || true; }

# Each side has a folder of its own, and the runner copies what one side wrote
# into the other's, as a user copies the files between two hosts: at the end
# both samples delete the local and the remote files, which in one shared
# folder races (the second unlink fails and that side exits 1).
rdma_copy_files() { # from to: files of `from` that `to` lacks
	local f
	for f in "$1"/*; do
		[ -f "$f" ] && [ ! -e "$2/${f##*/}" ] && cp "$f" "$2/"
	done
	return 0
}

run_rdma_pair() { # name
	local name=$1 resp req t=$((timeout_s * (use_valgrind ? 10 : 1)))
	local d="$work/rdma-$1" resp_exe req_exe resp_pid req_pid resp_rc=0 req_rc=0
	local text="softdoca rdma $$ $(date +%s%N)"
	local -a resp_args=() req_args=()
	case $name in
	rdma_send) resp=rdma_receive req=rdma_send ;;
	rdma_send_immediate) resp=rdma_receive_immediate req=rdma_send_immediate ;;
	rdma_multi_conn) resp=rdma_multi_conn_receive req=rdma_multi_conn_send ;;
	*) resp=${name}_responder req=${name}_requester ;;
	esac
	case $name in
	rdma_write | rdma_write_immediate) req_args=(-w "$text") ;;
	rdma_read) resp_args=(-r "$text") ;;
	esac
	build_sample "$resp" doca_rdma dpu; resp_exe=$exe
	[ "$verdict" = PASS ] || return 0
	build_sample "$req" doca_rdma host; req_exe=$exe
	[ "$verdict" = PASS ] || return 0
	rm -rf "$d"; mkdir -p "$d/resp" "$d/req"
	mkfifo "$d/resp.stdin" "$d/req.stdin"
	( cd "$d" && LD_LIBRARY_PATH="$libdir" exec timeout "$t" "${dpu_side[@]}" $(run_prefix "$resp") "$resp_exe" -d mlx5_0 \
		-ld "$d/resp/resp.conn" -re "$d/resp/req.conn" -m "$d/resp/mmap.desc" "${resp_args[@]}" \
		<"$d/resp.stdin" >"$d/resp.stdout" 2>"$d/resp.stderr" ) &
	resp_pid=$!
	exec 7>"$d/resp.stdin"
	if ! wait_for_line "$d/resp.stdout" "press enter" $resp_pid "$t"; then
		exec 7>&-; wait_exit $resp_pid 1
		verdict=FAIL; detail="the responder never asked for the requester's descriptor ($d/resp.stdout)"; return 0
	fi
	rdma_copy_files "$d/resp" "$d/req"
	( cd "$d" && LD_LIBRARY_PATH="$libdir" exec timeout "$t" "${host_side[@]}" $(run_prefix "$req") "$req_exe" -d mlx5_1 \
		-ld "$d/req/req.conn" -re "$d/req/resp.conn" -m "$d/req/mmap.desc" "${req_args[@]}" \
		<"$d/req.stdin" >"$d/req.stdout" 2>"$d/req.stderr" ) &
	req_pid=$!
	exec 8>"$d/req.stdin"
	if ! wait_for_line "$d/req.stdout" "press enter" $req_pid "$t"; then
		exec 7>&- 8>&-; wait_exit $req_pid 1; wait_exit $resp_pid 1
		verdict=FAIL; detail="the requester never asked for the responder's descriptors ($d/req.stdout)"; return 0
	fi
	rdma_copy_files "$d/req" "$d/resp"
	rdma_enter 7
	sleep 0.5 # the responder reads the requester's descriptor and connects
	rdma_enter 8
	# The multi-connection sender asks once more, once connected: the receives are posted by then.
	if [ "$name" = rdma_multi_conn ] && wait_for_line "$d/req.stdout" "receive tasks have been" $req_pid "$t"; then
		rdma_enter 8
	fi
	exec 8>&-
	wait_exit $req_pid "$t"; req_rc=$rc
	rdma_enter 7 # "the requester has finished" (lost on a responder that ended)
	exec 7>&-
	wait_exit $resp_pid "$t"; resp_rc=$rc
	if [ $req_rc != 0 ]; then verdict=FAIL; detail="$req exit status $req_rc ($d/req.stdout)"; return 0; fi
	if [ $resp_rc != 0 ]; then verdict=FAIL; detail="$resp exit status $resp_rc ($d/resp.stdout)"; return 0; fi
	for side in resp req; do
		if ! grep -v '^[[:space:]]*$' "$d/$side.stdout" | tail -n1 | grep -q "Sample finished successfully"; then
			verdict=FAIL; detail="$side side did not finish successfully ($d/$side.stdout)"; return 0
		fi
		if [ $use_valgrind = 1 ] && [ "$(softdoca_leaks "$work/$([ $side = resp ] && echo "$resp" || echo "$req").valgrind")" != 0 ]; then
			verdict=FAIL; detail="valgrind: leak inside softdoca on the $side side"; return 0
		fi
	done
	case $name in
	rdma_write | rdma_write_immediate)
		grep -qF "$text" "$d/resp.stdout" || { verdict=FAIL; detail="the responder did not print the written text"; return 0; } ;;
	rdma_read)
		grep -qF "Read from responder: \"$text\"" "$d/req.stdout" || { verdict=FAIL; detail="the requester did not print the text it read"; return 0; } ;;
	rdma_send | rdma_send_immediate | rdma_multi_conn)
		grep -qF 'Got from sender: "' "$d/resp.stdout" || { verdict=FAIL; detail="the receiver did not print the message it got"; return 0; } ;;
	esac
	verdict=PASS; detail="$resp (DPU) and $req (host): descriptors through files, both finished"
	[ $use_valgrind = 1 ] && detail="$detail; valgrind clean"
	return 0
}

# The connection-manager run of a pair (--use-rdma-cm): the responder
# listens on a port below the kernel's ephemeral range, the requester
# connects to it (the DPU side's address with --two-namespaces, else
# loopback); the memory descriptor then crosses the connection as a send.
# The responder asks for Enter twice (the requester posted its receive;
# the requester has finished); the requester asks for nothing.  The text
# that crossed is checked as in run_rdma_pair.
run_rdma_cm_pair() { # name
	local name=$1 base=${1%_cm} t=$((timeout_s * (use_valgrind ? 10 : 1)))
	local d="$work/rdma-$1" resp_exe req_exe resp_pid req_pid req_rc=0
	local text="softdoca rdma cm $$ $(date +%s%N)" port=$((12000 + RANDOM % 20000)) server=127.0.0.1
	local -a resp_args=() req_args=(-w "$text")
	[ "$base" = rdma_read ] && resp_args=(-r "$text") req_args=()
	[ $two_ns = 1 ] && server=$ADDR_DPU
	build_sample "${base}_responder" doca_rdma dpu; resp_exe=$exe
	[ "$verdict" = PASS ] || return 0
	build_sample "${base}_requester" doca_rdma host; req_exe=$exe
	[ "$verdict" = PASS ] || return 0
	rm -rf "$d"; mkdir -p "$d"
	mkfifo "$d/resp.stdin"
	( cd "$d" && LD_LIBRARY_PATH="$libdir" exec timeout "$t" "${dpu_side[@]}" $(run_prefix "${base}_responder") \
		"$resp_exe" -d mlx5_0 -cm -lp "$port" "${resp_args[@]}" <"$d/resp.stdin" >"$d/resp.stdout" 2>"$d/resp.stderr" ) &
	resp_pid=$!
	exec 7>"$d/resp.stdin"
	if ! wait_for_line "$d/resp.stdout" "started connection successfully" $resp_pid "$t"; then
		exec 7>&-; wait_exit $resp_pid 1
		verdict=FAIL; detail="the responder did not listen on port $port ($d/resp.stdout)"; return 0
	fi
	( cd "$d" && LD_LIBRARY_PATH="$libdir" exec timeout "$t" "${host_side[@]}" $(run_prefix "${base}_requester") \
		"$req_exe" -d mlx5_1 -cm -sa "$server" -lp "$port" "${req_args[@]}" </dev/null >"$d/req.stdout" 2>"$d/req.stderr" ) &
	req_pid=$!
	if ! wait_for_line "$d/resp.stdout" "press enter" $resp_pid "$t"; then
		exec 7>&-; wait_exit $req_pid 1; wait_exit $resp_pid 1
		verdict=FAIL; detail="no connection was established ($d/resp.stdout, $d/req.stdout)"; return 0
	fi
	sleep 0.5 # the requester posts its receive once established
	rdma_enter 7
	wait_exit $req_pid "$t"; req_rc=$rc
	rdma_enter 7 # "the requester has finished writing"
	exec 7>&-
	wait_exit $resp_pid "$t"
	if [ $req_rc != 0 ]; then verdict=FAIL; detail="${base}_requester exit status $req_rc ($d/req.stdout)"; return 0; fi
	if [ $rc != 0 ]; then verdict=FAIL; detail="${base}_responder exit status $rc ($d/resp.stdout)"; return 0; fi
	for side in resp req; do
		if ! grep -v '^[[:space:]]*$' "$d/$side.stdout" | tail -n1 | grep -q "Sample finished successfully"; then
			verdict=FAIL; detail="$side side did not finish successfully ($d/$side.stdout)"; return 0
		fi
		if [ $use_valgrind = 1 ] && [ "$(softdoca_leaks "$work/${base}_$([ $side = resp ] && echo responder || echo requester).valgrind")" != 0 ]; then
			verdict=FAIL; detail="valgrind: leak inside softdoca on the $side side"; return 0
		fi
	done
	if [ "$base" = rdma_read ]; then
		grep -qF "Read from responder: \"$text\"" "$d/req.stdout" || { verdict=FAIL; detail="the requester did not print the text it read"; return 0; }
	else
		grep -qF "$text" "$d/resp.stdout" || { verdict=FAIL; detail="the responder did not print the written text"; return 0; }
	fi
	verdict=PASS; detail="${base}_responder (DPU, listening) and ${base}_requester (host) joined by the connection manager"
	[ $use_valgrind = 1 ] && detail="$detail; valgrind clean"
	return 0
}

# DMA Copy as the application project builds it.  Each run gets its own
# folders: host/ and dpu/ (the two sides must not see the same -f path),
# both under $apps; -f is given relative (DMA Copy keeps at most
# 127 characters).
apps="$work/apps"
app_host_exe="" app_dpu_exe=""
fail_limit=5 # seconds a side may take to give up once its peer is gone

build_app() { # flavour [application] -> sets exe, or verdict=FAIL and detail
	local flavour=$1 app=${2:-dma_copy} pc=$pc_host
	local build="$work/build/$app-$1" log="$work/$app-$1"
	[ "$flavour" = dpu ] && pc=$pc_dpu
	exe="$build/$app/doca_$app"
	verdict=PASS; detail="built unmodified (-Denable_$app=true), no warnings"
	if ! rm -rf "$build" || ! PKG_CONFIG_PATH="$pc" meson setup "$build" "$tree/applications" -Denable_all_applications=false \
		"-Denable_$app=true" >"$log.setup.log" 2>&1; then
		verdict=FAIL; detail="meson setup failed ($log.setup.log)"
	elif ! ninja -C "$build" >"$log.build.log" 2>&1; then
		verdict=FAIL; detail="build failed ($log.build.log)"
	elif [ ! -x "$exe" ]; then
		verdict=FAIL; detail="meson left $app out: $(grep -m1 "Skipping compilation of DOCA Application - $app" "$log.setup.log" || echo "see $log.setup.log")"
	elif [ "$flavour" = dpu ] && ! grep -q 'has symbol "DOCA_ARCH_DPU".*YES' "$log.setup.log"; then
		verdict=FAIL; detail="the project did not see the DPU flavour (DOCA_ARCH_DPU)"
	elif grep -q 'warning:' "$log.build.log"; then
		# DOCA's own headers compile DMA Copy without a warning.
		verdict=FAIL; detail="$(grep -c 'warning:' "$log.build.log") compiler warning(s) ($log.build.log)"
	fi
}

# app_dpu NAME FILE [ENV...]: start the DPU side in dpu/ and wait until it
# listens; sets dpu_pid (the timeout process, or with VICTIM=1 the
# program itself, so that a kill -9 reaches it).  Returns 1 when it never
# listened.
app_dpu() {
	local name=$1 file=$2 t=$((timeout_s * (use_valgrind ? 10 : 1)))
	shift 2
	local pre=(timeout "$t")
	[ "${VICTIM:-0}" = 1 ] && pre=()
	: >"$work/$name.dpu.log" # a reused --work folder holds old lines
	( cd "$apps/dpu" && exec env LD_LIBRARY_PATH="$libdir" "$(comch_env)" "$@" "${pre[@]}" "${dpu_side[@]}" \
		$(run_prefix "$name.dpu") "$app_dpu_exe" -p 03:00.0 -r b1:00.0 -f "$file" \
		>"$work/$name.dpu.log" 2>&1 ) &
	dpu_pid=$!
	wait_for_line "$work/$name.dpu.log" "Server waiting on a client to connect" $dpu_pid "$t" && return 0
	wait_exit $dpu_pid 1
	return 1
}

# app_host NAME FILE [ENV...]: the host side in host/, in the background;
# sets host_pid as app_dpu sets dpu_pid.
app_host() {
	local name=$1 file=$2 t=$((timeout_s * (use_valgrind ? 10 : 1)))
	shift 2
	local pre=(timeout "$t")
	[ "${VICTIM:-0}" = 1 ] && pre=()
	: >"$work/$name.host.log"
	( cd "$apps/host" && exec env LD_LIBRARY_PATH="$libdir" "$(comch_env)" "$@" "${pre[@]}" "${host_side[@]}" \
		$(run_prefix "$name.host") "$app_host_exe" -p b1:00.0 -f "$file" \
		>"$work/$name.host.log" 2>&1 ) &
	host_pid=$!
}

fresh_sides() { rm -rf "$apps/host" "$apps/dpu"; mkdir -p "$apps/host" "$apps/dpu"; }

# The reason a side gave, for the detail column: its first ERROR record
# from DMA Copy's own file (the helpers' records follow from it), else its
# last ERROR record; nothing (and success) when it logged none.
last_err() {
	{ grep -h -m1 '\]\[ERR\]\[dma_copy' "$1" 2>/dev/null ||
		grep -h '\]\[ERR\]\[' "$1" 2>/dev/null | tail -n1; } | sed 's/^.*\]\[[^]]*\] //' | cut -c1-90 || true
}

# One copy of the matrix: SIZE bytes from SENDER (host or dpu) to the other.
app_copy() { # label size sender
	local label=$1 size=$2 sender=$3 receiver=dpu name="app.$1.$3" t0 ms host_rc dpu_rc
	local data="$apps/data/$label" vg=$use_valgrind
	[ "$sender" = dpu ] && receiver=host
	# valgrind on every size but 64 MiB (which would only measure valgrind)
	[ "$size" -gt $((16 << 20)) ] && use_valgrind=0
	fresh_sides
	ln "$data" "$apps/$sender/file" 2>/dev/null || cp "$data" "$apps/$sender/file"
	t0=$(now_ms)
	if ! app_dpu "$name" file; then
		use_valgrind=$vg
		verdict=FAIL; detail="the DPU side never listened: $(last_err "$work/$name.dpu.log")"; return 0
	fi
	app_host "$name" file
	wait_exit $host_pid $((timeout_s * (vg ? 10 : 1))); host_rc=$rc
	wait_exit $dpu_pid $((timeout_s * (vg ? 10 : 1))); dpu_rc=$rc
	ms=$(($(now_ms) - t0))
	use_valgrind=$vg
	if [ $host_rc != 0 ] || [ $dpu_rc != 0 ]; then
		verdict=FAIL
		detail="exit status host $host_rc, DPU $dpu_rc: $(last_err "$work/$name.$receiver.log")$(last_err "$work/$name.$sender.log")"
		return 0
	fi
	if ! cmp -s "$data" "$apps/$receiver/file"; then
		verdict=FAIL; detail="the $receiver's file differs from the $sender's ($apps/$receiver/file)"; return 0
	fi
	if ! grep -q "Final status message was successfully received" "$work/$name.host.log" ||
		! grep -q "DMA copy was done Successfully" "$work/$name.dpu.log"; then
		verdict=FAIL; detail="a side did not log its success line ($work/$name.*.log)"; return 0
	fi
	verdict=PASS; detail="identical bytes, both exit 0, ${ms} ms"
	if [ $use_valgrind = 1 ] && [ "$size" -le $((16 << 20)) ]; then
		for side in host dpu; do
			found=$(valgrind_findings "$work/$name.$side.valgrind")
			if [ -n "$found" ]; then
				verdict=FAIL; detail="$side side: $(printf '%s' "$found" | tr '\n' ';')"
				return 0
			fi
		done
		detail="$detail; valgrind clean"
	fi
	rm -f "$apps/host/file" "$apps/dpu/file"
}

# kill -9 VICTIM (host or dpu) while a 64 MiB file moves from SENDER, right
# after the DPU has answered the direction (the copy comes next); the
# survivor must end within $fail_limit s, saying why.
app_kill() { # victim sender
	local victim=$1 sender=$2 survivor=dpu name="app.kill-$1" spid vpid t0 ms
	[ "$victim" = dpu ] && survivor=host
	fresh_sides
	ln "$apps/data/64MiB" "$apps/$sender/file" 2>/dev/null || cp "$apps/data/64MiB" "$apps/$sender/file"
	if [ "$victim" = dpu ]; then
		VICTIM=1 app_dpu "$name" file || { verdict=FAIL; detail="the DPU side never listened"; return 0; }
		vpid=$dpu_pid
		app_host "$name" file; spid=$host_pid
	else
		app_dpu "$name" file || { verdict=FAIL; detail="the DPU side never listened"; return 0; }
		spid=$dpu_pid
		VICTIM=1 app_host "$name" file; vpid=$host_pid
	fi
	if ! wait_for_line "$work/$name.dpu.log" "locally, it will be DMA copied" $spid "$timeout_s"; then
		kill -9 $vpid 2>/dev/null || true; wait $vpid 2>/dev/null || true
		wait_exit $spid 1
		verdict=FAIL; detail="the copy never began ($work/$name.dpu.log)"; return 0
	fi
	kill -9 $vpid
	wait $vpid 2>/dev/null || true
	t0=$(now_ms)
	wait_exit $spid $fail_limit
	ms=$(($(now_ms) - t0))
	if [ $rc = 124 ]; then
		verdict=FAIL; detail="the $survivor still ran ${fail_limit} s after the $victim was killed"
	elif [ $rc = 0 ] && cmp -s "$apps/data/64MiB" "$apps/host/file" && cmp -s "$apps/data/64MiB" "$apps/dpu/file"; then
		verdict=PASS; detail="the copy had completed before the kill; the $survivor exited 0 in ${ms} ms"
	elif [ $rc = 0 ]; then
		verdict=FAIL; detail="the $survivor exited 0 without the whole file"
	elif [ $rc -gt 128 ]; then
		verdict=FAIL; detail="the $survivor died of signal $((rc - 128))"
	elif [ -z "$(last_err "$work/$name.$survivor.log")" ]; then
		verdict=FAIL; detail="the $survivor exited $rc without an error record"
	else
		verdict=PASS; detail="$survivor exit $rc in ${ms} ms: $(last_err "$work/$name.$survivor.log")"
	fi
	rm -f "$apps/host/file" "$apps/dpu/file"
}

# A refused copy: both sides must end within $fail_limit s with a non-zero
# status, the DPU logging EXPECT, and no file written.
app_refused() { # name expect host-file-size|- dpu-env...
	local name="app.$1" expect=$2 size=$3 t0 ms host_rc dpu_rc
	shift 3
	fresh_sides
	[ "$size" != - ] && head -c "$size" /dev/urandom >"$apps/host/file"
	t0=$(now_ms)
	app_dpu "$name" file "$@" || { verdict=FAIL; detail="the DPU side never listened: $(last_err "$work/$name.dpu.log")"; return 0; }
	app_host "$name" file "$@"
	wait_exit $host_pid $fail_limit; host_rc=$rc
	wait_exit $dpu_pid $fail_limit; dpu_rc=$rc
	ms=$(($(now_ms) - t0))
	if [ $host_rc = 0 ] || [ $host_rc -ge 124 ] || [ $dpu_rc = 0 ] || [ $dpu_rc -ge 124 ]; then
		verdict=FAIL; detail="exit status host $host_rc, DPU $dpu_rc (want both failing within ${fail_limit} s)"
	elif ! grep -qF -- "$expect" "$work/$name.dpu.log"; then
		verdict=FAIL; detail="the DPU did not say '$expect' ($work/$name.dpu.log)"
	elif [ -e "$apps/dpu/file" ] || { [ "$size" = - ] && [ -e "$apps/host/file" ]; }; then
		verdict=FAIL; detail="a file was written although the copy was refused"
	else
		verdict=PASS; detail="both exit 1 in ${ms} ms; DPU: $(last_err "$work/$name.dpu.log")"
	fi
}

# The host started alone.  DMA Copy's client waits in a loop that ends only
# when its context is RUNNING (common/comch_utils.c) and the guide says to
# start the DPU side first; softdoca keeps looking for the server
# (docs/decisions.md, comch).  Checked: it neither crashes nor claims success
# nor writes anything while it waits; the runner ends it after 3 s.
app_no_server() {
	local name="app.no-server"
	fresh_sides
	(
		cd "$apps/host" && exec env LD_LIBRARY_PATH="$libdir" "$(comch_env)" timeout 3 "${host_side[@]}" \
			"$app_host_exe" -p b1:00.0 -f file >"$work/$name.host.log" 2>&1
	) && rc=0 || rc=$?
	if [ $rc = 124 ]; then
		verdict=PASS; detail="waits for its server (DMA Copy leaves only on RUNNING); ended after 3 s"
	elif [ $rc = 0 ]; then
		verdict=FAIL; detail="exit 0 without a server"
	elif [ $rc -gt 128 ]; then
		verdict=FAIL; detail="died of signal $((rc - 128))"
	else
		verdict=PASS; detail="exit $rc: $(last_err "$work/$name.host.log")"
	fi
	[ -e "$apps/host/file" ] && { verdict=FAIL; detail="wrote a file without a server"; }
	return 0
}

# Both flavours of one application of the tree, built; sets pair_host_exe
# and pair_dpu_exe.  Fails (rows recorded, row kind restored) when the tree
# lacks the application or a flavour does not build.
pair_host_exe="" pair_dpu_exe=""
build_app_pair() { # application
	local app=$1 fl
	pair_host_exe="" pair_dpu_exe=""
	row_kind=applications
	if [ ! -f "$tree/applications/meson.build" ] || [ ! -d "$tree/applications/$app" ]; then
		verdict=FAIL; detail="not in this tree"
		record_row "${app}_app" apps
		row_kind=samples
		return 1
	fi
	init_comch_dir
	for fl in host dpu; do
		build_app $fl "$app"
		record_row "$app build" $fl
		[ "$verdict" = PASS ] || continue
		if [ $fl = host ]; then pair_host_exe=$exe; else pair_dpu_exe=$exe; fi
	done
	if [ -z "$pair_host_exe" ] || [ -z "$pair_dpu_exe" ]; then
		verdict=FAIL; detail="not run: a flavour did not build"
		record_row "$app runs" pair
		row_kind=samples
		return 1
	fi
	return 0
}

run_applications() {
	local sizes=(1B:1 4KiB:4096 3MB:3000000 64MiB:67108864) entry label size
	build_app_pair dma_copy || return 0
	app_host_exe=$pair_host_exe app_dpu_exe=$pair_dpu_exe
	mkdir -p "$apps/data"
	check_flags dma_copy "$app_host_exe" host
	for entry in "${sizes[@]}"; do
		label=${entry%%:*} size=${entry#*:}
		head -c "$size" /dev/urandom >"$apps/data/$label"
		app_copy "$label" "$size" host; record_row "dma_copy $label host->dpu" pair
		app_copy "$label" "$size" dpu; record_row "dma_copy $label dpu->host" pair
	done
	# The failure cases judge timing: never under valgrind.
	local vg=$use_valgrind
	use_valgrind=0
	app_kill host host; record_row "dma_copy kill host mid-copy" pair
	app_kill dpu dpu; record_row "dma_copy kill dpu mid-copy" pair
	app_no_server; record_row "dma_copy server not running" host
	# A DPU whose DMA takes at most 1 MiB per task, and a 2 MiB file.
	cat >"$apps/small-dma.ini" <<-'EOF'
		# run-samples: the default topology with a 1 MiB DMA buffer limit
		[device 0000:03:00.0]
		side = dpu
		dma_max_buf_size = 1M
		[rep 0000:b1:00.0]
		kind = net
		[device 0000:b1:00.0]
		side = host
	EOF
	app_refused over-max "maximum allowed file size" $((2 << 20)) SOFTDOCA_TOPOLOGY="$apps/small-dma.ini"
	record_row "dma_copy file over max size" pair
	app_refused no-file "File was not found on both Host and DPU" -
	record_row "dma_copy file on neither side" pair
	use_valgrind=$vg
	rm -rf "$apps/data" "$apps/host" "$apps/dpu"
	row_kind=samples
}

# Secure Channel: one pair run of COUNT messages of SIZE bytes each way.
sc_host_exe="" sc_dpu_exe=""
sc_pair() { # size count
	local size=$1 n=$2 name="sc.$1x$2" t=$((timeout_s * (use_valgrind ? 10 : 1))) t0 ms host_rc dpu_rc side found
	: >"$work/$name.dpu.log"
	t0=$(now_ms)
	( exec env LD_LIBRARY_PATH="$libdir" "$(comch_env)" timeout "$t" "${dpu_side[@]}" $(run_prefix "$name.dpu") \
		"$sc_dpu_exe" -s "$size" -n "$n" -p 03:00.0 -r b1:00.0 >"$work/$name.dpu.log" 2>&1 ) &
	dpu_pid=$!
	if ! wait_for_line "$work/$name.dpu.log" "Server waiting on a client to connect" $dpu_pid "$t"; then
		wait_exit $dpu_pid 1
		verdict=FAIL; detail="the DPU side never listened: $(last_err "$work/$name.dpu.log")"; return 0
	fi
	( exec env LD_LIBRARY_PATH="$libdir" "$(comch_env)" timeout "$t" "${host_side[@]}" $(run_prefix "$name.host") \
		"$sc_host_exe" -s "$size" -n "$n" -p b1:00.0 >"$work/$name.host.log" 2>&1 ) && host_rc=0 || host_rc=$?
	wait_exit $dpu_pid "$t"; dpu_rc=$rc
	ms=$(($(now_ms) - t0))
	if [ $host_rc != 0 ] || [ $dpu_rc != 0 ]; then
		verdict=FAIL; detail="exit status host $host_rc, DPU $dpu_rc: $(last_err "$work/$name.host.log")$(last_err "$work/$name.dpu.log")"
		return 0
	fi
	for side in host dpu; do
		if ! grep -q "Producer sent $n messages" "$work/$name.$side.log" ||
			! grep -q "Consumer received $n messages" "$work/$name.$side.log"; then
			verdict=FAIL; detail="the $side side did not report $n messages sent and received ($work/$name.$side.log)"; return 0
		fi
		if grep -q '\]\[ERR\]\[' "$work/$name.$side.log"; then
			verdict=FAIL; detail="the $side side logged an ERROR record: $(last_err "$work/$name.$side.log")"; return 0
		fi
		if [ $use_valgrind = 1 ]; then
			found=$(valgrind_findings "$work/$name.$side.valgrind")
			[ -z "$found" ] || { verdict=FAIL; detail="$side side: $(printf '%s' "$found" | tr '\n' ';')"; return 0; }
		fi
	done
	verdict=PASS; detail="$n messages of $size B each way on both sides, both exit 0, ${ms} ms"
	[ $use_valgrind = 1 ] && detail="$detail; valgrind clean"
	return 0
}

run_secure_channel() {
	local entry
	build_app_pair secure_channel || return 0
	sc_host_exe=$pair_host_exe sc_dpu_exe=$pair_dpu_exe
	check_flags secure_channel "$sc_host_exe" host
	local runs=(1:1 64:1000 4080:20000)
	for entry in "${runs[@]}"; do
		sc_pair "${entry%%:*}" "${entry#*:}"
		record_row "secure_channel ${entry#*:} x ${entry%%:*} B" pair
	done
	row_kind=samples
}

# dma_local_copy again, its DMA on gpu0's copy engines (--cuda-lib): the
# GPU's address comes from softdoca-caps, as a user would look it up.
run_on_gpu() { # exe flavour
	local exe=$1 flavour=$2 addr
	addr=$(SOFTDOCA_CUDA_LIB="$cuda_lib" LD_LIBRARY_PATH="$libdir" "$prefix/bin/softdoca-caps" --list-devs 2>/dev/null |
		awk '/^PCI:/ {a = $2} $1 == "ibdev_name" && $2 == "gpu0" {print a}')
	if [ -z "$addr" ]; then
		verdict=FAIL; detail="softdoca-caps lists no gpu0 with SOFTDOCA_CUDA_LIB=$cuda_lib"
	else
		judge_env=(SOFTDOCA_CUDA_LIB="$cuda_lib") judge_args=(-p "$addr" -t "copied by gpu0's copy engines" -ns 3 -nd 2)
		judge dma_local_copy_gpu "$exe" "$flavour"
		judge_env=() judge_args=()
		[ "$verdict" = PASS ] && detail="$detail (gpu0 at $addr, 3 source and 2 destination buffers)"
	fi
	record_row "dma_local_copy on gpu0" "$flavour"
}

for entry in "${selected[@]}"; do
	IFS=: read -r name flavour folder <<<"$entry"
	program=$name
	programs+=("$name")
	if [ "$flavour" = pair ]; then
		case $name in
		comch_ctrl_path | comch_data_path_high_speed) run_comch_pair "$name" ;;
		sync_event) run_sync_event_pair ;;
		rdma_*_cm) run_rdma_cm_pair "$name" ;;
		rdma_*) run_rdma_pair "$name" ;;
		*) run_pair ;;
		esac
		record_row "$name" "$flavour"
		continue
	fi
	if [ "$flavour" = apps ]; then
		case $name in
		secure_channel_app) run_secure_channel ;;
		*) run_applications ;;
		esac
		continue
	fi
	# DOCA Clock came with 3.2: older trees do not have its sample.
	[ "$name" = clock_cross_timestamp ] && [ ! -d "$tree/samples/$folder/$name" ] && { programs=("${programs[@]:0:${#programs[@]}-1}"); continue; }
	build_sample "$name" "$folder" "$flavour"
	[ "$name" = clock_cross_timestamp ] && judge_args=(-p 03:00.0 -c host_rt -n nic_rt) # a cross timestamp
	[ "$verdict" = PASS ] && judge "$name" "$exe" "$flavour"
	judge_args=()
	record_row "$name" "$flavour"
	# Samples that parse their command line: the built-in flags.
	if [ "$verdict" = PASS ] && grep -q doca_argp_start "$tree/samples/$folder/$name"/*_main.c 2>/dev/null; then
		check_flags "$name" "$exe" "$flavour"
	fi
	if [ "$name" = dma_local_copy ] && [ -n "$cuda_lib" ]; then
		run_on_gpu "$exe" "$flavour"
	fi
done

echo
printf '%-30s %-5s %-5s %s\n' SAMPLE FLAV RESULT DETAIL
printf '%s\n' "${rows[@]}"
echo
good=0
printf '%-30s %s\n' "PROGRAM (DOCA $tree_version)" RESULT
for p in "${programs[@]}"; do
	if [ -n "${program_failed[$p]:-}" ]; then
		printf '%-30s %s\n' "$p" FAIL
	else
		printf '%-30s %s\n' "$p" PASS
		good=$((good + 1))
	fi
done
echo "logs: $work"
echo "DOCA $tree_version: $good of ${#programs[@]} programs passed every check"
echo "$passed passed, $failed failed"
[ $failed = 0 ]
