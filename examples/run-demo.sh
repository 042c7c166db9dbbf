#!/usr/bin/env bash
# examples/run-demo.sh - the demo: a host process exports a buffer, a second
# process playing the DPU pulls it over DOCA DMA and checks its SHA-256.
#
#   ./examples/run-demo.sh                      # 256 MiB
#   ./examples/run-demo.sh --size 1G            # another size (K/M/G suffixes)
#   ./examples/run-demo.sh -- --rate-limit 200  # flags after -- go to softdoca_demo_dpu
#   ./examples/run-demo.sh --two-namespaces     # host and DPU as in two containers (root)
#
# Steps: install missing Debian packages (works on a fresh Debian 12),
# build softdoca and install it under _install/, build examples/ against the
# installation twice, as any DOCA program is built (host flavour from
# <libdir>/pkgconfig, DPU flavour from <libdir>/pkgconfig-dpu), start
# softdoca_demo_host in the background, run softdoca_demo_dpu, wait for both
# and print a summary.  Exits non-zero if any step fails.
#
# Build folders: build-demo/ (softdoca), build-examples-host/ and
# build-examples-dpu/ (the example project in each flavour).
#
# --two-namespaces runs the host side in one network and PID namespace and
# the DPU side in another, joined by a veth pair (tools/netns-pair.sh), each
# told where the other runs with SOFTDOCA_PEER: the DPU then reaches the
# host's buffer over UCX instead of a system call, as it would from another
# container or machine.  Needs root, iproute2 and libucx-dev (installed).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
prefix=$root/_install
size=256M
dpu_args=()
two_ns=0

usage() {
	sed -n '2,9s/^# \{0,1\}//p' "$0"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--size)
		[ $# -ge 2 ] || { echo "run-demo: --size needs a value" >&2; exit 2; }
		size=$2
		shift 2
		;;
	--size=*)
		size=${1#--size=}
		shift
		;;
	--two-namespaces)
		two_ns=1
		shift
		;;
	-h | --help)
		usage
		exit 0
		;;
	--)
		shift
		dpu_args=("$@")
		break
		;;
	*)
		echo "run-demo: unknown argument '$1' (try --help)" >&2
		exit 2
		;;
	esac
done

# Sizes as the programs take them: digits, then optionally K, M or G (binary).
if ! [[ $size =~ ^[0-9]+([KkMmGg]([Ii]?[Bb])?)?$ ]]; then
	echo "run-demo: --size '$size' is not a size (examples: 256M, 64K, 1G, 1048576)" >&2
	exit 2
fi

step() { printf '\n== %s\n' "$*"; }

# quietly CMD... - run CMD, show its output only if it fails.
quietly() {
	local log
	log=$(mktemp)
	if ! "$@" >"$log" 2>&1; then
		cat "$log"
		rm -f "$log"
		echo "run-demo: failed: $*" >&2
		exit 1
	fi
	rm -f "$log"
}

# build_examples DIR PKG_CONFIG_PATH - configure (once) and compile examples/.
build_examples() {
	if [ ! -f "$1/build.ninja" ]; then
		PKG_CONFIG_PATH=$2 quietly meson setup "$1" examples
	fi
	quietly meson compile -C "$1"
}

step "checking Debian packages"
tools/ensure-packages.sh meson ninja-build gcc libc6-dev pkg-config python3 libjson-c-dev
if [ "$two_ns" = 1 ]; then
	tools/ensure-packages.sh libucx-dev iproute2
	. tools/netns-pair.sh
	netns_pair_usable || { echo "run-demo: --two-namespaces: $NETNS_WHY" >&2; exit 1; }
fi

step "building softdoca and installing it into ${prefix#"$root"/}/"
if [ ! -f build-demo/build.ninja ]; then
	quietly meson setup build-demo --prefix="$prefix" -Dtests=false -Dbench=false
fi
if [ "$two_ns" = 1 ]; then
	quietly meson configure build-demo -Ducx=enabled # the UCX transport, which a cross-namespace import needs
fi
quietly meson compile -C build-demo
quietly meson install -C build-demo

host_pc=$(find "$prefix" -path '*/pkgconfig/doca-common.pc' -printf '%h\n' | head -n1)
dpu_pc=$(find "$prefix" -path '*/pkgconfig-dpu/doca-common.pc' -printf '%h\n' | head -n1)
if [ -z "$host_pc" ] || [ -z "$dpu_pc" ]; then
	echo "run-demo: the installation has no pkgconfig or pkgconfig-dpu directory" >&2
	exit 1
fi

step "building examples/ in the host flavour (PKG_CONFIG_PATH=${host_pc#"$root"/})"
build_examples build-examples-host "$host_pc"
step "building examples/ in the DPU flavour (PKG_CONFIG_PATH=${dpu_pc#"$root"/}:...)"
build_examples build-examples-dpu "$dpu_pc:$host_pc"

work=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-demo.XXXXXX")
channel=$work/export
host_pid=
host_side=()
dpu_side=()
cleanup() {
	if [ -n "$host_pid" ] && kill -0 "$host_pid" 2>/dev/null; then
		kill -TERM "$host_pid" 2>/dev/null || true
		wait "$host_pid" 2>/dev/null || true
	fi
	[ "$two_ns" = 1 ] && netns_pair_down
	rm -rf "$work"
}
trap cleanup EXIT

if [ "$two_ns" = 1 ]; then
	netns_pair_up demo || { echo "run-demo: $NETNS_WHY" >&2; exit 1; }
	trap cleanup EXIT
	host_side=(tools/netns-run.sh "$NS_HOST" env SOFTDOCA_PEER="$ADDR_DPU")
	dpu_side=(tools/netns-run.sh "$NS_DPU" env SOFTDOCA_PEER="$ADDR_HOST")
	step "two namespaces: host side in $NS_HOST ($ADDR_HOST), DPU side in $NS_DPU ($ADDR_DPU), joined by a veth pair"
	echo "  each side has its own network and PID namespace; SOFTDOCA_PEER tells each where the other runs,"
	echo "  so the export carries a UCX endpoint and the DPU's DMA reads the host's buffer over UCX"
fi

step "running the pair: build-examples-host/softdoca_demo_host & build-examples-dpu/softdoca_demo_dpu"
${host_side[@]+"${host_side[@]}"} ./build-examples-host/softdoca_demo_host --file "$channel" --size "$size" --timeout 120 &
host_pid=$!

# A host that fails before publishing anything (a bad --size, no memory)
# leaves the DPU waiting: two seconds after the host is gone, stop the DPU.
(
	while kill -0 "$host_pid" 2>/dev/null; do sleep 0.1; done
	sleep 2
	if [ -s "$work/dpu.pid" ]; then kill -TERM "$(cat "$work/dpu.pid")" 2>/dev/null; fi
) &
watcher_pid=$!

set +e
(
	echo "$BASHPID" >"$work/dpu.pid"
	exec ${dpu_side[@]+"${dpu_side[@]}"} ./build-examples-dpu/softdoca_demo_dpu --file "$channel" --timeout 60 \
		${dpu_args[@]+"${dpu_args[@]}"}
) | tee "$work/dpu.log"
dpu_rc=${PIPESTATUS[0]}
rm -f "$work/dpu.pid"
kill "$watcher_pid" 2>/dev/null
wait "$watcher_pid" 2>/dev/null

# The host leaves once the DPU reported; one that never hears from it is stopped.
for _ in $(seq 100); do
	kill -0 "$host_pid" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$host_pid" 2>/dev/null; then
	echo "run-demo: the host did not finish after the DPU side; stopping it" >&2
	kill -TERM "$host_pid" 2>/dev/null
fi
wait "$host_pid"
host_rc=$?
host_pid=
set -e

step "summary"
echo "  host side (softdoca_demo_host, host flavour): exit status $host_rc"
echo "  DPU side  (softdoca_demo_dpu, DPU flavour):   exit status $dpu_rc"
[ "$two_ns" = 1 ] && echo "  the two sides ran in network namespaces $NS_HOST and $NS_DPU, over UCX"
grep -h 'dpu: transfer:' "$work/dpu.log" | sed 's/^dpu: /  /' || true
if [ "$dpu_rc" -eq 0 ] && [ "$host_rc" -eq 0 ] && grep -q 'SHA-256 match' "$work/dpu.log"; then
	echo "  SHA-256 of the DPU's copy matches the host's buffer: demo passed"
	exit 0
fi
echo "  demo FAILED (see the messages above)" >&2
exit 1
