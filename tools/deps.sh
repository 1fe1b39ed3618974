#!/bin/sh
# Make sure the build's Debian packages are here: install them with apt-get
# when running as root, otherwise print the exact command and stop.
# `deps.sh` checks what the build needs (make, make install);
# `deps.sh check` also what the tests need (make check, python3-numpy
# optional), `deps.sh
# valgrind` what make check-valgrind needs.
missing=""
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
pkg-config --exists libpng 2>/dev/null || missing="$missing libpng-dev"
# Tiled maps: JSON, XML, and the zlib, gzip and zstd layer data.
pkg-config --exists jansson 2>/dev/null || missing="$missing libjansson-dev"
pkg-config --exists expat 2>/dev/null || missing="$missing libexpat1-dev"
pkg-config --exists zlib 2>/dev/null || missing="$missing zlib1g-dev"
pkg-config --exists libzstd 2>/dev/null || missing="$missing libzstd-dev"
if [ "${1:-}" = check ]; then
    [ -f "${CRITERION_H:-/usr/include/criterion/criterion.h}" ] || missing="$missing libcriterion-dev"
fi
# Optional for the tests: python3-numpy, for ffexport's numpy.load check
# (tests/cli/test_ffexport.sh skips it, saying so, without numpy).  Installed
# with the rest when running as root; never a reason to stop.
optional=""
if [ "${1:-}" = check ] && ! { python3 -c 'import numpy' || /usr/bin/python3 -c 'import numpy'; } \
    >/dev/null 2>&1; then
    optional="python3-numpy"
fi
if [ -n "$optional" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing $optional (optional, for the tests)" >&2
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq $optional; } >&2 ||
        echo "deps: apt-get failed for $optional: its checks will be skipped" >&2
elif [ -n "$optional" ]; then
    echo "deps: optional $optional missing (sudo apt-get install -y $optional): its checks will be skipped" >&2
fi
if [ "${1:-}" = valgrind ]; then
    command -v valgrind >/dev/null 2>&1 || missing="$missing valgrind"
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 && apt-get install -y -qq $missing >&2 && exit 0
    echo "deps: apt-get failed" >&2
    exit 1
fi
echo "deps: missing packages; run:" >&2
echo "  sudo apt-get install -y$missing" >&2
exit 1
