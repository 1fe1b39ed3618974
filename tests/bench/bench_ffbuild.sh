#!/bin/sh
# bench_ffbuild.sh - ffbuild's search against libtcod and scikit-image on a
# 4096x4096 map with about 25% clustered walls (issue 2, "Speed and
# memory"), all measured in this one run.
#
#   uniform:  8 moves, strict corners, one goal; ff_search() against
#             libtcod's TCOD_dijkstra_compute and scikit-image's
#             MCP_Geometric.find_costs, with a plain BFS as the floor
#   weighted: costs 1..9 in clustered patches; ff_search() against
#             MCP_Geometric.find_costs
#   memory:   ffbuild's peak resident set per cell (GNU time)
#
# ff_search() takes a second thread for its first pass on a large map; the
# rows "processor time" count both threads' time, the one-processor cost
# (noisier machines inflate wall time more than this).
#
# Each program runs BENCH_REPEAT times (default 3), interleaved, and its
# fastest run counts; each run is a fresh process, so every search pays
# for first touching its memory.  Only the search itself is timed in each
# (the map is read before the clock starts), except for ffbuild's whole run
# to /dev/null.  Targets: each reference at least 10 times slower than
# ff_search, and ffbuild at most 16 bytes a cell.  Missed targets are
# reported, not failed; a disagreement between the searches fails.
#
# BENCH_SIZE and BENCH_SEED change the map (default 4096 and 2024); maps are
# cached in tests/bench/out/.
set -u
cd "$(dirname "$0")/../.." || exit 2
OUT=tests/bench/out
SIZE=${BENCH_SIZE:-4096}
SEED=${BENCH_SEED:-2024}
REPEAT=${BENCH_REPEAT:-3}
CC=${CC:-cc}
PY=/usr/bin/python3   # Debian's python3-skimage lives there, whatever PATH says
CFLAGS_BENCH="-std=c11 -O2 -Wall -Wextra -Wpedantic $(MAKEFLAGS= make -s print-LIB_INC)"
PNG_LIBS=$(pkg-config --libs libpng 2>/dev/null || echo -lpng)
mkdir -p "$OUT" || exit 2

fail() { echo "bench_ffbuild: $*" >&2; exit 1; }

# ---- build the drivers ----
$CC $CFLAGS_BENCH tests/bench/genmap.c -o "$OUT/genmap" || fail "cannot build genmap"
$CC $CFLAGS_BENCH tests/bench/bfs.c -o "$OUT/bfs" || fail "cannot build bfs"
[ -f lib/libff.a ] && [ -x bin/ffbuild ] || fail "build first: make"
$CC $CFLAGS_BENCH tests/bench/ffsearch.c lib/libff.a $PNG_LIBS $(pkg-config --libs jansson expat zlib libzstd 2>/dev/null || echo -ljansson -lexpat -lz -lzstd) -lm -pthread -o "$OUT/ffsearch" ||
    fail "cannot link ffsearch with lib/libff.a (built with SAN=1? run make bench)"
have_tcod=0
if [ -e /usr/include/libtcod.h ]; then
    $CC $CFLAGS_BENCH tests/bench/tcod.c -ltcod -o "$OUT/tcod" && have_tcod=1
else
    echo "bench_ffbuild: libtcod skipped; install it with: sudo apt-get -y install libtcod-dev"
fi
have_mcp=0
if [ -x "$PY" ] && "$PY" -c 'import skimage.graph' 2>/dev/null; then
    have_mcp=1
else
    echo "bench_ffbuild: scikit-image skipped; install it with: sudo apt-get -y install python3-skimage"
fi
have_time=0
if /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then
    have_time=1
else
    echo "bench_ffbuild: peak memory skipped; install GNU time with: sudo apt-get -y install time"
fi

# ---- the maps (cached) ----
. tests/bench/benchmap.sh
bench_map "$SIZE"
WALLS=$(tail -n +5 "$MAP" | tr -cd '@' | wc -c)

# ---- running ----

. tests/bench/keep.sh

# mcp NAME MAP: run mcp.py, keep its find_costs time as NAME and its setup
# plus find_costs as NAME_all.
mcp() {
    line=$("$PY" tests/bench/mcp.py "$2" "$GX" "$GY") || fail "mcp.py failed on $2"
    keep "$1" "$line"
    keep "${1}_all" "seconds $(echo "$line" | awk '{ printf "%.6f", $2 + $4 }')"
}

# ffbuild's whole run to /dev/null: "seconds S rss KB" (rss 0 without GNU time).
ffbuild_run() {
    if [ $have_time = 1 ]; then
        /usr/bin/time -f '%e %M' -o "$OUT/time.txt" ./bin/ffbuild -g "$GX,$GY" "$1" > /dev/null ||
            return 1
        awk '{ printf "seconds %s rss %s\n", $1, $2 }' "$OUT/time.txt"
    else
        t0=$(date +%s.%N)
        ./bin/ffbuild -g "$GX,$GY" "$1" > /dev/null || return 1
        echo "seconds $(echo "$t0 $(date +%s.%N)" | awk '{ printf "%.3f", $2 - $1 }') rss 0"
    fi
}

echo "map: ${SIZE}x$SIZE, seed $SEED, $(awk -v w="$WALLS" -v n="$CELLS" 'BEGIN { printf "%.1f", 100 * w / n }')% walls, goal $GX,$GY; best of $REPEAT runs each"
[ -r /proc/loadavg ] && echo "machine: $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') processors, load $(cut -d' ' -f1-3 /proc/loadavg) before the runs"
rss_max=0
r=1
while [ $r -le "$REPEAT" ]; do
    line=$("$OUT/ffsearch" "$MAP" "$GX" "$GY") || fail "ffsearch failed"
    keep ff_u "$line"
    keep ff_u_cpu "seconds $(field "$line" cpu)"
    [ $have_tcod = 1 ] && { keep tcod "$("$OUT/tcod" "$MAP" "$GX" "$GY")" || fail "tcod failed"; }
    [ $have_mcp = 1 ] && mcp mcp_u "$MAP"
    keep bfs "$("$OUT/bfs" "$MAP" "$GX" "$GY")" || fail "bfs failed"
    line=$("$OUT/ffsearch" "$WMAP" "$GX" "$GY") || fail "ffsearch failed"
    keep ff_w "$line"
    keep ff_w_cpu "seconds $(field "$line" cpu)"
    [ $have_mcp = 1 ] && mcp mcp_w "$WMAP"
    for v in u w; do
        [ $v = u ] && m=$MAP || m=$WMAP
        line=$(ffbuild_run "$m") || fail "ffbuild failed on $m"
        keep build_$v "$line"
        rss=$(field "$line" rss)
        [ "$rss" -gt $rss_max ] && rss_max=$rss
    done
    r=$((r + 1))
done

# ---- agreement: the same reachable cells everywhere, and the same
# distances as scikit-image where the rules are the same (corners free) ----
status=0
reach=$(field "$line_ff_u" reached)
for name in bfs tcod mcp_u ff_w mcp_w; do
    eval "l=\${line_$name:-}"
    [ -n "$l" ] || continue
    if [ "$(field "$l" reached)" != "$reach" ]; then
        echo "MISMATCH: $name reaches $(field "$l" reached) cells, ff_search $reach"
        status=1
    fi
done
if [ $have_mcp = 1 ]; then
    for v in u w; do
        [ $v = u ] && m=$MAP || m=$WMAP
        "$OUT/ffsearch" "$m" "$GX" "$GY" free "$OUT/ff-free.f64" > /dev/null &&
            "$PY" tests/bench/mcp.py "$m" "$GX" "$GY" "$OUT/mcp.f64" > /dev/null || fail "free-corner runs failed"
        cmp_line=$("$PY" tests/bench/mcp.py --compare "$OUT/ff-free.f64" "$OUT/mcp.f64")
        [ $v = u ] && label=uniform || label=weighted
        echo "check: $label, corners free, ff_search vs MCP_Geometric per cell: $cmp_line"
        [ "$(field "$cmp_line" differ)" = 0 ] || status=1
    done
    rm -f "$OUT/ff-free.f64" "$OUT/mcp.f64"
fi

# ---- the table ----
# row LABEL NAME [OURS]: seconds, ns per map cell, and NAME / OURS.
row() {
    eval "s=\${best_$2:-}"
    [ -n "$s" ] || { printf '  %-44s %9s\n' "$1" "skipped"; return; }
    if [ $# -ge 3 ]; then
        eval "o=\$best_$3"
        ratio=$(awk -v a="$s" -v b="$o" 'BEGIN { printf "%.1fx", a / b }')
    else
        ratio=""
    fi
    awk -v l="$1" -v s="$s" -v n="$CELLS" -v r="$ratio" \
        'BEGIN { printf "  %-44s %9.3f %9.1f %9s\n", l, s, s * 1e9 / n, r }'
}
echo
printf '  %-44s %9s %9s %9s\n' "" seconds ns/cell "ref/ours"
echo "uniform (8 moves, strict corners, one goal)"
row "ff_search (ours)" ff_u
row "ff_search processor time, both threads" ff_u_cpu
row "ffbuild, whole run to /dev/null" build_u
row "libtcod TCOD_dijkstra_compute (corners free)" tcod ff_u
row "scikit-image MCP_Geometric.find_costs" mcp_u ff_u
row "  the same with its MCP_Geometric() setup" mcp_u_all ff_u
row "plain BFS, 4 moves (floor)" bfs ff_u
echo "weighted (costs 1..9 in patches, 8 moves, strict corners)"
row "ff_search (ours)" ff_w
row "ff_search processor time, both threads" ff_w_cpu
row "ffbuild, whole run to /dev/null" build_w
row "scikit-image MCP_Geometric.find_costs" mcp_w ff_w
row "  the same with its MCP_Geometric() setup" mcp_w_all ff_w
if [ $have_time = 1 ]; then
    echo "memory"
    awk -v k="$rss_max" -v n="$CELLS" \
        'BEGIN { printf "  %-44s %9.1f MB %6.2f bytes/cell\n", "ffbuild peak resident set (larger run)", k / 1024, k * 1024 / n }'
fi

# ---- targets ----
echo
target() {  # LABEL REF OURS
    eval "a=\${best_$2:-}; b=\${best_$3:-}"
    [ -n "$a" ] && [ -n "$b" ] || { echo "target: $1: skipped"; return; }
    awk -v l="$1" -v a="$a" -v b="$b" \
        'BEGIN { r = a / b; printf "target: %s at least 10x: %s (%.1fx)\n", l, (r >= 10 ? "met" : "MISSED"), r }'
}
target "uniform, libtcod / ff_search" tcod ff_u
target "uniform, find_costs / ff_search" mcp_u ff_u
target "weighted, find_costs / ff_search" mcp_w ff_w
target "uniform, libtcod / ff_search processor time" tcod ff_u_cpu
target "weighted, find_costs / ff_search processor time" mcp_w ff_w_cpu
target "uniform, MCP setup + find_costs / ff_search" mcp_u_all ff_u
target "weighted, MCP setup + find_costs / ff_search" mcp_w_all ff_w
if [ $have_time = 1 ]; then
    awk -v k="$rss_max" -v n="$CELLS" 'BEGIN { b = k * 1024 / n;
        printf "target: ffbuild peak memory at most 16 bytes/cell: %s (%.2f)\n", (b <= 16 ? "met" : "MISSED"), b }'
fi
exit $status
