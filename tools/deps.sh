#!/bin/sh
# Make sure the build's Debian packages are here: install them with apt-get
# when running as root, otherwise print the exact command and stop.
# `deps.sh` checks what the build needs (make, make install);
# `deps.sh check` also what the tests need (make check), `deps.sh
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
