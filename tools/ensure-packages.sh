#!/usr/bin/env bash
# tools/ensure-packages.sh PACKAGE... - install the Debian packages that are
# missing, and only those.
#
# Used by tests/run.sh, examples/run-demo.sh and .ci/run so that each of them
# works on a fresh Debian machine.  Nothing is touched when every package is
# already installed (the common case on a developer machine), so running it
# needs no privileges then.  Otherwise it runs `apt-get update` once and
# `apt-get install` for the missing ones: directly as root, through sudo
# otherwise (sudo may ask for a password only when stdin is a terminal).
set -euo pipefail

if [ $# -eq 0 ]; then
	exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "ensure-packages: not a Debian system; please make sure these are installed: $*" >&2
	exit 0
fi

missing=()
for pkg in "$@"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	case "$status" in
	*"install ok installed"*) ;;
	*) missing+=("$pkg") ;;
	esac
done

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null 2>&1; then
		echo "ensure-packages: missing Debian packages: ${missing[*]}" >&2
		echo "ensure-packages: run as root or install them: apt-get install ${missing[*]}" >&2
		exit 1
	fi
	if [ -t 0 ]; then
		as_root=(sudo)
	else
		as_root=(sudo -n)
	fi
fi

echo "ensure-packages: installing missing Debian packages: ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
