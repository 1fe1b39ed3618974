#!/bin/sh
# Build the libFuzzer targets and run each from its seed corpus.
#
#   tests/fuzz/run.sh [SECONDS] [TARGET...]
#
# SECONDS (default $FUZZ_SECONDS, else 60) is the time per target; 0 only
# replays the seed corpus (every regression case) without fuzzing.
# TARGET is a name like fuzz_stream; default all tests/fuzz/fuzz_*.c.
# The library sources are compiled into each target with the same flags
# (clang, -fsanitize=fuzzer,address,undefined), not taken from lib/libff.a.
# New inputs go to tests/fuzz/build/corpus/TARGET (not committed), crashes
# to tests/fuzz/build/crash-TARGET-*.  Ends with "fuzz: N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
SECONDS_EACH=${1:-${FUZZ_SECONDS:-60}}
[ $# -gt 0 ] && shift
FUZZ_CC=${FUZZ_CC:-clang}
B=${FUZZ_BUILD:-tests/fuzz/build}
PNG_CFLAGS=$(pkg-config --cflags libpng 2>/dev/null)
PNG_LIBS=$(pkg-config --libs libpng 2>/dev/null || echo -lpng)
TILED_CFLAGS=$(pkg-config --cflags jansson expat zlib libzstd 2>/dev/null)
TILED_LIBS=$(pkg-config --libs jansson expat zlib libzstd 2>/dev/null || echo -ljansson -lexpat -lz -lzstd)
LIB_INC=" $(MAKEFLAGS= make -s print-LIB_INC)"
FLAGS="-std=c11 -Wall -Wextra -Wpedantic -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -pthread $PNG_CFLAGS $TILED_CFLAGS$LIB_INC"

if ! command -v "$FUZZ_CC" >/dev/null 2>&1; then
    echo "fuzz: $FUZZ_CC not found (Debian: apt-get install clang libclang-rt-14-dev)" >&2
    exit 2
fi
mkdir -p "$B/lib" || exit 3

# The library, rebuilt when a source or any header is newer than its object.
newest_hdr=$(ls -t lib/*/*.h lib/*/*/*.h | head -n 1)
for src in lib/*/*.c lib/*/*/*.c; do
    obj=$B/lib/$(basename "$src" .c).o
    if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$newest_hdr" -nt "$obj" ] ||
       [ tests/fuzz/run.sh -nt "$obj" ]; then
        echo "fuzz: cc $src"
        $FUZZ_CC $FLAGS -c "$src" -o "$obj" || exit 2
    fi
done
# Objects of sources that are gone must not be linked.
for obj in "$B"/lib/*.o; do
    [ -n "$(find lib -name "$(basename "$obj" .o).c")" ] || rm -f "$obj"
done

if [ $# -eq 0 ]; then
    set -- $(for t in tests/fuzz/fuzz_*.c; do basename "$t" .c; done)
fi

passed=0
failed=0
for t in "$@"; do
    name=${t#fuzz_}
    bin=$B/$t
    # A target for a reader not written yet says so: " * needs: lib/X.c".
    need=$(sed -n 's/^ \* needs: //p' "tests/fuzz/$t.c")
    if [ -n "$need" ] && [ ! -f "$need" ]; then
        echo "skip $t: $need does not exist yet"
        continue
    fi
    echo "fuzz: build $t"
    $FUZZ_CC $FLAGS "tests/fuzz/$t.c" "$B"/lib/*.o $PNG_LIBS $TILED_LIBS -lz -lm -o "$bin" || exit 2
    mkdir -p "$B/corpus/$name"
    dict=""
    [ -f "tests/fuzz/$name.dict" ] && dict="-dict=tests/fuzz/$name.dict"
    if [ "$SECONDS_EACH" -eq 0 ]; then
        limit="-runs=0"
    else
        limit="-max_total_time=$SECONDS_EACH"
    fi
    log=$B/$t.log
    # -timeout: an input that takes 10 s is a hang; -rss_limit_mb and the
    # malloc limit it implies: an input that makes the reader ask for 2 GB
    # is a bug (no seed is larger than a few kB).
    "./$bin" $limit -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$B/crash-$t-" $dict \
        "$B/corpus/$name" "tests/fuzz/corpus/$name" >"$log" 2>&1
    code=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    if [ $code -eq 0 ]; then
        passed=$((passed + 1))
        echo "ok $t: ${runs:-?} runs, ${rate:-?} exec/s in ${SECONDS_EACH} s"
    else
        failed=$((failed + 1))
        echo "FAIL $t: exit $code after ${runs:-?} runs; log $log"
        grep -E '^==[0-9]+==ERROR|SUMMARY|runtime error|round trip differs|Test unit written' "$log" | head -n 8
    fi
done
echo "fuzz: $passed passed, $failed failed"
[ $failed -eq 0 ]
