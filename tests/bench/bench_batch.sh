#!/bin/sh
# Batch preprocessing: 64 goal sets (1 to 3 goals each) on a 2048x2048
# Moving AI map with clustered walls, built as 64 separate ffbuild runs, as
# one ffbuild --goal-sets run with -j 1, and with -j 2; the speed-ups
# against the separate runs, and the peak memory of each --goal-sets run
# (best of REPEAT=2 rounds).
# The fields go to /dev/null: this times reading, searching and writing the
# stream, not a disk.  SIZE=512 SETS=16 sh tests/bench/bench_batch.sh for a
# quick run.  Needs `make` first.
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SIZE=${SIZE:-2048}
SETS=${SETS:-64}
REPEAT=${REPEAT:-2}
[ -x "$BIN/ffbuild" ] || { echo "bench_batch: run make first" >&2; exit 2; }

# The map: tests/bench/genmap.c (the benchmarks' seeded generator) when it
# is there, else a small stand-in with seeded rectangles of wall.
if [ -f tests/bench/genmap.c ] && cc -O2 -o "$TMP/genmap" tests/bench/genmap.c 2>/dev/null; then
    "$TMP/genmap" "$SIZE" 9 "$TMP/map.map" "$TMP/weighted.ffmap" >/dev/null 2>"$TMP/genmap.log" || exit 1
    what=$(sed -n 's/^genmap: //p' "$TMP/genmap.log")
else
    awk -v n="$SIZE" 'function rnd() { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648 }
    BEGIN {
        s = 9
        for (k = 0; k < n * n / 1600; k++) {
            x0[k] = int(rnd() * n); y0[k] = int(rnd() * n)
            x1[k] = x0[k] + 2 + int(rnd() * 38); y1[k] = y0[k] + 2 + int(rnd() * 38)
        }
        printf "type octile\nheight %d\nwidth %d\nmap\n", n, n
        for (y = 0; y < n; y++) {
            row = sprintf("%" n "s", ""); gsub(/ /, ".", row)
            for (j = 0; j < k; j++)
                if (y >= y0[j] && y < y1[j]) {
                    a = x0[j]; b = x1[j] < n ? x1[j] : n
                    row = substr(row, 1, a) sprintf("%" (b - a) "s", "") substr(row, b + 1)
                }
            gsub(/ /, "@", row)
            print row
        }
    }' >"$TMP/map.map"
    what="${SIZE}x${SIZE}, seeded wall rectangles"
fi

# The goal sets: seeded open cells, read from the map itself.
awk -v sets="$SETS" 'function rnd() { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648 }
    NR > 4 { row[NR - 5] = $0; h = NR - 4; w = length($0) }
    END {
        s = 42
        for (k = 0; k < sets; k++) {
            line = sprintf("set%02d", k)
            for (g = 0; g <= k % 3; g++) {
                do { x = int(rnd() * w); y = int(rnd() * h) } while (substr(row[y], x + 1, 1) != ".")
                line = line " " x "," y
            }
            print line
        }
    }' "$TMP/map.map" >"$TMP/sets"

# Time a command: wall seconds, CPU seconds (user + system, children
# included) and peak memory, as "WALL CPU MB".  CPU time tells the work
# apart from waiting when other jobs share the cores.
measure() {
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%e %U %S %M' -o "$TMP/time" "$@" >/dev/null || exit 1
        awk '{ printf "%.2f %.2f %d", $1, $2 + $3, $4 / 1024 }' "$TMP/time"
    else
        t0=$(date +%s.%N)
        "$@" >/dev/null || exit 1
        t1=$(date +%s.%N)
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f ? ?", b - a }'
    fi
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else printf "?" }'; }

# The same bytes whichever way, on the first 8 sets (outside the timing).
head -n 8 "$TMP/sets" >"$TMP/sets8"
while read -r name goals; do
    "$BIN/ffbuild" --name "$name" $(printf ' -g %s' $goals) "$TMP/map.map"
done <"$TMP/sets8" | cksum >"$TMP/sum.sep"
"$BIN/ffbuild" --goal-sets "$TMP/sets8" -j 1 "$TMP/map.map" | cksum >"$TMP/sum.j1"
"$BIN/ffbuild" --goal-sets "$TMP/sets8" -j 2 "$TMP/map.map" | cksum >"$TMP/sum.j2"
if cmp -s "$TMP/sum.sep" "$TMP/sum.j1" && cmp -s "$TMP/sum.sep" "$TMP/sum.j2"; then
    same="same bytes from all three (first 8 sets)"
else
    same="OUTPUTS DIFFER"
fi

cat >"$TMP/separate.sh" <<EOS
while read -r name goals; do
    "$BIN/ffbuild" --name "\$name" \$(printf ' -g %s' \$goals) "$TMP/map.map" || exit 1
done <"$TMP/sets"
EOS
# The best of REPEAT rounds, each round running the three in turn, so
# that a burst of other work on the machine hits them alike.
r=0
while [ "$r" -lt "$REPEAT" ]; do
    m=$(measure sh "$TMP/separate.sh") || { echo "bench_batch: separate runs failed" >&2; exit 1; }
    echo "sep $m" >>"$TMP/rounds"
    for j in 1 2; do
        m=$(measure "$BIN/ffbuild" --goal-sets "$TMP/sets" -j "$j" "$TMP/map.map") ||
            { echo "bench_batch: --goal-sets -j $j failed" >&2; exit 1; }
        echo "j$j $m" >>"$TMP/rounds"
    done
    r=$((r + 1))
done
best() { awk -v k="$1" '$1 == k && (b == "" || $2 < b) { b = $2; c = $3; m = $4 } END { print b, c, m }' "$TMP/rounds"; }
set -- $(best sep)
sep_wall=$1 sep_cpu=$2
set -- $(best j1)
j1_wall=$1 j1_cpu=$2 j1_mem=$3
set -- $(best j2)
j2_wall=$1 j2_cpu=$2 j2_mem=$3

echo "bench_batch: $SETS goal sets on a $what map; fields to /dev/null; best of $REPEAT"
printf '  %-26s %8s %8s %8s %6s\n' "" "wall s" "cpu s" "speed-up" "peak"
printf '  %-26s %8s %8s %8s %6s\n' "$SETS separate ffbuild runs" "$sep_wall" "$sep_cpu" "1.00x" ""
printf '  %-26s %8s %8s %7sx %3s MB\n' "--goal-sets -j 1" "$j1_wall" "$j1_cpu" \
    "$(ratio "$sep_wall" "$j1_wall")" "$j1_mem"
printf '  %-26s %8s %8s %7sx %3s MB\n' "--goal-sets -j 2" "$j2_wall" "$j2_cpu" \
    "$(ratio "$sep_wall" "$j2_wall")" "$j2_mem"
echo "  (speed-up: separate runs' wall time / this wall time; $(getconf _NPROCESSORS_ONLN) online processors, load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null))"
echo "  $same"

# Many small sets (issue 33, item 11): SMALL sets (default 100,000) on open
# maps of 8 x 8 cells (built on one thread whatever -j says) and 32 x 32
# (threads), -j 1 against -j 1024: the workers are woken one per freed
# slot, not all per finished set.
SMALL=${SMALL:-100000}
for w in 8 32; do
    awk -v w="$w" 'BEGIN { printf "type octile\nheight %d\nwidth %d\nmap\n", w, w
        row = sprintf("%" w "s", ""); gsub(/ /, ".", row); for (y = 0; y < w; y++) print row }' >"$TMP/small.map"
    awk -v w="$w" -v n="$SMALL" 'BEGIN { for (k = 0; k < n; k++) printf "s%d %d,%d\n", k, k % w, int(k / w) % w }' \
        >"$TMP/small.sets"
    for j in 1 1024; do
        m=$(measure "$BIN/ffbuild" --goal-sets "$TMP/small.sets" -j "$j" "$TMP/small.map") ||
            { echo "bench_batch: small sets -j $j failed" >&2; exit 1; }
        set -- $m
        printf '  %-26s %8s %8s\n' "$SMALL sets ${w}x$w -j $j" "$1" "$2"
    done
done
[ "$same" != "OUTPUTS DIFFER" ]
