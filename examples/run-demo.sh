#!/usr/bin/env bash
# examples/run-demo.sh - the demo: build softdoca, install it under
# _install/, build the example program against the installation as any
# DOCA program would be built, and run it.
#
# Works on a fresh Debian 12 machine (missing packages are installed first).
# Build folders: build-demo/ (softdoca), build-examples/ (the example).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
prefix=$root/_install

step() { printf '\n== %s\n' "$*"; }

# quietly CMD... - run CMD, show its output only if it fails.
quietly() {
	local log
	log=$(mktemp)
	if ! "$@" >"$log" 2>&1; then
		cat "$log"
		rm -f "$log"
		echo "failed: $*" >&2
		exit 1
	fi
	rm -f "$log"
}

step "checking Debian packages"
tools/ensure-packages.sh meson ninja-build gcc libc6-dev pkg-config python3 libjson-c-dev

step "building softdoca and installing it into $prefix"
if [ ! -f build-demo/build.ninja ]; then
	quietly meson setup build-demo --prefix="$prefix" -Dtests=false -Dbench=false
fi
quietly meson compile -C build-demo
quietly meson install -C build-demo

pcdir=$(find "$prefix" -path '*/pkgconfig/doca-common.pc' -printf '%h\n' | head -n1)
step "building examples/ against it (PKG_CONFIG_PATH=${pcdir#"$root"/})"
if [ ! -f build-examples/build.ninja ]; then
	PKG_CONFIG_PATH=$pcdir quietly meson setup build-examples examples
fi
quietly meson compile -C build-examples

step "running build-examples/local_dma_copy"
./build-examples/local_dma_copy
