#!/usr/bin/env bash
# tests/install/run_package_test.sh - softdoca's Debian packages, built,
# installed and removed on this machine as a DOCA user would (root only).
#
#   0. -Ddoca_layout=true, the option the packages are built with, refuses a
#      libdir other than DOCA's lib/<triplet> (any user);
#   1. dpkg-buildpackage builds softdoca-runtime, softdoca-dev and
#      softdoca-tools from a copy of the tree (no tests, no benchmarks), and
#      lintian finds no error and no warning in them (where it is installed);
#   2. the packages refuse to install over NVIDIA's DOCA: with a file of a
#      "real DOCA" in /opt/mellanox/doca, and again with a package named like
#      one of NVIDIA's installed, dpkg -i fails with the preinst's message
#      (what it found, what to do) and changes nothing;
#   3. dpkg -i installs the three; the loader's cache has the libraries
#      (/etc/ld.so.conf.d/softdoca.conf);
#   4. examples/ builds with nothing but DOCA's documented
#      PKG_CONFIG_PATH=/opt/mellanox/doca/lib/<triplet>/pkgconfig (meson, and
#      by hand with cc and no run path) and runs;
#   5. the tools run from /opt/mellanox/doca/tools (and softdoca-caps from
#      PATH, whose --check judges the install sound), and man finds their
#      pages;
#   6. dpkg --purge removes everything: no file of the packages, no
#      /opt/mellanox, no ld.so.conf.d entry, nothing in the loader's cache.
#
# The machine is left as it was found: the step skips when /opt/mellanox or
# a softdoca or DOCA package is already there, and whatever it installed or
# created is removed on any exit.  Prints one "PASS name" / "FAIL name" /
# "SKIP name" line per check (tests/run.sh counts them); exits 1 if any
# failed.  KEEP=1 keeps the temporary folder (packages and logs).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
version=$(cat "$root/VERSION")
packages=(softdoca-runtime softdoca-dev softdoca-tools)
doca=/opt/mellanox/doca
fake_pkg=doca-softdoca-package-test # named like NVIDIA's packages, owned by this test
failures=0
work=""

pass() { echo "PASS package: $1"; }
fail() {
	echo "FAIL package: $1"
	failures=$((failures + 1))
}
skip() {
	echo "SKIP package: $1"
	exit 0
}

# run_logged LOG CMD... - run quietly; show the log's tail when it fails.
run_logged() {
	local log=$1
	shift
	"$@" >"$log" 2>&1 && return 0
	tail -n 30 "$log" | sed 's/^/    | /'
	return 1
}

installed() { dpkg-query -W -f '${db:Status-Status}' "$1" 2>/dev/null | grep -qv '^not-installed$'; }

# Whatever this test put on the machine goes, whatever happened.
cleanup() {
	local p
	for p in "${packages[@]}" "$fake_pkg"; do
		installed "$p" && dpkg --purge "$p" >/dev/null 2>&1
	done
	rm -rf /opt/mellanox
	if [ -n "$work" ]; then
		if [ "${KEEP:-0}" = 1 ]; then echo "package test: kept $work"; else rm -rf "$work"; fi
	fi
}

preconditions() {
	local p tool
	[ "$(id -u)" = 0 ] || skip "the package test installs packages and needs root"
	for tool in dpkg-buildpackage dh dpkg-query; do
		command -v "$tool" >/dev/null || skip "the package test needs $tool (dpkg-dev, debhelper)"
	done
	[ -e /opt/mellanox ] && skip "/opt/mellanox exists already: the test would not leave the machine as it found it"
	for p in "${packages[@]}"; do
		installed "$p" && skip "$p is installed already: the test would not leave the machine as it found it"
	done
	[ -e /etc/ld.so.conf.d/softdoca.conf ] &&
		skip "/etc/ld.so.conf.d/softdoca.conf exists already: the test would not leave the machine as it found it"
	dpkg-query -W -f '${Package} ${db:Status-Status}\n' 'doca-*' 'libdoca-*' 2>/dev/null | grep -qv ' not-installed$' &&
		skip "a DOCA package is installed: the softdoca packages would (rightly) refuse to install"
	return 0
}

# A copy of the tree without build folders: dpkg-buildpackage writes its
# packages next to the source folder and its build files inside it.
copy_tree() {
	mkdir -p "$work/src"
	if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$root" ls-files -z -co --exclude-standard | tar -C "$root" --null -T - -cf - | tar -C "$work/src" -xf -
	else
		tar -C "$root" --exclude='./build*' --exclude='./obj-*' --exclude='./.git' -cf - . | tar -C "$work/src" -xf -
	fi
}

build_packages() {
	local p
	if ! (cd "$work/src" && run_logged "$work/build.log" dpkg-buildpackage -us -uc -b -j"$(nproc)"); then
		fail "dpkg-buildpackage -us -uc -b builds the packages"
		return 1
	fi
	for p in "${packages[@]}"; do
		debs+=("$(ls "$work/${p}_${version}_"*.deb 2>/dev/null)")
	done
	if [ ${#debs[@]} -eq 3 ] && [ -f "${debs[0]}" ] && [ -f "${debs[1]}" ] && [ -f "${debs[2]}" ]; then
		pass "dpkg-buildpackage -us -uc -b builds ${packages[*]} $version"
	else
		fail "dpkg-buildpackage -us -uc -b builds ${packages[*]} $version (got: $(ls "$work"/*.deb))"
		return 1
	fi
}

check_lintian() {
	command -v lintian >/dev/null || {
		echo "SKIP package: lintian finds no error or warning (lintian is not installed)"
		return
	}
	lintian --fail-on error,warning "$work"/softdoca_"${version}"_*.changes >"$work/lintian.log" 2>&1
	if [ $? -eq 0 ] && ! grep -q '^[EW]: ' "$work/lintian.log"; then
		pass "lintian finds no error or warning (overrides explained in debian/*.lintian-overrides)"
	else
		fail "lintian finds no error or warning:"
		grep '^[EW]: ' "$work/lintian.log" | head -n 20 | sed 's/^/    | /'
	fi
}

# The state a refused install must not change.
machine_state() {
	find /opt/mellanox /etc/ld.so.conf.d /usr/bin/softdoca-* /usr/share/doc/softdoca* -printf '%p %s %T@\n' 2>/dev/null | sort
	# (a refused package may stay known to dpkg as not-installed, which is no change)
	dpkg-query -W -f '${Package} ${db:Status-Status}\n' "${packages[@]}" 2>/dev/null | grep -v ' not-installed$'
}

# refused NAME WHAT_FOUND_REGEX: dpkg -i of the packages fails with the preinst's message and changes nothing.
refused() {
	local name=$1 found=$2 before after
	before=$(machine_state)
	if dpkg -i "${debs[@]}" >"$work/refuse-$name.log" 2>&1; then
		fail "the packages refuse to install over $name (dpkg -i succeeded)"
		return
	fi
	after=$(machine_state)
	if ! grep -q "softdoca: refusing to install: $doca holds a DOCA installation that is not softdoca's" \
		"$work/refuse-$name.log" || ! grep -Eq "$found" "$work/refuse-$name.log" ||
		! grep -q "replace it: remove NVIDIA's DOCA (apt-get purge" "$work/refuse-$name.log"; then
		fail "the packages refuse to install over $name, saying what they found and what to do:"
		sed 's/^/    | /' "$work/refuse-$name.log" | head -n 30
	elif [ "$before" != "$after" ]; then
		fail "the packages refuse to install over $name and change nothing:"
		diff <(echo "$before") <(echo "$after") | head -n 20 | sed 's/^/    | /'
	else
		pass "the packages refuse to install over $name, say what they found and what to do, and change nothing"
	fi
}

check_refusals() {
	local triplet fake=$work/fake-pkg
	triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
	mkdir -p "$doca/lib/$triplet"
	echo "not softdoca" >"$doca/lib/$triplet/libdoca_common.so.2.9.0"
	refused "a file of a real DOCA" "$doca/lib/$triplet/libdoca_common.so.2.9.0"
	rm -rf /opt/mellanox

	# A package named like NVIDIA's (doca-*), but not in the packages'
	# Conflicts, so that the preinst, not dpkg's conflict check, is what refuses.
	mkdir -p "$fake/DEBIAN"
	printf 'Package: %s\nVersion: 1.0\nArchitecture: all\nMaintainer: softdoca test <test@example.org>\nDescription: stands in for a package of NVIDIA DOCA\n' \
		"$fake_pkg" >"$fake/DEBIAN/control"
	if run_logged "$work/fake-pkg.log" dpkg-deb --build "$fake" "$work/fake.deb" &&
		run_logged "$work/fake-install.log" dpkg -i "$work/fake.deb"; then
		refused "an installed DOCA package" "^ +$fake_pkg\$"
		dpkg --purge "$fake_pkg" >/dev/null 2>&1
	else
		fail "a stand-in DOCA package installs (for the refusal check)"
	fi
}

check_install() {
	local libdir=$1
	if ! run_logged "$work/install.log" dpkg -i "${debs[@]}"; then
		fail "dpkg -i installs ${packages[*]}"
		return 1
	fi
	pass "dpkg -i installs ${packages[*]}"
	if [ "$(cat /etc/ld.so.conf.d/softdoca.conf 2>/dev/null)" = "$libdir" ] &&
		ldconfig -p | grep -q "libdoca_common.so.3 .*=> $libdir/libdoca_common.so.3\$"; then
		pass "the library folder is registered with the dynamic linker (/etc/ld.so.conf.d/softdoca.conf, ld.so cache)"
	else
		fail "the library folder is registered with the dynamic linker (/etc/ld.so.conf.d/softdoca.conf, ld.so cache)"
	fi
}

# examples/ against the installed packages, with only DOCA's documented variable.
check_example() {
	local libdir=$1 pc=$1/pkgconfig build=$work/examples cflags libs
	if run_logged "$work/examples-setup.log" env PKG_CONFIG_PATH="$pc" meson setup "$build" "$root/examples" &&
		run_logged "$work/examples-build.log" ninja -C "$build" &&
		run_logged "$work/examples-run.log" env -u LD_LIBRARY_PATH "$build/local_dma_copy"; then
		pass "examples/ builds with PKG_CONFIG_PATH=$pc alone, and local_dma_copy runs"
	else
		fail "examples/ builds with PKG_CONFIG_PATH=$pc alone, and local_dma_copy runs"
	fi
	# By hand, without a run path: the loader's entry is what finds the libraries.
	cflags=$(PKG_CONFIG_PATH=$pc pkg-config --cflags doca-common doca-dma)
	libs=$(PKG_CONFIG_PATH=$pc pkg-config --libs doca-common doca-dma)
	# shellcheck disable=SC2086
	if run_logged "$work/hand.log" cc -std=c11 -DDOCA_ALLOW_EXPERIMENTAL_API -D_GNU_SOURCE $cflags \
		"$root/examples/local_dma_copy.c" $libs -o "$work/hand_copy" &&
		! readelf -d "$work/hand_copy" | grep -Eq 'RPATH|RUNPATH' &&
		run_logged "$work/hand-run.log" env -i "$work/hand_copy"; then
		pass "a program built by hand with pkg-config (no run path) runs through the loader's entry"
	else
		fail "a program built by hand with pkg-config (no run path) runs through the loader's entry"
	fi
}

check_tools() {
	local libdir=$1 t ok=1
	for t in doca_caps doca_bench softdoca-caps softdoca-bench softdoca-trace; do
		if ! env -i "$doca/tools/$t" --help >/dev/null 2>&1; then
			echo "    | $doca/tools/$t --help failed"
			ok=0
		fi
	done
	if [ $ok = 1 ] && env -i "$doca/tools/doca_caps" --list-devs | grep -q .; then
		pass "the tools run from $doca/tools with an empty environment"
	else
		fail "the tools run from $doca/tools with an empty environment"
	fi
	if env -i PATH=/usr/bin:/bin PKG_CONFIG_PATH="$libdir/pkgconfig" softdoca-caps --check >"$work/check.log" 2>&1 &&
		grep -q "^OK: " "$work/check.log" && ! grep -q "^NOTE" "$work/check.log"; then
		pass "softdoca-caps (from PATH) --check judges the installed packages sound"
	else
		fail "softdoca-caps (from PATH) --check judges the installed packages sound"
		sed 's/^/    | /' "$work/check.log" | tail -n 20
	fi
	if command -v man >/dev/null; then
		ok=1
		for t in doca_caps doca_bench softdoca-caps softdoca-bench softdoca-trace; do
			man -w "$t" >/dev/null 2>&1 || { echo "    | man -w $t finds nothing"; ok=0; }
		done
		man -w 7 softdoca-env >/dev/null 2>&1 || { echo "    | man -w 7 softdoca-env finds nothing"; ok=0; }
		if [ $ok = 1 ]; then pass "man finds every tool's page and softdoca-env(7)"; else fail "man finds every tool's page and softdoca-env(7)"; fi
	fi
}

check_purge() {
	local left
	if ! run_logged "$work/purge.log" dpkg --purge "${packages[@]}"; then
		fail "dpkg --purge removes the packages"
		return
	fi
	left=$(
		ls -d /opt/mellanox /etc/ld.so.conf.d/softdoca.conf /usr/bin/softdoca-* /usr/share/doc/softdoca* \
			/usr/share/man/man1/softdoca-* /usr/share/man/man1/doca_* /usr/share/man/man7/softdoca-* 2>/dev/null
		ldconfig -p | grep 'libdoca_' | sed 's/^\s*/ld.so cache: /'
		for p in "${packages[@]}"; do installed "$p" && echo "package $p"; done
	)
	if [ -z "$left" ]; then
		pass "dpkg --purge leaves nothing behind (files, /opt/mellanox, ld.so.conf.d entry, loader cache)"
	else
		fail "dpkg --purge leaves nothing behind; left:"
		echo "$left" | sed 's/^/    | /'
	fi
}

# -Ddoca_layout=true, which debian/rules builds with, refuses a libdir that
# is not DOCA's lib/<triplet> and says what to pass (needs no root).
check_layout_option() {
	local dir
	dir=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-layout.XXXXXX")
	if meson setup "$dir/build" "$root" -Ddoca_layout=true --libdir=lib64 -Dtests=false -Dbench=false \
		>"$dir/setup.log" 2>&1; then
		fail "-Ddoca_layout=true refuses --libdir=lib64 (meson setup succeeded)"
	elif grep -q "add --libdir=lib/$(gcc -print-multiarch 2>/dev/null)" "$dir/setup.log"; then
		pass "-Ddoca_layout=true refuses --libdir=lib64 and names DOCA's lib/<triplet>"
	else
		fail "-Ddoca_layout=true refuses --libdir=lib64 and names DOCA's lib/<triplet>:"
		tail -n 5 "$dir/setup.log" | sed 's/^/    | /'
	fi
	rm -rf "$dir"
}

main() {
	local libdir
	check_layout_option
	preconditions
	work=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-package.XXXXXX")
	trap cleanup EXIT
	debs=()
	copy_tree
	build_packages || exit 1
	check_lintian
	check_refusals
	libdir=$doca/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)
	if check_install "$libdir"; then
		check_example "$libdir"
		check_tools "$libdir"
		check_purge
	fi
	[ "$failures" -eq 0 ]
}

main "$@"
