#!/bin/sh
# ffsim's speed: agent steps per second with follow + separate +
# avoid-walls, at 1,000, 10,000 and 100,000 agents on a 1024x1024 open map
# with square obstacles (a 6x6 block every 32 cells, 3.5% walls) and one
# goal; then the same crowds with steered headings (look-ahead and align
# in the same group, 'angular' rows).  The figure is the summary's
# agent_steps_per_second, which times
# the simulation alone (no trace is written: --every past the last tick);
# each size runs RUNS times (default 3) and the best figure is kept, as the
# machine is shared.  Also prints the peak memory of each run, and the
# memory per agent from the difference between 1,000 and 100,000 agents.
# BENCH_SIM_ANGULAR=0 leaves the angular rows out.
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. tests/bench/openmap.sh
open_map || exit 1

RUNS=${RUNS:-3}
mem1=
for spec in 1000:2000: 10000:200: 100000:20: \
    1000:2000:angular 10000:200:angular 100000:20:angular; do
    agents=${spec%%:*}
    ticks=${spec#*:}
    label=${ticks#*:}
    ticks=${ticks%%:*}
    turning=
    if [ "$label" = angular ]; then
        [ "${BENCH_SIM_ANGULAR:-1}" = 0 ] && continue
        turning="    look-ahead priority 0
    align priority 0 range 1.0"
    fi
    cat >"$TMP/s.scenario" <<EOS
ffsim 1
tick 0.1
ticks $ticks
class walker
    radius 0.3
    speed 1.4
    accel 4
    follow priority 0 weight 1
    separate priority 0 weight 0.5 range 1.0
    avoid-walls priority 0 weight 0.5 range 0.4
$turning
end
spawn $agents walker rect 1,1,1023,1023 seed 42
EOS
    best=0
    mem=
    run=0
    while [ "$run" -lt "$RUNS" ]; do
        run=$((run + 1))
        if [ -x /usr/bin/time ]; then
            /usr/bin/time -f '%M' -o "$TMP/mem" "$BIN/ffsim" --every 1000000000 \
                --summary "$TMP/sum" "$TMP/open.ff" "$TMP/s.scenario" >/dev/null || exit 1
            mem=$(cat "$TMP/mem")
        else
            "$BIN/ffsim" --every 1000000000 --summary "$TMP/sum" \
                "$TMP/open.ff" "$TMP/s.scenario" >/dev/null || exit 1
        fi
        sps=$(sed -n 's/^agent_steps_per_second //p' "$TMP/sum")
        steps=$(sed -n 's/^agent_steps //p' "$TMP/sum")
        [ "$sps" -gt "$best" ] && best=$sps
    done
    if [ -n "$mem" ]; then
        [ "$agents" = 1000 ] && mem1=$mem
        memtext="$mem KiB peak"
    else
        memtext="peak memory not measured"
    fi
    echo "ffsim${label:+, $label}: $agents agents x $ticks ticks: $steps agent steps, $best agent steps/s (best of $RUNS), $memtext"
    if [ "$agents" = 100000 ] && [ -z "$label" ] && [ -n "$mem" ] && [ -n "$mem1" ]; then
        awk -v a="$mem1" -v b="$mem" 'BEGIN {
            printf "ffsim: memory per agent: %.0f bytes (peak 100,000 agents - peak 1,000, over 99,000)\n", (b - a) * 1024 / 99000 }'
    fi
done

# Reservations: ticks per second of 10,000 agents moving cell to cell
# with reservations on the same map; and the time to rebuild the field
# after a door event (a 4-cell wall segment closing at tick 5).
cat >"$TMP/r.scenario" <<EOS
ffsim 1
tick 0.1
ticks 100
move grid
reserve on
at 5 close 100,40,103,40
class walker
    radius 0.4
    speed 1
    follow
end
spawn 10000 walker rect 1,1,1023,1023 seed 42
EOS
"$BIN/ffsim" --every 1000000000 --summary "$TMP/rsum" "$TMP/open.ff" "$TMP/r.scenario" >/dev/null || exit 1
steps=$(sed -n 's/^agent_steps //p' "$TMP/rsum")
sps=$(sed -n 's/^agent_steps_per_second //p' "$TMP/rsum")
ticks=$(sed -n 's/^ticks //p' "$TMP/rsum")
rebuild=$(sed -n 's/^rebuild_seconds //p' "$TMP/rsum")
awk -v s="$steps" -v r="$sps" -v t="$ticks" -v b="$rebuild" 'BEGIN {
    printf "ffsim: reservations, 10000 agents x %d ticks: %.0f ticks/s (%d agent steps/s)\n", t, t / (s / r), r
    printf "ffsim: rebuild of the 1024x1024 field after a door event: %.3f s\n", b }'
