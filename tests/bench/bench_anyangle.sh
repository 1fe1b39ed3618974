#!/bin/sh
# bench_anyangle.sh - the any-angle field (ffbuild --any-angle, issue 36)
# against the 8-move field, side by side in one run, on genmap.c's maps
# (about 25% clustered walls), strict corners, one goal, every open cell
# cost 1:
#
#   time:     ff_anyangle_search() against ff_search() (tests/bench/
#             ffsearch.c, -a), processor time and wall time; the target
#             of issue 36 is at most 3 times the 8-move field's time
#   memory:   ffbuild's peak resident set per cell with and without
#             --any-angle (GNU time), the whole run to /dev/null; the
#             target is at most 2 times
#   check:    the same cells reached, and the any-angle distances summed
#             no more than the 8-move ones (a disagreement fails)
#
# Each search runs BENCH_REPEAT times (default 1: the any-angle search of
# the 4096 x 4096 map takes about 1 s of processor), interleaved,
# and its run of least processor time counts.  Missed targets are
# reported, not failed.  BENCH_ANYANGLE_SIZES (default "1024 4096") and
# BENCH_SEED change the maps, cached in tests/bench/out/.
#
# A crowd following an any-angle field (ffsim's path length and heading
# jitter) is measured by bench_anyangle_crowd.sh.
set -u
cd "$(dirname "$0")/../.." || exit 2
SIZES=${BENCH_ANYANGLE_SIZES:-1024 4096}
SEED=${BENCH_SEED:-2024}
REPEAT=${BENCH_REPEAT:-1}

fail() { echo "bench_anyangle: $*" >&2; exit 1; }

. tests/bench/mapbench.sh
for SIZE in $SIZES; do
    bench_map "$SIZE"
    unset best_o best_a
    r=1
    while [ $r -le "$REPEAT" ]; do
        keep o "$("$OUT/ffsearch" "$MAP" "$GX" "$GY")" cpu || fail "8-move search failed"
        keep a "$("$OUT/ffsearch" -a "$MAP" "$GX" "$GY")" cpu || fail "any-angle search failed"
        r=$((r + 1))
    done
    echo "map: ${SIZE}x$SIZE, seed $SEED, $OPEN open cells, goal $GX,$GY; best of $REPEAT runs each"
    [ "$(field "$line_o" reached)" = "$(field "$line_a" reached)" ] ||
        fail "the searches reach different cells: $line_o / $line_a"
    awk -v so="$(field "$line_o" sum)" -v sa="$(field "$line_a" sum)" 'BEGIN { exit !(sa <= so) }' ||
        fail "any-angle distances sum more than the 8-move ones: $line_a / $line_o"
    awk -v so="$(field "$line_o" seconds)" -v sa="$(field "$line_a" seconds)" -v open="$OPEN" \
        -v co="$(field "$line_o" cpu)" -v ca="$(field "$line_a" cpu)" \
        -v mo="$(field "$line_o" sum)" -v ma="$(field "$line_a" sum)" 'BEGIN {
        printf "  8-move field      %8.3f s, cpu %8.3f s  %7.1f ns a cell (cpu)\n", so, co, 1e9 * co / open
        printf "  any-angle field   %8.3f s, cpu %8.3f s  %7.1f ns a cell (cpu)  %.1fx the 8-move field (cpu; %.1fx wall)%s\n",
               sa, ca, 1e9 * ca / open, ca / co, sa / so, ca / co <= 3 ? "" : "  (target: at most 3x, MISSED)"
        printf "  distances         any-angle %.2f%% shorter than 8-move, on average over the reached cells\n",
               100 * (1 - ma / mo)
    }'
    if [ $have_time = 1 ]; then
        ko=$(rss "$MAP")
        ka=$(rss "$MAP" --any-angle)
        awk -v ko="$ko" -v ka="$ka" -v n="$CELLS" 'BEGIN {
            printf "  memory            ffbuild %.1f bytes a cell, ffbuild --any-angle %.1f bytes a cell (peak RSS), %.2fx%s\n",
                   1024 * ko / n, 1024 * ka / n, ka / ko, ka / ko <= 2 ? "" : "  (target: at most 2x, MISSED)"
        }'
    else
        echo "  memory            skipped: install GNU time (apt-get install time)"
    fi
done
