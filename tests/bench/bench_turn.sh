#!/bin/sh
# bench_turn.sh - the state search of a turn-cost field (ffbuild
# --turn-cost) against the cell search, side by side in one run (issue
# 16, "Speed and memory"), on 1024x1024 and 4096x4096 maps with about 25%
# clustered walls (genmap.c), 8 moves, strict corners, one goal:
#
#   uniform:  every open cell cost 1; C = 1 against the cell search (C = 0
#             is the cell search itself, copied to the 8 headings)
#   weighted: costs 1..9 in clustered patches; the same
#   memory:   ffbuild's peak resident set per cell with and without
#             --turn-cost 1 (GNU time), the whole run to /dev/null
#
# ns per state: the search's processor time over the states it has (the
# open cells' count, times 8 for the state search).  The target: the state
# search at most about 8 times the cell search (8 times the states), in
# processor time, which a loaded machine inflates less than wall time (both
# are printed; the searches' first passes take a second thread on a large
# map).  Each search
# runs BENCH_REPEAT times (default 3), interleaved, and its run of least
# processor time counts; each run is a fresh process (tests/bench/ffsearch.c,
# -t for the state search).  Missed targets are reported, not
# failed.  BENCH_TURN_SIZES (default "1024 4096") and BENCH_SEED change the
# maps, cached in tests/bench/out/.
set -u
cd "$(dirname "$0")/../.." || exit 2
SIZES=${BENCH_TURN_SIZES:-1024 4096}
SEED=${BENCH_SEED:-2024}
REPEAT=${BENCH_REPEAT:-3}

fail() { echo "bench_turn: $*" >&2; exit 1; }

. tests/bench/mapbench.sh
for SIZE in $SIZES; do
    bench_map "$SIZE"
    unset best_uc best_ut best_wc best_wt
    r=1
    while [ $r -le "$REPEAT" ]; do
        keep uc "$("$OUT/ffsearch" "$MAP" "$GX" "$GY")" cpu || fail "cell search failed"
        keep ut "$("$OUT/ffsearch" -t 1 "$MAP" "$GX" "$GY")" cpu || fail "state search failed"
        keep wc "$("$OUT/ffsearch" "$WMAP" "$GX" "$GY")" cpu || fail "cell search failed"
        keep wt "$("$OUT/ffsearch" -t 1 "$WMAP" "$GX" "$GY")" cpu || fail "state search failed"
        r=$((r + 1))
    done
    echo "map: ${SIZE}x$SIZE, seed $SEED, $OPEN open cells, goal $GX,$GY; best of $REPEAT runs each"
    for kind in u w; do
        eval "lc=\$line_${kind}c lt=\$line_${kind}t"
        sc=$(field "$lc" seconds)
        st=$(field "$lt" seconds)
        label=$([ $kind = u ] && echo uniform || echo weighted)
        awk -v k="$label" -v sc="$sc" -v st="$st" -v open="$OPEN" \
            -v cc="$(field "$lc" cpu)" -v ct="$(field "$lt" cpu)" 'BEGIN {
            printf "  %-8s cell search (C = 0)  %7.3f s, cpu %7.3f s  %6.1f ns a cell (cpu)\n", k, sc, cc, 1e9 * cc / open
            printf "  %-8s state search (C = 1) %7.3f s, cpu %7.3f s  %6.1f ns a state (cpu)  %.2fx the cell search (cpu; %.2fx wall)%s\n",
                   k, st, ct, 1e9 * ct / (8 * open), ct / cc, st / sc, ct / cc <= 8.5 ? "" : "  (target: about 8x, MISSED)"
        }'
    done
    if [ $have_time = 1 ]; then
        kc=$(rss "$MAP")
        kt=$(rss "$MAP" --turn-cost 1)
        awk -v kc="$kc" -v kt="$kt" -v n="$CELLS" 'BEGIN {
            printf "  memory   ffbuild %.1f bytes a cell, ffbuild --turn-cost 1 %.1f bytes a cell (peak RSS)\n",
                   1024 * kc / n, 1024 * kt / n
        }'
    else
        echo "  memory   skipped: install GNU time (apt-get install time)"
    fi
done
