# benchmap.sh - sourced by the benchmarks on genmap.c's maps: bench_map.
# The caller has built $OUT/genmap, defines fail and sets OUT and SEED.

# bench_map SIZE: the SIZE x SIZE maps of seed SEED, generated unless
# cached: MAP (uniform) and WMAP (weighted), the goal GX GY, the count of
# OPEN cells and of CELLS.
bench_map() {
    MAP=$OUT/map-$1-$SEED.map
    WMAP=$OUT/map-$1-$SEED.ffmap
    GOAL=$OUT/map-$1-$SEED.goal
    if [ ! -s "$GOAL" ] || [ ! -s "$MAP" ] || [ ! -s "$WMAP" ] ||
       [ -n "$(find tests/bench/genmap.c -newer "$GOAL")" ]; then
        echo "generating the ${1}x$1 maps (cached in $OUT/)"
        { "$OUT/genmap" "$1" "$SEED" "$MAP" "$WMAP" > "$GOAL.tmp"; } 2>&1 || fail "cannot generate the maps"
        mv "$GOAL.tmp" "$GOAL" || fail "cannot write $GOAL"
    fi
    read -r GX GY < "$GOAL"
    OPEN=$(tail -n +5 "$MAP" | tr -cd '.' | wc -c)
    CELLS=$(($1 * $1))
}
