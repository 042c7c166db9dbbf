#!/bin/bash
# softdoca-caps --check on fake installs in a temporary prefix: one that
# fits together (exit 0), and one for each kind of mismatch (exit 3 with a
# diagnosis and a fix).  The real version comes from the build (argument 2);
# the fake pieces say 0.1.0001, which no install is.
#
#   caps_check.sh CAPS VERSION INCLUDE_DIR LIBDOCA_COMMON LIBDOCA_DMA FAKE_COMMON INSTALL_LIBDIR
# (INSTALL_LIBDIR: the libdir this build installs into, which the hints name.)
. "$(dirname "$0")/lib.sh"
CAPS=$1 VERSION=$2 INCLUDE=$(realpath "$3") LIBCOMMON=$(realpath "$4") LIBDMA=$(realpath "$5") FAKE=$(realpath "$6")
INSTALL_LIBDIR=$7
TMP=$(realpath "$TMP")
FAKE_VERSION=0.1.0001
export PKG_CONFIG_LIBDIR="$TMP/no-system-pc" # only the fake installs' .pc files count
mkdir -p "$PKG_CONFIG_LIBDIR"
unset PKG_CONFIG_PATH LD_LIBRARY_PATH

# install DIR VERSION COMMON_LIB DMA_LIB: headers, libraries and .pc files of one prefix.
install() {
	local dir=$1 version=$2 common=$3 dma=$4
	mkdir -p "$dir/include" "$dir/lib/pkgconfig"
	for h in "$INCLUDE"/doca_*.h; do ln -s "$h" "$dir/include/"; done
	ln -s "$common" "$dir/lib/libdoca_common.so"
	ln -s "$common" "$dir/lib/libdoca_common.so.3"
	ln -s "$dma" "$dir/lib/libdoca_dma.so"
	for m in common dma; do
		cat >"$dir/lib/pkgconfig/doca-$m.pc" <<PC
prefix=$dir
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: doca-$m
Description: fake install of caps_check.sh
Version: $version
Libs: -L\${libdir} -ldoca_$m
Cflags: -I\${includedir} -DDOCA_ARCH_HOST
PC
	done
}

# set_header_version DIR MAJOR MINOR PATCH: doca_version.h of DIR says another version.
set_header_version() {
	rm "$1/include/doca_version.h"
	sed -e "s/^#define DOCA_VERSION_MAJOR .*/#define DOCA_VERSION_MAJOR $2/" \
		-e "s/^#define DOCA_VERSION_MINOR .*/#define DOCA_VERSION_MINOR $3/" \
		-e "s/^#define DOCA_VERSION_PATCH .*/#define DOCA_VERSION_PATCH $4/" \
		"$INCLUDE/doca_version.h" >"$1/include/doca_version.h"
}

# check NAME RC PREFIX [LD_LIBRARY_PATH]: softdoca-caps --check with PREFIX's .pc files.  The
# tool is a DOCA program too: an LD_LIBRARY_PATH that leads to a fake
# libdoca_common would take it over, so its own libraries are preloaded.
check() {
	run "$1" "$2" env PKG_CONFIG_PATH="$3/lib/pkgconfig" ${4:+LD_LIBRARY_PATH=$4} \
		LD_PRELOAD="$LIBCOMMON $LIBDMA" "$CAPS" --check
}

# 1. Everything from one build: all four agree.
install "$TMP/good" "$VERSION" "$LIBCOMMON" "$LIBDMA"
check good 0 "$TMP/good" "$TMP/good/lib"
has good out "^  pkg-config  doca-common $VERSION +$TMP/good/lib/pkgconfig/doca-common.pc$"
has good out "^  headers     doca_version.h $VERSION +$TMP/good/include/doca_version.h$"
has good out "^  library     libdoca_common $VERSION "
has good out "^  run time    libdoca_common.so.3 +$VERSION .*through LD_LIBRARY_PATH"
has good out "^  this tool   softdoca-caps $VERSION"
has good out "^OK: pkg-config, headers, libraries and this tool all say DOCA $VERSION$"
hasnt good out "^PROBLEM"

# 2. The headers of another version on the -I path.
install "$TMP/headers" "$VERSION" "$LIBCOMMON" "$LIBDMA"
set_header_version "$TMP/headers" 0 1 1
check headers 3 "$TMP/headers" "$TMP/headers/lib"
has headers out "^PROBLEM 1: $TMP/headers/include/doca_version.h is DOCA 0.1.0001, but doca-common.pc says $VERSION$"
has headers out "^  fix: a program compiles against other headers than the libraries it links"
hasnt headers out "^PROBLEM 2"

# 3. A libdoca_common of another install in the .pc file's libdir.
install "$TMP/lib" "$VERSION" "$FAKE" "$LIBDMA"
check lib 3 "$TMP/lib" "$TMP/good/lib"
has lib out "^PROBLEM 1: $TMP/lib/lib/libdoca_common.so answers doca_version_runtime\(\) with $FAKE_VERSION, but doca-common.pc says $VERSION$"
has lib out "^  fix: stale libraries in $TMP/lib/lib"

# 4. A .pc file of another version.
install "$TMP/pc" "$VERSION" "$LIBCOMMON" "$LIBDMA"
sed -i "s/^Version: .*/Version: $FAKE_VERSION/" "$TMP/pc/lib/pkgconfig/doca-dma.pc"
check pc 3 "$TMP/pc" "$TMP/pc/lib"
has pc out "^PROBLEM 1: $TMP/pc/lib/pkgconfig/doca-dma.pc says DOCA $FAKE_VERSION, doca-common.pc says $VERSION$"
has pc out "^  fix: the .pc files come from two installs"

# 5. A program would load another install's libdoca_common at run time.
check runtime 3 "$TMP/good" "$TMP/lib/lib"
has runtime out "^PROBLEM 1: a program linked against .* loads .*fake_doca_common.* \(DOCA $FAKE_VERSION\) at run time, through LD_LIBRARY_PATH$"
has runtime out "^  fix: put $TMP/good/lib first in LD_LIBRARY_PATH"

# 6. No .pc file at all.  The fix names the folders of the tool's own
# install, not a pattern: the libdir it was built for while it runs from the
# build tree...
run none 3 env PKG_CONFIG_PATH="$TMP/empty" "$CAPS" --check
has none out "^PROBLEM 1: pkg-config finds no doca-common module$"
has none out "^  fix: add the folder holding doca-common.pc to PKG_CONFIG_PATH; for the install this tool belongs to \(once installed there\):$"
has none out "^       host flavour: export PKG_CONFIG_PATH=$INSTALL_LIBDIR/pkgconfig$"
has none out "^       DPU flavour:  export PKG_CONFIG_PATH=$INSTALL_LIBDIR/pkgconfig-dpu:$INSTALL_LIBDIR/pkgconfig$"
hasnt none out "<prefix>|<triplet>"
# ... and the folder of the libdoca_common it runs with once that holds the .pc files.
run none_installed 3 env PKG_CONFIG_PATH="$TMP/empty" LD_PRELOAD="$TMP/good/lib/libdoca_common.so $LIBDMA" \
	"$CAPS" --check
has none_installed out "^  fix: add the folder holding doca-common.pc to PKG_CONFIG_PATH; for the install this tool belongs to:$"
has none_installed out "^       host flavour: export PKG_CONFIG_PATH=$TMP/good/lib/pkgconfig$"

# 7. A consistent install of another version: only this tool differs; the
# fix names that install's own softdoca-caps (in DOCA's tools/ folder here).
install "$TMP/other" "$FAKE_VERSION" "$FAKE" "$FAKE"
set_header_version "$TMP/other" 0 1 1
mkdir -p "$TMP/other/tools"
printf '#!/bin/sh\n' >"$TMP/other/tools/softdoca-caps"
chmod +x "$TMP/other/tools/softdoca-caps"
check other 3 "$TMP/other" "$TMP/other/lib"
has other out "^PROBLEM 1: this softdoca-caps is softdoca $VERSION, the install pkg-config points at is $FAKE_VERSION$"
has other out "^  fix: run the softdoca-caps of that install \($TMP/other/tools/softdoca-caps\)"
hasnt other out "^PROBLEM 2"

# 8. A libdir the loader does not know (unless this machine has DOCA in its
# ld.so cache): programs built with meson carry a run path to it, so it is a
# note with the fix, and the install is judged sound (exit 0).
if ! /sbin/ldconfig -p 2>/dev/null | grep -q 'libdoca_common\.so\.'; then
	check noload 0 "$TMP/good"
	has noload out "^  run time    libdoca_common.so.3 not in the loader's configuration; programs reach it through their run path$"
	has noload out "^NOTE 1: $TMP/good/lib is not registered with the dynamic loader"
	has noload out "^  fix \(for those\): link with -Wl,-rpath,$TMP/good/lib, or register the folder as root:$"
	has noload out "^       echo $TMP/good/lib > /etc/ld.so.conf.d/softdoca.conf && ldconfig$"
	has noload out "^OK: pkg-config, headers, libraries and this tool all say DOCA $VERSION$"
	hasnt noload out "^PROBLEM"
fi

run help 0 "$CAPS" --help
has help out "--check"
finish
