#!/bin/sh
# make demo: the distance and direction field of the bundled demo map
# (testdata/demo/demo.ffmap: a gate, mud, a road and a one-way door), built
# with ffbuild | ffdir into testdata/demo/out/demo.ff, then a short summary.
# Run from the top of the source tree after make.
set -e
map=testdata/demo/demo.ffmap
out=testdata/demo/out/demo.ff
mkdir -p "$(dirname "$out")"

bin/ffbuild "$map" | bin/ffdir -o "$out"
echo "demo: $map -> $out ($(wc -c <"$out") bytes; see man 5 ff)"

# The summary reads the text encoding; ffdir --text re-encodes the stream
# (it recomputes the same directions).  23,13 is the gate, 23,4 the door.
bin/ffdir --text "$out" | awk -v cells="23,13 23,4" -f testdata/demo/summary.awk

# The door may be crossed westwards only.  Were it two-way, the spawn
# beside it would take it:
sed 's/^legend < 1 W$/legend < 1/' "$map" | bin/ffbuild | bin/ffdir --text |
    awk -f testdata/demo/summary.awk | grep 'spawn 21,4' |
    sed 's/^ *spawn 21,4 */  with a two-way door, spawn 21,4: /'

# A picture of the field with a spawn's path: traced cell by cell with
# ffquery, pulled taut with ffpull, drawn by ffpng.
png=testdata/demo/out/demo.png
bin/ffquery --trace 2,2 "$out" | bin/ffpull "$out" |
    bin/ffpng -s 24 --legend --path - -o "$png" "$out"
echo "demo: picture of the field and a pulled path from spawn 2,2 -> $png"
