#!/bin/bash
# The repository stands on its own: no file cites the outside documents it
# was designed from (decision numbers such as "D-12", section numbers such
# as "03 §5"), and none names a folder of the machine it was written on.
# Rules the docs define themselves (V1..V9, T1..T8, B1..B20) are fine.
#
# The folders of "the machine it was written on" are found where this runs,
# not written here: every folder that holds the checkout (up to, not
# including, a system folder such as /tmp or /home), and every folder beside
# one of them with its subfolders (a notes or material folder next to the
# checkout, say).  A home directory is refused wherever it is.
. "$(dirname "$0")/lib.sh"
ROOT=$1
cd "$ROOT" || exit 1

if [ -d .git ] || git rev-parse --git-dir >/dev/null 2>&1; then
	mapfile -t files < <(git ls-files)
else
	mapfile -t files < <(find . -type f -not -path './build*' -not -path './.git/*' | sed 's|^\./||')
fi
texts=()
for f in "${files[@]}"; do
	[ -f "$f" ] && grep -Iq . "$f" 2>/dev/null && texts+=("$f")
done
[ ${#texts[@]} -gt 20 ] || fail "found only ${#texts[@]} text files under $ROOT"

# pattern and what it means
check() {
	local what=$1 regex=$2 hits
	hits=$(grep -nE -- "$regex" "${texts[@]}" | grep -v '^tests/tools/docs_stand_alone\.sh:' | head -20)
	if [ -n "$hits" ]; then
		fail "$what:"
		printf '%s\n' "$hits" | sed 's/^/    /' >&2
	fi
}
check "decision numbers of an outside register" '(^|[^A-Za-z0-9_-])D-[0-9]+([^0-9]|$)'
check "section numbers of an outside document" '§|(^|[^0-9])0[0-6] §'
check "home directories" '/home/[a-z]'

# A system folder is everyone's: the checkout's surroundings start below it.
is_system_dir() {
	case "$1" in
	/ | /tmp | /var | /var/tmp | /home | /root | /usr | /usr/* | /opt | /srv | /mnt | /media | /run | /dev*) return 0 ;;
	esac
	return 1
}

# Fixed strings naming the checkout's surroundings, one per line.
surroundings() {
	local dir here entry sub
	here=$(cd "$ROOT" && pwd -P)
	dir=$(dirname "$here")
	while ! is_system_dir "$dir"; do
		printf '%s/\n' "$dir"
		for entry in "$dir"/* "$dir"/.[!.]*; do
			[ -d "$entry" ] && [ "$entry" != "$here" ] && [ ! -e "$entry/.git" ] || continue
			for sub in "$entry"/* "$entry"/.[!.]*; do
				[ -d "$sub" ] && printf '%s/%s\n' "$(basename "$entry")" "$(basename "$sub")"
			done
		done
		here=$dir
		dir=$(dirname "$dir")
	done
}
surroundings | sort -u >"$TMP/surroundings"
if [ -s "$TMP/surroundings" ]; then
	hits=$(grep -nFw -f "$TMP/surroundings" -- "${texts[@]}" | grep -v '^tests/tools/docs_stand_alone\.sh:' | head -20)
	if [ -n "$hits" ]; then
		fail "folders of the machine this checkout lives on ($(wc -l <"$TMP/surroundings") names looked for):"
		printf '%s\n' "$hits" | sed 's/^/    /' >&2
	fi
fi
finish
