#!/bin/sh
# bench_rebuild.sh - ffsim's map events, repaired against built whole, in
# one run: a 1024x1024 map (square obstacles, one goal) with rooms behind
# three-cell doors, two profiles (radius 0.3 and 0.8), 20 agents, and
# one door toggled 7 times (closed at tick 5, opened at 15, ...).  The
# figure is the summary's rebuild_seconds (the most field work one event
# caused, processor seconds) with 'rebuild repair' (the default) and
# 'rebuild full', side by side, the fastest of RUNS runs (default 3); the
# traces must be the same bytes.  The room's side is ROOM (default 128);
# ROOMS="32 128 512" reports how the work grows with the room.  With the
# cache, the first close is repaired and the later changes find the
# field of the state before: 'repair, first event' is that first repair
# alone (a run with one event).
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
RUNS=${RUNS:-3}
ROOMS=${ROOMS:-"32 128 512"}

best() {  # scenario -> the least rebuild_seconds of RUNS runs
    b=""
    for r in $(seq "$RUNS"); do
        "$BIN/ffsim" --every 1000000000 --summary "$TMP/sum" -o "$TMP/trace" "$TMP/open.ff" "$1" >/dev/null 2>&1 ||
            { echo "bench_rebuild: ffsim failed on $1" >&2; exit 1; }
        s=$(sed -n 's/^rebuild_seconds //p' "$TMP/sum")
        b=$(awk -v a="$b" -v s="$s" 'BEGIN { print (a == "" || s < a) ? s : a }')
    done
    echo "$b"
}

for room in $ROOMS; do
    awk -v room="$room" 'BEGIN {
        n = 1024; x0 = 600; y0 = 100
        print "ffmap 1\nlegend # wall\nlegend . 1\nlegend G goal 1\nmap"
        for (y = 0; y < n; y++) {
            row = ""
            for (x = 0; x < n; x++) {
                inroom = x >= x0 - 1 && x <= x0 + room && y >= y0 - 1 && y <= y0 + room
                wall = x == x0 - 1 || x == x0 + room || y == y0 - 1 || y == y0 + room
                door = x == x0 - 1 && y >= y0 + 10 && y <= y0 + 12
                if (x == 110 && y == 910)
                    c = "G"
                else if (x == 0 || y == 0 || x == n - 1 || y == n - 1 || (inroom && wall && !door) ||
                    (!inroom && x % 32 < 6 && y % 32 < 6 && (x < x0 - 40 || y > y0 + room + 40)))
                    c = "#"
                else
                    c = "."
                row = row c
            }
            print row
        }
    }' >"$TMP/open.ffmap"
    "$BIN/ffbuild" "$TMP/open.ffmap" | "$BIN/ffdir" >"$TMP/open.ff" || exit 1
    for how in repair full one; do
        {
            printf 'ffsim 1\ntick 0.1\nticks 75\nprofiles on\nrebuild-ticks 2\nfallback wait\n'
            [ "$how" = full ] && printf 'rebuild full\n'
            t=5
            for k in 1 2 3 4 5 6 7; do
                [ "$how" = one ] && [ "$k" -gt 1 ] && break
                [ $((k % 2)) = 1 ] && ev=close || ev=open
                printf 'at %d %s 599,110,599,112\n' "$t" "$ev"
                t=$((t + 10))
            done
            printf 'class small\n    radius 0.3\n    speed 1.4\n    follow\nend\n'
            printf 'class large\n    radius 0.8\n    speed 1.0\n    follow\nend\n'
            printf 'spawn 10 small rect 300,300,500,500 seed 1 first 0\n'
            printf 'spawn 10 large rect 300,300,500,500 seed 2 first 1000\n'
        } >"$TMP/$how.scenario"
    done
    r=$(best "$TMP/repair.scenario"); cp "$TMP/trace" "$TMP/repair.trace"
    hits=$(sed -n 's/^field_cache_hits //p' "$TMP/sum")
    f=$(best "$TMP/full.scenario"); cp "$TMP/trace" "$TMP/full.trace"
    o=$(best "$TMP/one.scenario")
    cmp -s "$TMP/repair.trace" "$TMP/full.trace" ||
        { echo "bench_rebuild: repair and full traces differ (room $room)" >&2; exit 1; }
    awk -v room="$room" -v r="$r" -v f="$f" -v o="$o" -v h="$hits" 'BEGIN {
        printf "ffsim: 1024x1024, room %dx%d behind a door toggled 7 times, 2 profiles:\n", room, room
        printf "  rebuild_seconds  repair %.4f s (%d fields from the cache)  full %.4f s  ratio %.0fx\n", r, h, f, f / r
        printf "  repair, first event (no cache yet) %.4f s  ratio %.0fx\n", o, f / o }'
done
