#!/bin/sh
# bench_anyangle_crowd.sh - does a crowd following an any-angle field walk
# straighter (issue 36)?  An open 96 x 64 map walled round, one goal cell
# off every axis from the agents (at 84,12, from spawns in the rectangle
# 4..20 x 40..60, bearings from 19 to 37 degrees); 40 walkers with follow
# only, so that nothing but the field steers them, smoothed directions
# (ffsim's default) and raw ones.  For each field, 8-move and
# --any-angle, a row of the table:
#
#   path      each agent's walked length from its spawn until it arrives,
#             over the straight line from its spawn to the goal's centre
#             less the goal's half cell, averaged (1.000 is straight)
#   jitter    the mean absolute change of heading from one tick to the
#             next while the agent moves, in degrees a tick
#   turns     the ticks a moving agent's heading changed by more than 1
#             degree, a share of all its moving ticks
#   arrived   agents that arrived, of 40, and the last arrival's tick
#
# Deterministic: the same table on every machine (no time is measured).
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

awk 'BEGIN {
    w = 96; h = 64
    print "ffmap 1"; print "legend # wall"; print "legend . 1"; print "legend G goal 1"; print "map"
    for (y = 0; y < h; y++) {
        row = ""
        for (x = 0; x < w; x++)
            row = row (x == 0 || y == 0 || x == w - 1 || y == h - 1 ? "#" : x == 84 && y == 12 ? "G" : ".")
        print row
    }
}' >"$TMP/open.ffmap"
cat >"$TMP/walk.scenario" <<EOS
ffsim 1
tick 0.1
ticks 1500
class walker
    radius 0.3
    speed 1.4
    accel 4
    follow priority 0 weight 1
end
spawn 40 walker rect 4,40,20,60 seed 36
EOS

"$BIN/ffbuild" "$TMP/open.ffmap" | "$BIN/ffdir" >"$TMP/octile.ff" || exit 1
"$BIN/ffbuild" --any-angle "$TMP/open.ffmap" | "$BIN/ffdir" >"$TMP/anyangle.ff" || exit 1

# The table's row of one trace: the goal's centre is 84.5,12.5.
row() {
    awk -v name="$1" '
    /^#/ { next }
    {
        id = $2; x = $3; y = $4; hd = $7; st = $9
        if (!(id in x0)) { x0[id] = x; y0[id] = y; px[id] = x; py[id] = y; ph[id] = hd; n++ }
        if (done[id]) next
        len[id] += sqrt((x - px[id]) ^ 2 + (y - py[id]) ^ 2)
        if (st == "moving" && seen[id]) {
            d = hd - ph[id]
            while (d > 180) d -= 360
            while (d < -180) d += 360
            jit += d < 0 ? -d : d
            moves++
            if (d > 1 || d < -1) turns++
        }
        seen[id] = 1
        px[id] = x; py[id] = y; ph[id] = hd
        if (st == "arrived") { done[id] = 1; arrived++; last = $1 }
    }
    END {
        for (id in x0) if (done[id]) {
            straight = sqrt((84.5 - x0[id]) ^ 2 + (12.5 - y0[id]) ^ 2) - 0.5
            ratio += len[id] / straight
        }
        printf "  %-22s %8.3f %8.2f %7.1f%%   %2d of %d, tick %d\n", name,
               arrived ? ratio / arrived : 0, moves ? jit / moves : 0,
               moves ? 100 * turns / moves : 0, arrived, n, last
    }' "$2"
}

echo "open 96x64 map, goal 84,12, 40 walkers from 4..20 x 40..60, follow only"
printf "  %-22s %8s %8s %8s   %s\n" field path jitter turns arrived
for dir in smooth raw; do
    for f in octile anyangle; do
        "$BIN/ffsim" --direction $dir --summary /dev/null "$TMP/$f.ff" "$TMP/walk.scenario" \
            >"$TMP/$f-$dir.trace" || { echo "bench_anyangle_crowd: ffsim failed on $f, $dir" >&2; exit 1; }
        row "$( [ $f = octile ] && echo 8-move || echo any-angle), $dir" "$TMP/$f-$dir.trace"
    done
done
