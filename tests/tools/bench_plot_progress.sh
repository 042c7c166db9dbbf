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
# What the bench asks gnuplot to draw, through a stand-in that records the
# script and writes a PNG signature where `set output` points.
mkdir "$TMP/fakebin"
cat >"$TMP/fakebin/gnuplot" <<FAKE
#!/bin/sh
cat >"$TMP/script.gp"
out=\$(sed -n "s/^set output '\\(.*\\)'\$/\\1/p" "$TMP/script.gp")
printf '\\211PNG\\r\\n\\032\\n' >"\$out"
FAKE
chmod +x "$TMP/fakebin/gnuplot"
run fakeplot 0 env PATH="$TMP/fakebin:$PATH" "$BENCH" --sizes 64:4K:x4 --tasks 50 --no-baselines --plot "$TMP/fake.png"
has fakeplot out "plot written to .*fake\.png"
gp=$TMP/script.gp
grep -Fq 'set xtics ("64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096)' "$gp" || fail "x labels: $(grep xtics "$gp")"
grep -Fq "set format y '%g'" "$gp" || fail "y labels are not plain numbers: $(grep format "$gp")"
grep -Fq "set logscale y 10" "$gp" || fail "y axis is not decimal: $(grep logscale "$gp")"
grep -Fq "softdoca-bench throughput, local memory, 1 thread'" "$gp" || fail "title: $(grep title "$gp")"
grep -q 'thread(s)\|%B\|%b' "$gp" && fail "old label formats: $(grep -n 'thread(s)\|%B\|%b' "$gp")"
run fakeplot2 0 env PATH="$TMP/fakebin:$PATH" "$BENCH" --job-size 64 --threads 2 --tasks 50 --no-baselines --plot "$TMP/fake2.png"
grep -Fq "1 thread" "$gp" && fail "title of a 2-thread run says 1 thread"
grep -Fq "2 threads'" "$gp" || fail "title of a 2-thread run: $(grep title "$gp")"
# A gnuplot that writes nothing: the bench says so (status 4) instead of claiming a plot.
printf '#!/bin/sh\ncat >/dev/null\n' >"$TMP/fakebin/gnuplot"
run fakefail 4 env PATH="$TMP/fakebin:$PATH" "$BENCH" --job-size 64 --tasks 50 --no-baselines --plot "$TMP/none2.png"
has fakefail err "gnuplot did not write the plot .*none2\.png"

run noplot 0 env PATH=/nonexistent "$BENCH" --job-size 64 --tasks 100 --no-baselines --plot "$TMP/none.png"
has noplot out "plot .*none\.png skipped: gnuplot is not installed"
[ -e "$TMP/none.png" ] && fail "a plot file appeared without gnuplot"

run progress 0 "$BENCH" --sizes 64,128 --duration 50ms --no-baselines --progress
has progress err '^.*\[[#.]+\] +[0-9]+%'
run quiet 0 "$BENCH" --sizes 64,128 --duration 50ms --no-baselines
hasnt quiet err '%'
finish
