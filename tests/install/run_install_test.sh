#!/usr/bin/env bash
# tests/install/run_install_test.sh - install softdoca into a temporary
# prefix and use it as a user would, with no environment variable at all.
#
# For each build flavour (host: <libdir>/pkgconfig; dpu: <libdir>/pkgconfig-dpu
# first in PKG_CONFIG_PATH) it checks that:
#   - pkg-config --modversion doca-dma prints the VERSION file's version;
#   - the external program (tests/install/probe, its own meson.build) builds;
#   - doca_build_config.h defined exactly that flavour's macro, and meson's
#     has_header_symbol probe on doca-common agrees;
#   - the program runs a local DMA copy against the installed libraries
#     (no LD_LIBRARY_PATH: the rpath meson records must be enough);
#   - the example project of examples/ builds and runs the same way.
# Then, for the installation itself:
#   - the installed tools (bin/softdoca-caps, bin/softdoca-bench,
#     tools/doca_caps, tools/doca_bench) run with an empty environment,
#     through the run paths they carry, and --list-libs names every library
#     by its full path inside the prefix;
#   - examples/ installed into a prefix of its own runs from there;
#   - a program built by hand finds the libraries through -Wl,-rpath or
#     LD_LIBRARY_PATH, as the README says;
#   - the documentation and the manual pages are installed, and --help
#     points at a folder that exists;
#   - a staged install (DESTDIR) for /opt/softdoca writes the dynamic
#     linker's /etc/ld.so.conf.d/softdoca.conf under DESTDIR, and
#     -Dld_so_conf=disabled does not.
# Last, tests/install/run_ci_docs_test.sh checks docs/ci.md's Dockerfile.
#
# Prints one "PASS name" / "FAIL name" / "SKIP name" line per check
# (tests/run.sh counts them); exits 1 if any failed.  KEEP=1 keeps the
# temporary folder.
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

# expect NAME RC OUTPUT_REGEX CMD...: CMD exits RC and prints a line matching OUTPUT_REGEX.
expect() {
	local name=$1 want=$2 regex=$3 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" = "$want" ] && printf '%s\n' "$out" | grep -Eq -- "$regex"; then
		pass "$name"
	else
		fail "$name (exit status $rc, expected $want; wanted a line matching /$regex/)"
		printf '%s\n' "$out" | head -n 15 | sed 's/^/    | /'
	fi
}

first_cpu() {
	python3 -c 'import os; print(min(os.sched_getaffinity(0)))' 2>/dev/null || echo 0
}

check_installed_tools() {
	local real libdir t cpu
	real=$(realpath "$prefix")
	libdir=$(dirname "$host_pc")
	cpu=$(first_cpu)
	for t in bin/softdoca-caps bin/softdoca-bench tools/doca_caps tools/doca_bench; do
		if [ -x "$prefix/$t" ]; then
			pass "install: <prefix>/$t is installed"
		else
			fail "install: <prefix>/$t is installed"
		fi
	done
	expect "install: bin/softdoca-caps --list-libs runs with an empty environment and names every library by its full path" 0 \
		"^	comch +present \\($real/" env -i "$prefix/bin/softdoca-caps" --list-libs
	out=$(env -i "$prefix/bin/softdoca-caps" --list-libs 2>&1)
	if [ "$(printf '%s\n' "$out" | grep -Ec "^	(common|dma|argp|comch) +present \\($real/[^)]*/libdoca_[a-z]+\\.so[.0-9]*\\)$")" = 4 ]; then
		pass "install: --list-libs shows the four libraries the same way (present, full path in the prefix)"
	else
		fail "install: --list-libs shows the four libraries the same way (present, full path in the prefix)"
		printf '%s\n' "$out" | sed 's/^/    | /'
	fi
	expect "install: bin/softdoca-bench runs with an empty environment" 0 "^64 B +dma +1 " \
		env -i "$prefix/bin/softdoca-bench" --tasks 200 --no-baselines --core-list "$cpu"
	expect "install: tools/doca_caps runs with an empty environment" 0 "^PCI: 0000:03:00.0$" \
		env -i "$prefix/tools/doca_caps" --list-devs
	expect "install: tools/doca_bench --pipeline-steps doca_dma runs with an empty environment" 0 "Throughput: +[0-9]+\\.[0-9]+ MOperations/s" \
		env -i "$prefix/tools/doca_bench" --pipeline-steps doca_dma --core-list "$cpu" --run-limit-jobs 200
	if command -v readelf >/dev/null; then
		local bad=()
		for t in bin/softdoca-caps bin/softdoca-bench tools/doca_caps tools/doca_bench; do
			readelf -d "$prefix/$t" | grep -Eq 'R(UN)?PATH.*\$ORIGIN/\.\./' || bad+=("$t")
		done
		readelf -d "$libdir/libdoca_dma.so" | grep -Eq 'R(UN)?PATH.*\[\$ORIGIN\]' || bad+=(libdoca_dma.so)
		if [ ${#bad[@]} -eq 0 ]; then
			pass "install: the tools carry a run path relative to themselves (\$ORIGIN/../<libdir>), the libraries \$ORIGIN"
		else
			fail "install: the tools carry a run path relative to themselves (missing in: ${bad[*]})"
		fi
	fi
	# They ran through their run paths: nothing registered this prefix with the dynamic linker.
	if grep -qsF "$prefix" /etc/ld.so.conf.d/*.conf; then
		fail "install: a private prefix is not registered with the dynamic linker ($(grep -lF "$prefix" /etc/ld.so.conf.d/*.conf))"
	else
		pass "install: a private prefix is not registered with the dynamic linker (the run paths did the work)"
	fi
}

check_installed_docs() {
	local doc=$prefix/share/doc/softdoca man=$prefix/share/man f missing=() dir var
	for f in README.md docs/decisions.md docs/differences.md docs/topology.md docs/ci.md docs/doca-tools.md \
		docs/environment.md \
		docs/ci/Dockerfile; do
		[ -f "$doc/$f" ] || missing+=("$f")
	done
	for f in man1/softdoca-caps.1 man1/softdoca-bench.1 man1/softdoca-trace.1 man1/doca_caps.1 man1/doca_bench.1 \
		man7/softdoca-env.7; do
		[ -f "$man/$f" ] || missing+=("$f")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		pass "install: README, docs/ and the manual pages are installed (share/doc/softdoca, share/man)"
	else
		fail "install: README, docs/ and the manual pages are installed (missing: ${missing[*]})"
	fi
	# --help names the installed documentation, which exists.
	dir=$("$prefix/bin/softdoca-caps" --help | grep -o '/[^ ]*/share/doc/softdoca' | head -n1)
	if [ -n "$dir" ] && [ -f "$dir/docs/topology.md" ] && ! "$prefix/bin/softdoca-caps" --help | grep -q README; then
		pass "install: softdoca-caps --help points at the installed documentation ($dir), not at a README"
	else
		fail "install: softdoca-caps --help points at the installed documentation (got '$dir')"
	fi
	# softdoca-env(7) lists every variable of the table of docs/environment.md.
	missing=()
	for var in $(grep -o '^| `SOFTDOCA_[A-Z_]*`' "$root/docs/environment.md" | tr -d '|` '); do
		grep -q "^\.B $var\$" "$man/man7/softdoca-env.7" || missing+=("$var")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		pass "install: softdoca-env(7) lists every variable of docs/environment.md"
	else
		fail "install: softdoca-env(7) lists every variable of docs/environment.md (missing: ${missing[*]})"
	fi
	if command -v groff >/dev/null; then
		local warn=""
		for f in "$man"/man1/*.1 "$man"/man7/softdoca-env.7; do
			w=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z -t "$f" 2>&1)
			[ -n "$w" ] && warn="$warn $(basename "$f"): $w"
		done
		if [ -z "$warn" ]; then
			pass "install: the manual pages format without a groff warning"
		else
			fail "install: the manual pages format without a groff warning:$warn"
		fi
	fi
	if command -v man >/dev/null; then
		expect "install: man finds doca_bench(1) in <prefix>/share/man" 0 "man1/doca_bench\\.1" \
			env MANPATH="$man" man -w doca_bench
	fi
}

# examples/ installed into a prefix of its own, run from there with an empty environment.
check_installed_example() {
	local app=$work/app
	if PKG_CONFIG_PATH=$host_pc run_logged "$work/app-setup.log" meson setup "$work/app-build" "$root/examples" \
		--prefix="$app" && run_logged "$work/app-compile.log" meson compile -C "$work/app-build" &&
		run_logged "$work/app-install.log" meson install -C "$work/app-build"; then
		expect "install: examples/ installed into its own prefix runs from there (local_dma_copy, empty environment)" 0 "." \
			env -i "$app/bin/local_dma_copy"
	else
		fail "install: examples/ builds and installs into its own prefix"
	fi
}

# A program built by hand: a run path, or LD_LIBRARY_PATH, as the README shows.
check_hand_built_program() {
	local libdir cflags libs
	libdir=$(PKG_CONFIG_PATH=$host_pc pkg-config --variable=libdir doca-common)
	cflags=$(PKG_CONFIG_PATH=$host_pc pkg-config --cflags doca-common doca-dma)
	libs=$(PKG_CONFIG_PATH=$host_pc pkg-config --libs doca-common doca-dma)
	# shellcheck disable=SC2086
	if ! cc -std=c11 -DDOCA_ALLOW_EXPERIMENTAL_API -D_GNU_SOURCE $cflags "$root/examples/local_dma_copy.c" $libs \
		-o "$work/copy_plain" 2>"$work/cc.log" ||
		! cc -std=c11 -DDOCA_ALLOW_EXPERIMENTAL_API -D_GNU_SOURCE $cflags "$root/examples/local_dma_copy.c" $libs \
			-Wl,-rpath,"$libdir" -o "$work/copy_rpath" 2>>"$work/cc.log"; then
		fail "install: a program built with cc and pkg-config compiles"
		sed 's/^/    | /' "$work/cc.log" | head -20
		return
	fi
	expect "install: a hand-built program with -Wl,-rpath,\$(pkg-config --variable=libdir doca-common) runs with an empty environment" \
		0 "." env -i "$work/copy_rpath"
	expect "install: a hand-built program without a run path runs with LD_LIBRARY_PATH=<libdir>" 0 "." \
		env -i LD_LIBRARY_PATH="$libdir" "$work/copy_plain"
}

# A staged install for /opt/softdoca, as a package build makes: the linker's
# configuration lands under DESTDIR, and the staged tools run in place.
check_staged_system_install() {
	local stage=$work/stage conf libdir_name
	libdir_name=$(meson introspect "$work/build" --buildoptions | python3 -c \
		'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "libdir"))')
	if ! run_logged "$work/stage-setup.log" meson configure "$work/build" -Dprefix=/opt/softdoca ||
		! run_logged "$work/stage-compile.log" meson compile -C "$work/build" ||
		! DESTDIR=$stage run_logged "$work/stage-install.log" meson install -C "$work/build"; then
		fail "install: a staged install (DESTDIR) for /opt/softdoca succeeds"
		return
	fi
	conf=$stage/etc/ld.so.conf.d/softdoca.conf
	if [ "$(cat "$conf" 2>/dev/null)" = "/opt/softdoca/$libdir_name" ]; then
		pass "install: for /opt/softdoca the install registers /opt/softdoca/$libdir_name in etc/ld.so.conf.d/softdoca.conf (under DESTDIR)"
	else
		fail "install: for /opt/softdoca the install registers /opt/softdoca/$libdir_name in etc/ld.so.conf.d/softdoca.conf (got '$(cat "$conf" 2>&1)')"
	fi
	expect "install: the staged tools/doca_caps runs in place (relative run path)" 0 "^common +installed$" \
		env -i "$stage/opt/softdoca/tools/doca_caps" --list-libs
	rm -rf "$stage"
	if run_logged "$work/stage-setup2.log" meson configure "$work/build" -Dld_so_conf=disabled &&
		DESTDIR=$stage run_logged "$work/stage-install2.log" meson install -C "$work/build" && [ ! -e "$conf" ]; then
		pass "install: -Dld_so_conf=disabled leaves the dynamic linker's configuration alone"
	else
		fail "install: -Dld_so_conf=disabled leaves the dynamic linker's configuration alone"
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
	check_installed_tools
	check_installed_docs
	check_installed_example
	check_hand_built_program
	check_staged_system_install
}

main
"$here/run_ci_docs_test.sh" || failures=$((failures + 1))
[ "$failures" -eq 0 ]
