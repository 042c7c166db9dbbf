#!/bin/sh
# tools/install-ld-so-conf.sh LIBDIR PREFIX MODE - run by `meson install`.
#
# Registers LIBDIR with the dynamic linker the way a distribution package
# does: /etc/ld.so.conf.d/softdoca.conf holding the directory, then
# ldconfig.  Programs that were built against softdoca without a run path
# then find its libraries too.  (softdoca's own tools carry a run path and
# need none of this.)
#
# MODE (meson option ld_so_conf):
#   disabled  never;
#   auto      only for a prefix under /opt (a system-wide install next to
#             other vendors' SDKs; /usr and /usr/local are searched anyway,
#             and a private prefix should not change the whole system);
#   enabled   for any prefix.
# With DESTDIR set (staged install, package build) the file is written
# under DESTDIR and ldconfig is left to the package's installation.
# Without DESTDIR the file goes to /etc, which needs root: `auto` then says
# what it skipped, `enabled` fails.
set -u
libdir=$1
prefix=$2
mode=$3
destdir=${DESTDIR:-}

case $mode in
disabled) exit 0 ;;
auto)
	case $prefix in
	/opt/*) ;;
	*) exit 0 ;;
	esac
	;;
enabled) ;;
*)
	echo "install-ld-so-conf.sh: unknown mode '$mode'" >&2
	exit 1
	;;
esac

conf_dir=$destdir/etc/ld.so.conf.d
if [ -z "$destdir" ] && [ "$(id -u)" != 0 ]; then
	echo "softdoca: not root, so $libdir is not registered with the dynamic linker"
	echo "softdoca: (programs built against it need a run path or LD_LIBRARY_PATH; see docs/building.md in the softdoca documentation)"
	[ "$mode" = enabled ] && exit 1
	exit 0
fi
mkdir -p "$conf_dir" || exit 1
printf '%s\n' "$libdir" >"$conf_dir/softdoca.conf" || exit 1
echo "softdoca: registered $libdir with the dynamic linker ($conf_dir/softdoca.conf)"
if [ -z "$destdir" ]; then
	ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
	"$ldconfig" || exit 1
fi
exit 0
