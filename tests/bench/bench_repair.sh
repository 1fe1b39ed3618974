#!/bin/sh
# bench_repair.sh - ffbuild --update's repair against a full search of the
# changed map, in one process (tests/bench/repair.c): a 4096 x 4096 map of
# cost 1 with one goal, and rooms of side 16, 64, 256 and 1024 behind
# one-cell doors, each door closed and opened again.  Both times exclude
# reading and writing the stream; the repair is checked bit for bit
# against the search.  BENCH_SIZE (default 4096), BENCH_REPEAT (default 3,
# the fastest counts).
set -u
cd "$(dirname "$0")/../.." || exit 2
OUT=tests/bench/out
SIZE=${BENCH_SIZE:-4096}
REPEAT=${BENCH_REPEAT:-3}
CC=${CC:-cc}
CFLAGS_BENCH="-std=c11 -O2 -Wall -Wextra -Wpedantic $(MAKEFLAGS= make -s print-LIB_INC)"
PNG_LIBS=$(pkg-config --libs libpng 2>/dev/null || echo -lpng)
mkdir -p "$OUT" || exit 2
[ -f lib/libff.a ] || { echo "bench_repair: build first: make" >&2; exit 1; }
$CC $CFLAGS_BENCH tests/bench/repair.c lib/libff.a $PNG_LIBS -lm -pthread -o "$OUT/repair" ||
    { echo "bench_repair: cannot link with lib/libff.a (built with SAN=1? run make bench)" >&2; exit 1; }
echo "repair of a ${SIZE}x${SIZE} field, one door closed then opened (seconds, fastest of $REPEAT):"
"$OUT/repair" "$SIZE" "$REPEAT"
