#!/bin/sh
# make bench: run every tests/bench/bench_*.sh in name order; each prints
# its own figures.  Benchmarks are never timed tests: they report, and fail
# only when something could not be run at all.
#
# The bench-only Debian packages (the reference implementations and GNU
# time) are installed here when missing and running as root; otherwise the
# exact apt-get line is printed and the benchmarks skip what needs them.
cd "$(dirname "$0")/../.." || exit 2

# Bench-only packages: name and the file that shows it is installed.
bench_packages="libtcod-dev:/usr/include/libtcod.h
python3-skimage:/usr/lib/python3/dist-packages/skimage/graph/__init__.py
time:/usr/bin/time"

missing=""
for p in $bench_packages; do
    [ -e "${p#*:}" ] || missing="$missing ${p%%:*}"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "bench: installing$missing" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get -y -qq install $missing >/dev/null 2>&1 ||
            { apt-get -qq update >/dev/null 2>&1 && apt-get -y -qq install $missing >/dev/null 2>&1; } ||
            echo "bench: apt-get could not install$missing; those references are skipped" >&2
    else
        echo "bench: missing bench-only packages; to install them run:" >&2
        echo "  sudo apt-get -y install$missing" >&2
        echo "bench: the references that need them are skipped" >&2
    fi
fi

status=0
for b in tests/bench/bench_*.sh; do
    [ -e "$b" ] || continue
    echo "== $b"
    sh "$b" || status=1
done
exit $status
