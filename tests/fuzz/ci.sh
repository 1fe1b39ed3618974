#!/bin/sh
# CI's share of the fuzzing: make sure clang and libFuzzer are here
# (Debian: clang, libclang-rt-14-dev) and the libraries the targets link,
# replay every seed of every corpus
# (the regression cases of fixed crashes) and fuzz each target for
# FUZZ_CI_SECONDS (default 20) from it.  FUZZ_TARGETS (names like
# fuzz_stream) limits the targets; default all.  Any crash, sanitizer
# report, timeout or round-trip difference fails.
set -u
cd "$(dirname "$0")/../.." || exit 2

has_libfuzzer() {
    command -v clang >/dev/null 2>&1 || return 1
    printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
        >"${TMPDIR:-/tmp}/ff-fuzz-probe.c"
    clang -fsanitize=fuzzer "${TMPDIR:-/tmp}/ff-fuzz-probe.c" -o "${TMPDIR:-/tmp}/ff-fuzz-probe" 2>/dev/null
    ok=$?
    rm -f "${TMPDIR:-/tmp}/ff-fuzz-probe.c" "${TMPDIR:-/tmp}/ff-fuzz-probe"
    return $ok
}

if ! has_libfuzzer; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "fuzz: installing clang and libFuzzer" >&2
        export DEBIAN_FRONTEND=noninteractive
        { apt-get update -qq && apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev; } >&2 || {
            echo "fuzz: apt-get failed" >&2
            exit 2
        }
    fi
    has_libfuzzer || { echo "fuzz: clang with libFuzzer is not available" >&2; exit 2; }
fi

# The libraries the targets link, as the build's tools/deps.sh wants them
# (libpng, and for the Tiled readers libjansson, expat, zlib, libzstd).
libs=""
for pair in libpng:libpng-dev jansson:libjansson-dev expat:libexpat1-dev zlib:zlib1g-dev \
            libzstd:libzstd-dev; do
    pkg-config --exists "${pair%%:*}" 2>/dev/null || libs="$libs ${pair#*:}"
done
if [ -n "$libs" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "fuzz: installing$libs" >&2
        export DEBIAN_FRONTEND=noninteractive
        { apt-get update -qq && apt-get install -y -qq --no-install-recommends pkg-config $libs; } >&2 || {
            echo "fuzz: apt-get failed" >&2
            exit 2
        }
    else
        echo "fuzz: missing libraries; run: sudo apt-get install -y$libs" >&2
        exit 2
    fi
fi

# A fresh build folder: CI fuzzes from the committed seeds only.
export FUZZ_BUILD=tests/fuzz/build-ci
rm -rf "$FUZZ_BUILD"
sh tests/fuzz/run.sh 0 ${FUZZ_TARGETS:-} || exit 1
sh tests/fuzz/run.sh "${FUZZ_CI_SECONDS:-20}" ${FUZZ_TARGETS:-} || exit 1
rm -rf "$FUZZ_BUILD"
