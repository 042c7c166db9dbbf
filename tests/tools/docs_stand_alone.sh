#!/bin/bash
# The repository stands on its own: no file cites the outside documents it
# was designed from (decision numbers such as "D-12", section numbers such
# as "03 §5"), and none names a folder of the machine it was written on.
# Rules the docs define themselves (V1..V9, T1..T8, B1..B20) are fine.
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
check "folders of the development machine" '/work/|shared/spec|\.mirror/|/home/[a-z]'
finish
