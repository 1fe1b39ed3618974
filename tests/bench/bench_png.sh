#!/bin/sh
# ffpng's speed and memory on a large field: a 4096x4096 map (walls in
# long segments, one goal in a corner) drawn at scale 1, the distance
# layer and the direction layer (a colour per cell) and, for reference,
# netpbm's pnmtopng on a PPM of the same picture when netpbm is installed.
# Each figure is the best wall time of 3 runs, with the peak memory; the
# field alone is 4096^2 x 12 bytes (cost f32 + distance f64) = 192 MiB,
# plus 16 MiB of directions, and the picture 48 MiB were it held whole.
# The map layer, flat colours, shows what reading the stream costs.
# Last, --path through random points (the overlay marks a row at a time).
# Run after make: sh tests/bench/bench_png.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
N=4096

awk -v n=$N 'BEGIN {
    print "ffmap 1"
    print "legend # wall"
    print "legend . 1"
    print "legend G goal 1"
    print "map"
    for (y = 0; y < n; y++) {
        row = ""
        for (x = 0; x < n; x++) {
            if (x == 1 && y == 1)
                c = "G"
            else if ((x % 64 == 32 && y % 512 < 400) || (y % 128 == 64 && x % 256 < 200))
                c = "#"
            else
                c = "."
            row = row c
        }
        print row
    }
}' >"$TMP/big.ffmap"
"$BIN/ffbuild" "$TMP/big.ffmap" >"$TMP/dist.ff" || exit 1
"$BIN/ffdir" "$TMP/dist.ff" >"$TMP/dir.ff" || exit 1
rm -f "$TMP/big.ffmap"

. tests/bench/best.sh

echo "bench_png: ${N}x$N field at scale 1 (${N}x$N pixels, $((N * N * 3 / 1048576)) MiB of RGB)"
best "ffpng distance layer (with the key)" "$BIN/ffpng -s 1 -l distance $TMP/dist.ff -o $TMP/dist.png"
best "ffpng distance layer, --no-legend" "$BIN/ffpng -s 1 -l distance --no-legend $TMP/dist.ff -o $TMP/nokey.png"
best "ffpng direction layer" "$BIN/ffpng -s 1 -l direction $TMP/dir.ff -o $TMP/dir.png"
"$BIN/ffquery" --trace 4000,4000 "$TMP/dir.ff" >"$TMP/path.txt" 2>/dev/null ||
    printf '1 1\n4000 4000\n' >"$TMP/path.txt"
best "ffpng distance + key + path" \
    "$BIN/ffpng -s 1 --path $TMP/path.txt $TMP/dist.ff -o $TMP/path.png"
best "ffpng map layer (flat colours)" "$BIN/ffpng -s 1 -l map $TMP/dist.ff -o $TMP/map.png"
printf '  %-34s %9d bytes\n' "distance PNG" "$(wc -c <"$TMP/dist.png")"
printf '  %-34s %9d bytes\n' "direction PNG" "$(wc -c <"$TMP/dir.png")"
if command -v pngtopnm >/dev/null 2>&1 && command -v pnmtopng >/dev/null 2>&1; then
    pngtopnm "$TMP/dist.png" >"$TMP/dist.ppm"
    best "pnmtopng, the distance PPM" "pnmtopng $TMP/dist.ppm > $TMP/ref.png"
    printf '  %-34s %9d bytes\n' "pnmtopng PNG" "$(wc -c <"$TMP/ref.png")"
    pngtopnm "$TMP/dir.png" >"$TMP/dir.ppm"
    best "pnmtopng, the direction PPM" "pnmtopng $TMP/dir.ppm > $TMP/ref2.png"
    printf '  %-34s %9d bytes\n' "pnmtopng PNG (direction)" "$(wc -c <"$TMP/ref2.png")"
else
    echo "  (netpbm not installed: no pnmtopng reference)"
fi

# --path through random points on a 256 x 256 field at scale 1: a row draws
# every mark that touches it, and every mark it takes in is merged into the
# active list in drawing order.  Inserted one by one (a memmove each) it
# grew as n^1.5: 2.44, 7.06 and 19.2 s of user time at 100,000, 200,000
# and 400,000 points, against 1.59, 3.47 and 7.75 s merged (one run, side
# by side).  Twice the points should take about twice the time.
awk 'BEGIN {
    print "ffmap 1"; print "legend . 1"; print "legend G goal 1"; print "map"
    for (y = 0; y < 256; y++) {
        row = ""
        for (x = 0; x < 256; x++)
            row = row (x == 1 && y == 1 ? "G" : ".")
        print row
    }
}' | "$BIN/ffbuild" >"$TMP/open.ff" || exit 1
for n in 100000 200000 400000; do
    awk -v n=$n 'BEGIN { s = 1; for (i = 0; i < n; i++) {
        s = (s * 69069 + 1) % 4294967296; x = s / 4294967296 * 256
        s = (s * 69069 + 1) % 4294967296; y = s / 4294967296 * 256
        printf "%.3f %.3f\n", x, y } }' >"$TMP/rand$n.txt"
    best "ffpng --path, $n random points" \
        "$BIN/ffpng -s 1 --no-legend --path $TMP/rand$n.txt $TMP/open.ff -o $TMP/rand.png"
done
