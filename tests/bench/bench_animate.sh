#!/bin/sh
# ffpng --animate's speed and memory: the gate replay (testdata/gate.ffmap,
# 300 agents, every tick of ffsim's trace) as an APNG at the default scale
# (32 pixels a cell) and at scale 8, with the still picture of the same
# trace beside it for reference.  Each figure is the best wall time of 3
# runs, with that run's peak memory (GNU time).  Run after make:
#   sh tests/bench/bench_animate.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

"$BIN/ffbuild" testdata/gate.ffmap | "$BIN/ffdir" -o "$TMP/gate.ff" || exit 1
"$BIN/ffsim" -o "$TMP/gate.trace" "$TMP/gate.ff" testdata/gate.scenario 2>/dev/null || exit 1
ticks=$(awk '!/^#/ && (!seen || $1 != last) { n++; last = $1; seen = 1 } END { print n }' "$TMP/gate.trace")
lines=$(grep -vc '^#' "$TMP/gate.trace")

BEST_WIDTH=40
. tests/bench/best.sh

echo "bench_animate: gate replay, $ticks ticks, $lines trace lines, 300 agents"
best "--animate, default scale (32)" "$BIN/ffpng --animate --trace $TMP/gate.trace $TMP/gate.ff -o $TMP/a32.png"
best "--animate, scale 8" "$BIN/ffpng -s 8 --animate --trace $TMP/gate.trace $TMP/gate.ff -o $TMP/a8.png"
best "--animate from a pipe (spooled), scale 8" "$BIN/ffpng -s 8 --animate --trace - $TMP/gate.ff < $TMP/gate.trace > $TMP/a8p.png"
best "still picture of the trace, default scale" "$BIN/ffpng --trace $TMP/gate.trace $TMP/gate.ff -o $TMP/still.png"
printf '  %-40s %9d bytes\n' "APNG, default scale" "$(wc -c <"$TMP/a32.png")"
printf '  %-40s %9d bytes\n' "APNG, scale 8" "$(wc -c <"$TMP/a8.png")"
