#!/usr/bin/env bash
# Every tool softdoca installs has a manual page in man/, and no page
# (softdoca-env(7), generated from the README's table, included) sends its
# reader to a README section, which a man reader does not have.
#   man_pages.sh SOURCE_ROOT GENERATED_ENV_PAGE
. "$(dirname "$0")/lib.sh"
src=$1
env_page=$2

# The installed executables: every executable('NAME', ... install: true) of tools/.
tools=$(awk "/executable\\('/ { match(\$0, /executable\\('[^']+'/); name = substr(\$0, RSTART + 12, RLENGTH - 13) }
	name != \"\" && /install: true/ { print name; name = \"\" }" "$src"/tools/*/meson.build | sort -u)
[ -n "$tools" ] || fail "found no installed tool in tools/*/meson.build"
for t in $tools; do
	[ -f "$src/man/$t.1" ] || fail "$t is installed but has no manual page (man/$t.1)"
	grep -q "install_man(.*'$t.1'" "$src/man/meson.build" || fail "man/$t.1 is not installed by man/meson.build"
done

for page in "$src"/man/*.1 "$env_page"; do
	# roff comments (.\") are for maintainers, not readers
	if grep -nvE '^\.\\"' "$page" | grep -E 'README|\(see [A-Z][a-z]+\)|see below|see above' >"$TMP/pointers"; then
		fail "$(basename "$page") points at a README section:"
		sed 's/^/    /' "$TMP/pointers" >&2
	fi
done
[ "$failures" -eq 0 ]
