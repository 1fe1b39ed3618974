# mapbench.sh - sourced by the benchmarks that time ffsearch on genmap.c's
# maps (bench_turn.sh, bench_anyangle.sh), from the top of the tree: builds
# genmap and ffsearch in tests/bench/out/, sources keep.sh, prints the
# machine's load, and defines rss and (benchmap.sh) bench_map.  The caller defines
# fail (its message and exit) and sets SEED.
OUT=tests/bench/out
CC=${CC:-cc}
CFLAGS_BENCH="-std=c11 -O2 -Wall -Wextra -Wpedantic $(MAKEFLAGS= make -s print-LIB_INC)"
PNG_LIBS=$(pkg-config --libs libpng 2>/dev/null || echo -lpng)
# and what the Makefile's TILED_LIBS adds for the tiled-map reader
LIBS_EXPANDED="$PNG_LIBS $(pkg-config --libs jansson expat zlib libzstd 2>/dev/null || echo -ljansson -lexpat -lz -lzstd) -lm -pthread"
mkdir -p "$OUT" || exit 2

$CC $CFLAGS_BENCH tests/bench/genmap.c -o "$OUT/genmap" || fail "cannot build genmap"
[ -f lib/libff.a ] && [ -x bin/ffbuild ] || fail "build first: make"
$CC $CFLAGS_BENCH tests/bench/ffsearch.c lib/libff.a $LIBS_EXPANDED -o "$OUT/ffsearch" ||
    fail "cannot link ffsearch with lib/libff.a (built with SAN=1? run make bench)"
have_time=0
/usr/bin/time -f %M -o /dev/null true 2>/dev/null && have_time=1

. tests/bench/keep.sh

# rss MAP [OPTIONS]: ffbuild's peak resident set in kB, goal GX,GY.
rss() {
    m=$1
    shift
    /usr/bin/time -f '%M' -o "$OUT/time.txt" ./bin/ffbuild -g "$GX,$GY" "$@" "$m" > /dev/null ||
        fail "ffbuild failed on $m"
    cat "$OUT/time.txt"
}

. tests/bench/benchmap.sh

[ -r /proc/loadavg ] && echo "machine: $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') processors, load $(cut -d' ' -f1-3 /proc/loadavg) before the runs"
