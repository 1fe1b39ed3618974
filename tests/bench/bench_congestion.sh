#!/bin/sh
# The congestion refresh's cost (man 1 ffsim, "CONGESTION"): 10,000 agents
# with follow + separate + avoid-walls on bench_sim.sh's 1024x1024 map
# (a 6x6 block every 32 cells, one goal), 200 ticks, run side by side
# with congestion off and on (refreshed every 10 ticks, and every tick),
# with the default threshold (a lone agent's cell costs nothing: only
# where agents bunch up do costs change, and the fields are repaired
# there) and with threshold 0 (every agent's cells change each refresh:
# the worst case, where the repairs give way to whole searches).
# The crowd step per tick is the off run's simulation time (agent_steps
# over agent_steps_per_second) over its ticks; a refresh's cost is the on
# run's congestion_seconds over its refreshes, and per tick that over the
# ticks.  Each run is repeated RUNS times (default 3) and the best kept,
# as the machine is shared.
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. tests/bench/openmap.sh
open_map || exit 1

RUNS=${RUNS:-3}
scenario() {  # CONGESTION-LINES
    cat <<EOS
ffsim 1
tick 0.1
ticks 200
$1
class walker
    radius 0.3
    speed 1.4
    accel 4
    follow priority 0 weight 1
    separate priority 0 weight 0.5 range 1.0
    avoid-walls priority 0 weight 0.5 range 0.4
end
spawn 10000 walker rect 1,1,1023,1023 seed 42
EOS
}
# best NAME: the lowest simulation seconds and congestion seconds of RUNS
best() {
    bs= bc=
    run=0
    while [ "$run" -lt "$RUNS" ]; do
        run=$((run + 1))
        "$BIN/ffsim" --every 1000000000 --summary "$TMP/sum" "$TMP/open.ff" "$TMP/$1.scenario" \
            >/dev/null || exit 1
        sim=$(awk '/^agent_steps / { s = $2 } /^agent_steps_per_second / { r = $2 }
                   END { printf "%.6f\n", s / r }' "$TMP/sum")
        cs=$(sed -n 's/^congestion_seconds //p' "$TMP/sum")
        refreshes=$(sed -n 's/^congestion_refreshes //p' "$TMP/sum")
        if [ -z "$bs" ] || awk -v a="$sim" -v b="$bs" 'BEGIN { exit !(a < b) }'; then
            bs=$sim bc=$cs
        fi
    done
    echo "$bs $bc $refreshes"
}
scenario "congestion off" >"$TMP/off.scenario"
scenario "congestion on
congestion-ticks 10" >"$TMP/on10.scenario"
scenario "congestion on
congestion-ticks 1" >"$TMP/on1.scenario"
scenario "congestion on
congestion-ticks 1
congestion-threshold 0" >"$TMP/all1.scenario"
set -- $(best off)
off_sim=$1
set -- $(best on10)
on10_sim=$1 on10_c=$2 on10_n=$3
set -- $(best on1)
on1_sim=$1 on1_c=$2 on1_n=$3
set -- $(best all1)
all1_sim=$1 all1_c=$2 all1_n=$3
awk -v off="$off_sim" -v s10="$on10_sim" -v c10="$on10_c" -v n10="$on10_n" \
    -v s1="$on1_sim" -v c1="$on1_c" -v n1="$on1_n" \
    -v sa="$all1_sim" -v ca="$all1_c" -v na="$all1_n" 'BEGIN {
    step = off / 200
    printf "congestion: 10000 agents on 1024x1024, 200 ticks: crowd step %.2f ms a tick (congestion off)\n", 1000 * step
    printf "congestion: a refresh: %.2f ms = %.2f crowd steps\n", 1000 * c1 / n1, (c1 / n1) / step
    printf "congestion: every 10 ticks: %.2f ms a tick = %.2f x the crowd step; whole tick %.2f ms (%.2f x off)\n",
        1000 * c10 / 200, (c10 / 200) / step, 1000 * s10 / 200, s10 / off
    printf "congestion: every tick: %.2f ms a tick = %.2f x the crowd step; whole tick %.2f ms (%.2f x off)\n",
        1000 * c1 / 200, (c1 / 200) / step, 1000 * s1 / 200, s1 / off
    printf "congestion: threshold 0, every tick (worst case): a refresh %.1f ms = %.1f crowd steps; whole tick %.2f ms (%.2f x off)\n",
        1000 * ca / na, (ca / na) / step, 1000 * sa / 200, sa / off
}'
