#!/bin/sh
# Cell-to-cell moves with reservations against the steering crowd, side by
# side in one run: the same 10,000 agents (one class, radius 0.3, spawned
# by the same rule and seed), the same goal, the same 200 ticks on the
# same 1024x1024 map with square obstacles (a 6x6 block every 32 cells,
# 3.5% walls; the map of bench_sim.sh).  The two scenarios differ only in
# their 'move' and 'reserve' lines:
#   steering      move steer: follow + separate + avoid-walls, the agent
#                 hash, the wall slide (bench_sim.sh's crowd);
#   reservations  move grid, reserve on: one cell a tick granted by PIBT
#                 (footprints, edge swaps, diagonal corners, sweeps), the
#                 behaviours and speeds unused (man 1 ffsim).
# The figure is each summary's agent_steps_per_second (processor time of
# the simulation alone: no trace is written, --every past the last tick).
# The two alternate RUNS times (default 3) and the best of each is kept,
# as the machine is shared; the ratio is reservations over steering (the
# aim: at least 0.5).  The load average at the start is printed with it.
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. tests/bench/openmap.sh
open_map || exit 1

AGENTS=${AGENTS:-10000}
TICKS=${TICKS:-200}
scenario() {  # scenario MOVE-LINES
    cat <<EOS
ffsim 1
tick 0.1
ticks $TICKS
$1
class walker
    radius 0.3
    speed 1.4
    accel 4
    follow priority 0 weight 1
    separate priority 0 weight 0.5 range 1.0
    avoid-walls priority 0 weight 0.5 range 0.4
end
spawn $AGENTS walker rect 1,1,1023,1023 seed 42
EOS
}
scenario "move steer" >"$TMP/steer.scenario"
scenario "move grid
reserve on" >"$TMP/grid.scenario"

RUNS=${RUNS:-3}
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
best_steer=0
best_grid=0
run=0
while [ "$run" -lt "$RUNS" ]; do
    run=$((run + 1))
    for kind in steer grid; do
        "$BIN/ffsim" --every 1000000000 --summary "$TMP/$kind.sum" \
            "$TMP/open.ff" "$TMP/$kind.scenario" >/dev/null 2>"$TMP/$kind.err" || {
            cat "$TMP/$kind.err" >&2
            exit 1
        }
        sps=$(sed -n 's/^agent_steps_per_second //p' "$TMP/$kind.sum")
        if [ "$kind" = steer ]; then
            [ "$sps" -gt "$best_steer" ] && best_steer=$sps
        else
            [ "$sps" -gt "$best_grid" ] && best_grid=$sps
        fi
    done
done
steps_steer=$(sed -n 's/^agent_steps //p' "$TMP/steer.sum")
steps_grid=$(sed -n 's/^agent_steps //p' "$TMP/grid.sum")
echo "ffsim grid vs steer: $AGENTS agents x $TICKS ticks, best of $RUNS, load average $load"
echo "  steering:     $steps_steer agent steps, $best_steer agent_steps_per_second"
echo "  reservations: $steps_grid agent steps, $best_grid agent_steps_per_second"
awk -v a="$best_grid" -v b="$best_steer" 'BEGIN {
    printf "  ratio reservations / steering: %.2f (aim: at least 0.50)\n", (b > 0 ? a / b : 0) }'
