#!/bin/bash
# softdoca-bench --plot draws a PNG through gnuplot, or says gnuplot is missing
# and still succeeds; --progress draws the bar on stderr, none without it.
. "$(dirname "$0")/lib.sh"
BENCH=$1

if command -v gnuplot >/dev/null; then
	run plot 0 "$BENCH" --sizes 64:4K:x8 --tasks 200 --plot "$TMP/sweep.png"
	has plot out "plot written to .*sweep\.png"
	[ "$(head -c 8 "$TMP/sweep.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "not a PNG file"
fi
run noplot 0 env PATH=/nonexistent "$BENCH" --job-size 64 --tasks 100 --no-baselines --plot "$TMP/none.png"
has noplot out "plot .*none\.png skipped: gnuplot is not installed"
[ -e "$TMP/none.png" ] && fail "a plot file appeared without gnuplot"

run progress 0 "$BENCH" --sizes 64,128 --duration 50ms --no-baselines --progress
has progress err '^.*\[[#.]+\] +[0-9]+%'
run quiet 0 "$BENCH" --sizes 64,128 --duration 50ms --no-baselines
hasnt quiet err '%'
finish
