#!/bin/sh
# String pulling and the funnel: wall-clock times (best of RUNS) of
#   ffpull on straight paths of 25,000 to 200,000 points (one open row:
#     one jump crosses the whole path, one sight test) and on a
#     100,000-point serpentine of 100 straight runs of 1,000 (each jump
#     tests every later point from the last back: the O(n^2) worst case);
#   fffunnel on zig-zag corridors of 100,000 to 400,000 portals (linear:
#     the time per portal stays flat), and --cells on the serpentine;
# then, on the Moving AI maps (../shared/testdata/movingai when there, else
# testdata/movingai), SCEN scenarios a map traced with ffquery --trace: the
# mean length that ffpull and fffunnel --cells save against the grid path,
# and the points ffpull keeps.
# Run from anywhere after `make`: sh tests/bench/bench_pull.sh
# (RUNS=3 SCEN=20 by default; SCEN=0 skips the Moving AI figures).
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
RUNS=${RUNS:-3}
SCEN=${SCEN:-20}
for p in ffbuild ffpull fffunnel; do
    [ -x "$BIN/$p" ] || { echo "bench_pull: build first (make)" >&2; exit 2; }
done

now() { date +%s.%N; }

# best OUT CMD...: the least wall time of $RUNS runs of CMD (via sh -c),
# its standard output in OUT.
best() {
    out=$1
    shift
    b=
    r=0
    while [ "$r" -lt "$RUNS" ]; do
        t0=$(now)
        sh -c "$*" >"$out" || { echo "bench_pull: failed: $*" >&2; exit 1; }
        t1=$(now)
        b=$(awk -v a="$t0" -v z="$t1" -v b="$b" 'BEGIN {t = z - a; if (b == "" || t < b) b = t; printf "%.4f\n", b}')
        r=$((r + 1))
    done
    echo "$b"
}

# A map of one open row, W cells long, as an ffmap; its field.
row_field() {
    awk -v w="$1" 'BEGIN {
        printf "ffmap 1\nlegend . 1\nmap\n"
        for (x = 0; x < w; x++) printf "."
        printf "\n"
    }' >"$TMP/row.ffmap"
    "$BIN/ffbuild" -g 0,0 "$TMP/row.ffmap" >"$TMP/row.ff" || exit 1
}

echo "bench_pull: best of $RUNS runs"
echo "ffpull, straight paths (one jump over the whole path):"
for n in 25000 50000 100000 200000; do
    row_field "$n"
    awk -v n="$n" 'BEGIN { for (k = 0; k < n; k++) printf "%d.5 0.5\n", k }' >"$TMP/straight.txt"
    t=$(best "$TMP/out.txt" "$BIN/ffpull $TMP/row.ff <$TMP/straight.txt")
    kept=$(wc -l <"$TMP/out.txt")
    [ "$kept" -eq 2 ] || { echo "bench_pull: straight path kept $kept points, want 2" >&2; exit 1; }
    awk -v n="$n" -v t="$t" 'BEGIN {
        printf "  %7d points  %7.3f s  %6.0f ns a point  (kept 2)\n", n, t, t / n * 1e9 }'
done

# The serpentine: corridor rows at odd y, walls between them open at
# alternate ends; the path runs along each row in turn (cell centers).
awk 'function row(a, b, gap,   x) {
        for (x = 0; x < 1002; x++) printf "%s", x == gap ? "." : (x == 0 || x == 1001 ? "#" : (a ? "." : "#"))
        printf "\n"
    }
    BEGIN {
    printf "ffmap 1\nlegend # wall\nlegend . 1\nmap\n"
    row(0, 0, -1)
    for (r = 0; r < 100; r++) {
        row(1, 0, -1)
        row(0, 0, r == 99 ? -1 : (r % 2 == 0 ? 1000 : 1))
    }
}' >"$TMP/serp.ffmap"
awk 'BEGIN {
    for (r = 0; r < 100; r++) {
        y = 2 * r + 1
        for (k = 0; k < 1000; k++) printf "%d.5 %d.5\n", (r % 2 == 0 ? 1 + k : 1000 - k), y
        if (r < 99) printf "%d.5 %d.5\n", (r % 2 == 0 ? 1000 : 1), y + 1
    }
}' >"$TMP/serp.txt"
"$BIN/ffbuild" -g 1,1 "$TMP/serp.ffmap" >"$TMP/serp.ff" || exit 1
serp_n=$(wc -l <"$TMP/serp.txt")
t=$(best "$TMP/out.txt" "$BIN/ffpull $TMP/serp.ff <$TMP/serp.txt")
kept=$(wc -l <"$TMP/out.txt")
echo "ffpull, serpentine of 100 runs of 1000:"
awk -v n="$serp_n" -v t="$t" -v k="$kept" 'BEGIN {
    printf "  %7d points  %7.3f s  %6.0f ns a point  (kept %d)\n", n, t, t / n * 1e9, k }'

echo "fffunnel, zig-zag corridors (portals at x = 1, 2, ... alternately high and low):"
for n in 100000 200000 400000; do
    awk -v n="$n" 'BEGIN {
        s = 7
        printf "0 5\n"
        for (k = 1; k <= n; k++) {
            s = (s * 1103515245 + 12345) % 2147483648
            lo = (k % 2 ? 0 : 4) + (s % 300) / 100
            printf "%d %.2f %d %.2f\n", k, lo, k, lo + 2 + (s % 700) / 100
        }
        printf "%d 5\n", n + 1
    }' >"$TMP/zig.txt"
    t=$(best "$TMP/out.txt" "$BIN/fffunnel <$TMP/zig.txt")
    corners=$(($(wc -l <"$TMP/out.txt") - 2))
    awk -v n="$n" -v t="$t" -v c="$corners" 'BEGIN {
        printf "  %7d portals %7.3f s  %6.0f ns a portal  (%d corners)\n", n, t, t / n * 1e9, c }'
done
t=$(best "$TMP/out.txt" "$BIN/fffunnel --cells $TMP/serp.ff <$TMP/serp.txt")
corners=$(($(wc -l <"$TMP/out.txt") - 2))
echo "fffunnel --cells, the serpentine:"
awk -v n="$serp_n" -v t="$t" -v c="$corners" 'BEGIN {
    printf "  %7d cells   %7.3f s  %6.0f ns a cell    (%d corners)\n", n, t, t / n * 1e9, c }'

# The Moving AI figures.
[ "$SCEN" -gt 0 ] || exit 0
[ -x "$BIN/ffquery" ] && [ -x "$BIN/ffdir" ] || { echo "bench_pull: no ffquery, no Moving AI figures"; exit 0; }
DIR=../shared/testdata/movingai
[ -d "$DIR" ] || DIR=testdata/movingai
len() { awk 'NR > 1 { s += sqrt(($1 - x) ^ 2 + ($2 - y) ^ 2) } { x = $1; y = $2 } END { printf "%.9f\n", s }' "$1"; }
echo "Moving AI ($DIR, $SCEN scenarios a map spread over the file; 8 moves, strict corners):"
echo "  map                   paths  grid len  ffpull saves  points kept  fffunnel --cells saves"
: >"$TMP/all.txt"
for map in "$DIR"/*.map; do
    [ -f "$map.scen" ] || continue
    name=$(basename "$map")
    awk -v k="$SCEN" 'NR > 1 && NF >= 9 { line[++n] = $5 " " $6 " " $7 " " $8 }
        END { for (i = 0; i < k && i < n; i++) print line[int(i * n / k) + 1] }' "$map.scen" >"$TMP/scen.txt"
    : >"$TMP/map.txt"
    while read -r sx sy gx gy; do
        "$BIN/ffbuild" -g "$gx,$gy" "$map" | "$BIN/ffdir" >"$TMP/f.ff" || exit 1
        "$BIN/ffquery" --trace "$sx,$sy" "$TMP/f.ff" >"$TMP/trace.txt" || exit 1
        [ "$(wc -l <"$TMP/trace.txt")" -ge 2 ] || continue
        "$BIN/ffpull" "$TMP/f.ff" <"$TMP/trace.txt" >"$TMP/pulled.txt" || exit 1
        "$BIN/fffunnel" --cells "$TMP/f.ff" <"$TMP/trace.txt" >"$TMP/funnel.txt" || exit 1
        echo "$(len "$TMP/trace.txt") $(len "$TMP/pulled.txt") $(len "$TMP/funnel.txt") $(wc -l <"$TMP/trace.txt") $(wc -l <"$TMP/pulled.txt")" >>"$TMP/map.txt"
    done <"$TMP/scen.txt"
    cat "$TMP/map.txt" >>"$TMP/all.txt"
    awk -v name="$name" '{ g += $1; p += $2; f += $3; n += $4; k += $5; m++ }
        END { if (m) printf "  %-20s %6d %9.1f %12.2f%% %8.1f%% (%5.1f) %12.2f%%\n",
              name, m, g / m, 100 * (1 - p / g), 100 * k / n, k / m, 100 * (1 - f / g) }' "$TMP/map.txt"
done
awk '{ g += $1; p += $2; f += $3; n += $4; k += $5; m++; sp += 1 - $2 / $1; sf += 1 - $3 / $1 }
    END { if (m) printf "  %-20s %6d %9.1f %12.2f%% %8.1f%% (%5.1f) %12.2f%%\n  mean per path: ffpull saves %.2f%%, fffunnel --cells %.2f%%\n",
          "all", m, g / m, 100 * (1 - p / g), 100 * k / n, k / m, 100 * (1 - f / g), 100 * sp / m, 100 * sf / m }' "$TMP/all.txt"
