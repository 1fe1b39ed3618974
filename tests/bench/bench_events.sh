#!/bin/sh
# bench_events.sh - what one ffsim map event costs against the size of
# what it changes, and against the size of the map (issue 32).  The map:
# N x N cells of cost 1, walled round, one goal at 100,900 (or the
# middle, on smaller maps), and a walled R x R room at 200,200 whose
# one-cell door (199,210) closes and opens 7 times (ticks 5, 15, ...,
# 65), two profiles (radius 0.3 and 0.8), steering agents outside the
# room.  The figure is the summary's rebuild_seconds: the costliest
# event's work, fields and the crowd's wall map (processor seconds; the
# first close, repaired: the later changes take the fields of the state
# before back from the cache), with 'rebuild repair' (the default) and
# 'rebuild full' side by side; their traces must be the same bytes.
#
#   1. the changed region: N 1024, rooms of side ROOMS ("16 64 256");
#   2. the map: room 64, maps of side SIZES ("256 1024 2048 4096");
#   3. the issue's headline: room 64, 2,000 agents, N 1024 and 4096
#      (HEADLINE, "1024 4096"), with each run's peak memory (GNU time).
#
# Tables 1 and 2 run 20 agents (they measure the event, not the crowd).
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ROOMS=${ROOMS:-"16 64 256"}
SIZES=${SIZES:-"256 1024 2048 4096"}
HEADLINE=${HEADLINE:-"1024 4096"}

# map N R: $TMP/mN_R.ff, N x N with the room of side R behind its door.
map() {
    [ -s "$TMP/m$1_$2.ff" ] && return 0
    awk -v n="$1" -v room="$2" 'BEGIN {
        x0 = 200; y0 = 200
        gx = n > 1000 ? 100 : int(n / 2) + 40; gy = n > 1000 ? 900 : int(n / 2) + 40
        print "ffmap 1\nlegend # wall\nlegend . 1\nlegend G goal 1\nmap"
        for (y = 0; y < n; y++) {
            row = ""
            if (y == 0 || y == n - 1) {
                for (x = 0; x < n; x++) row = row "#"
            } else if (y < y0 - 1 || y > y0 + room) {
                row = "#"
                for (x = 1; x < n - 1; x++) row = row (x == gx && y == gy ? "G" : ".")
                row = row "#"
            } else {
                for (x = 0; x < n; x++) {
                    wall = (x == x0 - 1 || x == x0 + room) && y >= y0 - 1 && y <= y0 + room ||
                           (y == y0 - 1 || y == y0 + room) && x >= x0 - 1 && x <= x0 + room
                    door = x == x0 - 1 && y == y0 + 10
                    row = row ((x == 0 || x == n - 1 || (wall && !door)) ? "#" : (x == gx && y == gy ? "G" : "."))
                }
            }
            print row
        }
    }' >"$TMP/m.ffmap" || exit 1
    "$BIN/ffbuild" "$TMP/m.ffmap" | "$BIN/ffdir" >"$TMP/m$1_$2.ff" ||
        { echo "bench_events: cannot build the ${1}x$1 map" >&2; exit 1; }
}

# scenario HOW AGENTS N: $TMP/HOW.scenario (HOW repair or full), the
# agents spawned in a square outside the room (300..500 on a big map).
scenario() {
    lo=300 hi=500
    [ "$3" -lt 1024 ] && lo=$(( $3 / 2 - 40 )) hi=$(( $3 / 2 + 20 ))
    {
        printf 'ffsim 1\ntick 0.1\nticks 75\nprofiles on\nrebuild-ticks 2\nfallback wait\n'
        [ "$1" = full ] && printf 'rebuild full\n'
        t=5
        for k in 1 2 3 4 5 6 7; do
            [ $((k % 2)) = 1 ] && ev=close || ev=open
            printf 'at %d %s 199,210,199,210\n' "$t" "$ev"
            t=$((t + 10))
        done
        printf 'class small\n    radius 0.3\n    speed 1.4\n    follow\nend\n'
        printf 'class large\n    radius 0.8\n    speed 1.0\n    follow\nend\n'
        printf 'spawn %d small rect %d,%d,%d,%d seed 1 first 0\n' $(( $2 / 2 )) $lo $lo $hi $hi
        printf 'spawn %d large rect %d,%d,%d,%d seed 2 first %d\n' $(( $2 / 2 )) $lo $lo $hi $hi $(( $2 / 2 ))
    } >"$TMP/$1.scenario"
}

# run N R AGENTS: "repair full ratio repair_MiB full_MiB" for the map
# and scenario; the two traces compared.
run() {
    map "$1" "$2"
    for how in repair full; do
        scenario "$how" "$3" "$1"
        if [ -x /usr/bin/time ]; then
            /usr/bin/time -f '%M' -o "$TMP/$how.mem" "$BIN/ffsim" --every 1000000000 \
                --summary "$TMP/$how.sum" -o "$TMP/$how.trace" "$TMP/m$1_$2.ff" "$TMP/$how.scenario" \
                >/dev/null 2>&1 || { echo "bench_events: ffsim failed ($1, room $2)" >&2; exit 1; }
        else
            echo '?' >"$TMP/$how.mem"
            "$BIN/ffsim" --every 1000000000 --summary "$TMP/$how.sum" -o "$TMP/$how.trace" \
                "$TMP/m$1_$2.ff" "$TMP/$how.scenario" >/dev/null 2>&1 ||
                { echo "bench_events: ffsim failed ($1, room $2)" >&2; exit 1; }
        fi
    done
    cmp -s "$TMP/repair.trace" "$TMP/full.trace" ||
        { echo "bench_events: repair and full traces differ ($1, room $2)" >&2; exit 1; }
    r=$(sed -n 's/^rebuild_seconds //p' "$TMP/repair.sum")
    f=$(sed -n 's/^rebuild_seconds //p' "$TMP/full.sum")
    awk -v r="$r" -v f="$f" -v rm="$(cat "$TMP/repair.mem")" -v fm="$(cat "$TMP/full.mem")" 'BEGIN {
        printf "%9.4f s %9.4f s %7.0fx", r, f, f / r
        if (rm ~ /^[0-9]+$/) printf "  %6d MiB %6d MiB", rm / 1024, fm / 1024
        printf "\n" }'
}

echo "ffsim map events: rebuild_seconds (the costliest event, walls included), repair and full"
echo "1. against the changed region: 1024x1024, a room of side R behind the door, 20 agents"
echo "      R    repair      full    ratio  peak repair   full"
for room in $ROOMS; do
    printf '%7d ' "$room"
    run 1024 "$room" 20
done
echo "2. against the map: N x N, the room of side 64, 20 agents"
echo "      N    repair      full    ratio  peak repair   full"
for n in $SIZES; do
    printf '%7d ' "$n"
    run "$n" 64 20
done
echo "3. the issue's room: side 64, one-cell door toggled 7 times, 2,000 agents"
echo "      N    repair      full    ratio  peak repair   full"
for n in $HEADLINE; do
    printf '%7d ' "$n"
    run "$n" 64 2000
done
