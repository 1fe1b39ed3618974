#!/bin/sh
# ffsim on the multi-agent path finding benchmark of ../shared/testdata/mapf
# (Moving AI MAPF maps and .scen instances; reference.tsv: PIBT+'s makespan,
# sum of costs and planning time on this machine).  For each instance: the
# field (ffbuild -m 4, a goal anywhere: every agent has its own), then
# ffsim with reservations and 'arrived stay' (the MAPF convention).  Prints
# one row an instance: agents, makespan and sum of costs (ffsim,
# reference), the ratio of the sums of costs, the processor milliseconds of
# one ffsim process (its own fields, one per agent's goal, included:
# sim_ms; user + system time of each run as wait4 gives it, by
# tests/bench/cpurun.c, the median of RUNS runs, default 11), the
# reference's planning time (ref_ms; 0 means under 1 ms) and sim_ms over
# it (x ref; against 1 ms where the reference says 0), and whether every
# agent ended on its goal.  Last, the floor: the same figure for a process
# that does nothing (ffsim --version), which every sim_ms holds.
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
MAPF=${MAPF:-$PWD/../shared/testdata/mapf}
[ -f "$MAPF/reference.tsv" ] || { echo "bench_mapf: no $MAPF/reference.tsv" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
RUNS=${RUNS:-11}
cc -O2 -o "$TMP/cpurun" tests/bench/cpurun.c || { echo "bench_mapf: cannot build cpurun" >&2; exit 1; }

printf '%-30s %6s %8s %8s %8s %8s %7s %8s %6s %6s %s\n' instance agents makespan ref soc ref soc/ref sim_ms ref_ms "x ref" solved
tail -n +2 "$MAPF/reference.tsv" | while IFS='	' read -r inst map agents ref_mk ref_soc ref_ms; do
    scen="$MAPF/$inst.scen"
    goal=$(sed -n '2p' "$scen" | awk -F'\t' '{ print $7 "," $8 }')
    cat >"$TMP/s.scenario" <<EOS
ffsim 1
ticks 2000
move grid
reserve on
arrived stay
class a
    radius 0.4
    speed 1
    follow
end
spawn $agents a scen $scen
EOS
    "$BIN/ffbuild" -m 4 -g "$goal" "$MAPF/$map" | "$BIN/ffdir" >"$TMP/f.ff" || exit 1
    "$BIN/ffsim" --every 1000000000 --summary "$TMP/sum" "$TMP/f.ff" "$TMP/s.scenario" \
        >/dev/null 2>"$TMP/err" || { echo "bench_mapf: $inst failed: $(cat "$TMP/err")" >&2; exit 1; }
    smed=$("$TMP/cpurun" "$RUNS" "$BIN/ffsim" --every 1000000000 "$TMP/f.ff" "$TMP/s.scenario") || exit 1
    mk=$(sed -n 's/^makespan //p' "$TMP/sum")
    soc=$(sed -n 's/^sum_of_costs //p' "$TMP/sum")
    ok=no
    [ "$mk" -ge 0 ] && ok=yes
    awk -v i="$inst" -v a="$agents" -v m="$mk" -v rm="$ref_mk" -v s="$soc" -v rs="$ref_soc" \
        -v st="$smed" -v rt="$ref_ms" -v ok="$ok" 'BEGIN {
        printf "%-30s %6d %8d %8d %8d %8d %7.3f %8.2f %6d %6.2f %s\n", i, a, m, rm, s, rs, (s >= 0 ? s / rs : -1), st, rt,
            st / (rt > 0 ? rt : 1), ok }'
done
echo "floor: a process start (ffsim --version) takes $("$TMP/cpurun" "$RUNS" "$BIN/ffsim" --version) ms of processor time here"
