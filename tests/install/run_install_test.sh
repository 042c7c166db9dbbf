#!/usr/bin/env bash
# tests/install/run_install_test.sh - install softdoca into a temporary
# prefix and build a program that knows it only through pkg-config.
#
# For each build flavour (host: <libdir>/pkgconfig; dpu: <libdir>/pkgconfig-dpu
# first in PKG_CONFIG_PATH, register D-15) it checks that:
#   - pkg-config --modversion doca-dma prints the VERSION file's value;
#   - the external program (tests/install/probe, its own meson.build) builds;
#   - doca_build_config.h defined exactly that flavour's macro, and meson's
#     has_header_symbol probe on doca-common agrees;
#   - the program runs a local DMA copy against the installed libraries
#     (no LD_LIBRARY_PATH: the rpath meson records must be enough);
#   - the example project of examples/ builds and runs the same way.
#
# Prints one "PASS name" / "FAIL name" line per check (tests/run.sh counts
# them); exits 1 if any failed.  Set KEEP=1 to keep the temporary folder.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
version=$(cat "$root/VERSION")
work=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-install.XXXXXX")
prefix=$work/prefix
failures=0

cleanup() {
	if [ "${KEEP:-0}" = 1 ]; then
		echo "install test: kept $work"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT

pass() { echo "PASS $1"; }
fail() {
	echo "FAIL $1"
	failures=$((failures + 1))
}

# run_logged LOG CMD... - run quietly; show the log's tail when it fails.
run_logged() {
	local log=$1
	shift
	if "$@" >"$log" 2>&1; then
		return 0
	fi
	tail -n 40 "$log" | sed 's/^/    | /'
	return 1
}

install_softdoca() {
	run_logged "$work/setup.log" meson setup "$work/build" "$root" --prefix="$prefix" \
		-Dtests=false -Dbench=false &&
		run_logged "$work/compile.log" meson compile -C "$work/build" &&
		run_logged "$work/install.log" meson install -C "$work/build"
}

# check_flavour NAME PKG_CONFIG_PATH MACRO
check_flavour() {
	local name=$1 pcpath=$2 want=$3 got out build=$work/probe-$1

	got=$(PKG_CONFIG_PATH=$pcpath pkg-config --modversion doca-dma 2>&1)
	if [ "$got" = "$version" ]; then
		pass "install[$name]: pkg-config --modversion doca-dma is $version"
	else
		fail "install[$name]: pkg-config --modversion doca-dma is $version (got '$got')"
	fi

	if ! PKG_CONFIG_PATH=$pcpath run_logged "$work/probe-$name.log" \
		meson setup "$build" "$here/probe" ||
		! run_logged "$work/probe-$name-compile.log" meson compile -C "$build"; then
		fail "install[$name]: external program builds with dependency('doca-common'/'doca-dma')"
		return
	fi
	pass "install[$name]: external program builds with dependency('doca-common'/'doca-dma')"

	out=$(env -u LD_LIBRARY_PATH "$build/install_probe" 2>&1)
	echo "$out" | sed 's/^/    | /'
	if echo "$out" | grep -qx "flavour: $want"; then
		pass "install[$name]: doca_build_config.h defines only the $name macro"
	else
		fail "install[$name]: doca_build_config.h defines only the $name macro"
	fi
	if echo "$out" | grep -qx "meson probe: $want"; then
		pass "install[$name]: meson has_header_symbol DOCA_ARCH_DPU probe agrees"
	else
		fail "install[$name]: meson has_header_symbol DOCA_ARCH_DPU probe agrees"
	fi
	if echo "$out" | grep -qx "version: $version" && echo "$out" | grep -qx "copy: ok"; then
		pass "install[$name]: local DMA copy runs against the installed libraries"
	else
		fail "install[$name]: local DMA copy runs against the installed libraries"
	fi

	# The README's example project must keep building the same way.
	if PKG_CONFIG_PATH=$pcpath run_logged "$work/examples-$name.log" \
		meson setup "$work/examples-$name" "$root/examples" &&
		run_logged "$work/examples-$name-compile.log" meson compile -C "$work/examples-$name" &&
		run_logged "$work/examples-$name-run.log" env -u LD_LIBRARY_PATH "$work/examples-$name/local_dma_copy"; then
		pass "install[$name]: examples/local_dma_copy builds and runs"
	else
		fail "install[$name]: examples/local_dma_copy builds and runs"
	fi
}

main() {
	local host_pc dpu_pc
	if ! install_softdoca; then
		fail "install: softdoca builds and installs into a fresh prefix"
		return
	fi
	pass "install: softdoca builds and installs into a fresh prefix"

	host_pc=$(find "$prefix" -path '*/pkgconfig/doca-common.pc' -printf '%h\n' | head -n1)
	dpu_pc=$(find "$prefix" -path '*/pkgconfig-dpu/doca-common.pc' -printf '%h\n' | head -n1)
	if [ -z "$host_pc" ] || [ -z "$dpu_pc" ] || [ "$(dirname "$host_pc")" != "$(dirname "$dpu_pc")" ] ||
		[ ! -e "$host_pc/doca-dma.pc" ] || [ ! -e "$dpu_pc/doca-dma.pc" ]; then
		fail "install: <libdir>/pkgconfig and <libdir>/pkgconfig-dpu hold doca-common and doca-dma"
		return
	fi
	pass "install: <libdir>/pkgconfig and <libdir>/pkgconfig-dpu hold doca-common and doca-dma"

	check_flavour host "$host_pc" host
	check_flavour dpu "$dpu_pc:$host_pc" dpu
}

main
[ "$failures" -eq 0 ]
