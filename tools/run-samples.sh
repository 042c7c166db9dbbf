#!/usr/bin/env bash
# run-samples.sh - build official DOCA samples unmodified against an
# installed softdoca and run them, printing a pass/fail table.
#
# The samples are never part of this repository: point the runner at the
# tree you have (an SDK's /opt/mellanox/doca, or a checkout of a public copy
# of the DOCA 3.0 samples).  The runner copies what it needs into a scratch
# folder, so your tree is only read.
#
# Usage: tools/run-samples.sh [options] DOCA_ROOT [SAMPLE ...]
#   DOCA_ROOT   folder holding samples/ (and applications/ + VERSION), or
#               its samples/ folder itself, or a git repository (bare or
#               not) whose HEAD holds samples/ and applications/
#   SAMPLE      names from the acceptance set (default: all of it)
# Options:
#   --prefix P     softdoca installed under P (default: build this checkout
#                  and install it into ./_install)
#   --timeout S    seconds per run (default 30; a timeout is a failure)
#   --valgrind     also run each sample under valgrind and fail it when a
#                  leak record points into a softdoca library
#   --work DIR     scratch folder (default: a fresh mktemp folder)
#   --lines        also print one "PASS name" / "FAIL name" line per check
#                  (what tests/run.sh counts)
#   --list         print the acceptance set and exit
#   -h, --help     this text
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
prefix=""
timeout_s=30
use_valgrind=0
lines=0
work=""

# name:flavour:folder.  Flavour decides which pkg-config folder the build
# sees (dma_local_copy refuses to run unless built for the DPU).  "pair"
# runs two programs side by side: dma_copy_host (host flavour) exports a
# buffer, dma_copy_dpu (DPU flavour) imports it and copies it over.
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
)

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

die() { echo "run-samples: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case "$1" in
	--prefix) prefix=$(realpath -m "$2"); shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--valgrind) use_valgrind=1; shift ;;
	--lines) lines=1; shift ;;
	--work) work=$(realpath -m "$2"); shift 2 ;;
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
for w in "${wanted[@]}"; do
	printf '%s\n' "${acceptance[@]}" | cut -d: -f1 | grep -qx "$w" || die "unknown sample '$w' (try --list)"
done

for tool in meson ninja pkg-config timeout; do
	command -v "$tool" >/dev/null || die "$tool is missing (apt-get install meson ninja-build pkg-config coreutils)"
done
command -v c++ >/dev/null || die "a C++ compiler is missing: the samples' meson projects declare C++ (apt-get install g++)"
if [ $use_valgrind = 1 ]; then
	command -v valgrind >/dev/null || die "valgrind is missing (apt-get install valgrind)"
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
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1 && ! [ -d "$root/samples" ]; then
	echo "== exporting samples/ and applications/ from git repository $root"
	git -C "$root" archive HEAD samples applications | tar -x -C "$tree"
	git -C "$root" cat-file -e HEAD:VERSION 2>/dev/null && git -C "$root" show HEAD:VERSION >"$tree/VERSION"
else
	[ -d "$root/samples" ] || { [ "$(basename "$root")" = samples ] && root=$(dirname "$root"); }
	[ -d "$root/samples" ] || die "$root holds no samples/ folder"
	cp -r "$root/samples" "$tree/"
	[ -d "$root/applications" ] && cp -r "$root/applications" "$tree/"
	[ -f "$root/VERSION" ] && cp "$root/VERSION" "$tree/"
fi
[ -d "$tree/applications/common" ] || die "applications/common is missing next to samples/ (the samples compile utils.c from it)"
# Each sample reads ../../../VERSION (D-22); supply it when the tree has none.
[ -f "$tree/VERSION" ] || echo "3.0.0058" >"$tree/VERSION"

# --- build, run, judge -----------------------------------------------------
declare -a rows
passed=0
failed=0

# Leak records whose stack passes through a softdoca library.
softdoca_leaks() {
	awk '/(definitely|indirectly|possibly) lost in loss record/ {rec=1; hit=0; next}
	     rec && /libdoca_/ {hit=1}
	     rec && /^==[0-9]+== $/ {if (hit) n++; rec=0}
	     END {print n+0}' "$1"
}

judge() { # name exe flavour -> sets verdict, detail
	local name=$1 exe=$2 out="$work/$1.stdout" err="$work/$1.stderr" rc=0
	( cd "$(dirname "$exe")" && LD_LIBRARY_PATH="$libdir" timeout "$timeout_s" "$exe" >"$out" 2>"$err" ) || rc=$?
	if [ $rc = 124 ]; then verdict=FAIL; detail="timed out after ${timeout_s}s"; return; fi
	if [ $rc != 0 ]; then verdict=FAIL; detail="exit status $rc"; return; fi
	if grep -q "Memcpy failed" "$out" "$err"; then verdict=FAIL; detail="'Memcpy failed' logged"; return; fi
	if [ "$name" = pe_task_error ]; then
		# Its error callbacks log "Task failed with status" by design (05 §3.7):
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
		local vlog="$work/$name.valgrind" leaks
		( cd "$(dirname "$exe")" && LD_LIBRARY_PATH="$libdir" timeout $((timeout_s * 10)) \
			valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible \
			--log-file="$vlog" "$exe" >/dev/null 2>&1 ) || true
		leaks=$(softdoca_leaks "$vlog")
		if [ "$leaks" != 0 ]; then verdict=FAIL; detail="valgrind: $leaks leak record(s) inside softdoca ($vlog)"; return; fi
		detail="ok, valgrind clean"
	fi
}

record_row() { # name flavour (verdict, detail set by the caller)
	if [ "$verdict" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
	rows+=("$(printf '%-30s %-5s %-5s %s' "$1" "$2" "$verdict" "$detail")")
	printf '%s\n' "${rows[-1]}"
	[ $lines = 1 ] && echo "$verdict samples: $1 ($2 flavour): $detail"
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
	if [ $rc = 0 ] && [ "$(grep -c '3\.0\.0058' "$out")" -ge 2 ]; then verdict=PASS; detail="both versions, exit 0"
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
	elif ! PKG_CONFIG_PATH="$pc" meson setup "$build" "$src" >"$work/$name.setup.log" 2>&1; then
		verdict=FAIL; detail="meson setup failed ($work/$name.setup.log)"
	elif ! ninja -C "$build" >"$work/$name.build.log" 2>&1; then
		verdict=FAIL; detail="build failed ($work/$name.build.log)"
	fi
}

# The command prefix of a run: valgrind with a log file when asked.
run_prefix() { # name
	if [ $use_valgrind = 1 ]; then
		echo "valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible --log-file=$work/$1.valgrind"
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
	rm -f "$desc" "$info" "$fifo"
	mkfifo "$fifo"
	( cd "$(dirname "$host_exe")" && LD_LIBRARY_PATH="$libdir" exec timeout "$t" $(run_prefix dma_copy_host) \
		"$host_exe" -t "$text" -d "$desc" -b "$info" <"$fifo" >"$work/dma_copy_host.stdout" 2>"$work/dma_copy_host.stderr" ) &
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
	( cd "$(dirname "$dpu_exe")" && LD_LIBRARY_PATH="$libdir" timeout "$t" $(run_prefix dma_copy_dpu) \
		"$dpu_exe" -d "$desc" -b "$info" >"$work/dma_copy_dpu.stdout" 2>"$work/dma_copy_dpu.stderr" ) || rc=$?
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
		if [ $use_valgrind = 1 ] && [ "$(softdoca_leaks "$work/dma_copy_$side.valgrind")" != 0 ]; then
			verdict=FAIL; detail="valgrind: leak inside softdoca on the $side side"; return
		fi
	done
	verdict=PASS; detail="DPU printed the host's text; host exited on Enter"
	[ $use_valgrind = 1 ] && detail="$detail; valgrind clean"
	return 0
}

for entry in "${selected[@]}"; do
	IFS=: read -r name flavour folder <<<"$entry"
	if [ "$flavour" = pair ]; then
		run_pair
		record_row "$name" "$flavour"
		continue
	fi
	build_sample "$name" "$folder" "$flavour"
	[ "$verdict" = PASS ] && judge "$name" "$exe" "$flavour"
	record_row "$name" "$flavour"
	# Samples that parse their command line: the built-in flags (01 §9.5, §9.7).
	if [ "$verdict" = PASS ] && grep -q doca_argp_start "$tree/samples/$folder/$name"/*_main.c 2>/dev/null; then
		check_flags "$name" "$exe" "$flavour"
	fi
done

echo
printf '%-30s %-5s %-5s %s\n' SAMPLE FLAV RESULT DETAIL
printf '%s\n' "${rows[@]}"
echo "logs: $work"
echo "$passed passed, $failed failed"
[ $failed = 0 ]
