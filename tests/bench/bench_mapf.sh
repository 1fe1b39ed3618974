#!/bin/sh
# ffsim on the multi-agent path finding benchmark of ../shared/testdata/mapf
# (Moving AI MAPF maps and .scen instances; reference.tsv: PIBT+'s makespan,
# sum of costs and planning time on this machine).  For each instance: the
# field (ffbuild -m 4, a goal anywhere: every agent has its own), then
# ffsim with reservations and 'arrived stay' (the MAPF convention).  Prints
# one row an instance: agents, makespan and sum of costs (ffsim,
# reference), the ratio of the sums of costs, then two times of ffsim, each
# the median of RUNS runs (default 11): proc_ms, the processor
# milliseconds of the whole ffsim process (its start, reading, the run and
# exit; user + system time of each run as wait4 gives it, by
# tests/bench/cpurun.c), and run_ms, the summary's run_seconds (the run
# alone: its fields, one per agent's goal, and every tick; not reading, not
# the process start: what the reference's planning time covers).  Then the
# reference's planning time (ref_ms; 0 means under 1 ms), each time over it
# (x proc, x run; against 1 ms where the reference says 0), and whether
# every agent ended on its goal.  Last, the floor: proc_ms of a process
# that does nothing (ffsim --version), which every proc_ms holds.
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
. tests/bench/mapfrun.sh
MAPF=${MAPF:-$PWD/../shared/testdata/mapf}
[ -f "$MAPF/reference.tsv" ] || { echo "bench_mapf: no $MAPF/reference.tsv" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
RUNS=${RUNS:-11}
cc -O2 -o "$TMP/cpurun" tests/bench/cpurun.c || { echo "bench_mapf: cannot build cpurun" >&2; exit 1; }

printf '%-30s %6s %8s %8s %8s %8s %7s %8s %7s %6s %6s %6s %s\n' instance agents makespan ref soc ref soc/ref proc_ms run_ms ref_ms "x proc" "x run" solved
tail -n +2 "$MAPF/reference.tsv" | while IFS='	' read -r inst map agents ref_mk ref_soc ref_ms; do
    scen="$MAPF/$inst.scen"
    mapf_scenario 2000 "$agents" "$scen" >"$TMP/s.scenario"
    mapf_field "$scen" "$MAPF/$map" "$TMP/f.ff" || exit 1
    "$BIN/ffsim" --every 1000000000 --summary "$TMP/sum" "$TMP/f.ff" "$TMP/s.scenario" \
        >/dev/null 2>"$TMP/err" || { echo "bench_mapf: $inst failed: $(cat "$TMP/err")" >&2; exit 1; }
    smed=$("$TMP/cpurun" "$RUNS" "$BIN/ffsim" --every 1000000000 "$TMP/f.ff" "$TMP/s.scenario") || exit 1
    k=0
    while [ "$k" -lt "$RUNS" ]; do
        "$BIN/ffsim" --every 1000000000 --summary "$TMP/r" "$TMP/f.ff" "$TMP/s.scenario" >/dev/null 2>&1 || exit 1
        sed -n 's/^run_seconds //p' "$TMP/r"
        k=$((k + 1))
    done | sort -g >"$TMP/runs"
    rmed=$(awk '{ v[NR] = $1 } END { print 1000 * (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }' "$TMP/runs")
    mk=$(sed -n 's/^makespan //p' "$TMP/sum")
    soc=$(sed -n 's/^sum_of_costs //p' "$TMP/sum")
    ok=no
    [ "$mk" -ge 0 ] && ok=yes
    awk -v i="$inst" -v a="$agents" -v m="$mk" -v rm="$ref_mk" -v s="$soc" -v rs="$ref_soc" \
        -v st="$smed" -v rn="$rmed" -v rt="$ref_ms" -v ok="$ok" 'BEGIN {
        printf "%-30s %6d %8d %8d %8d %8d %7.3f %8.2f %7.2f %6d %6.2f %6.2f %s\n", i, a, m, rm, s, rs,
            (s >= 0 ? s / rs : -1), st, rn, rt, st / (rt > 0 ? rt : 1), rn / (rt > 0 ? rt : 1), ok }'
done
echo "floor: a process start (ffsim --version) takes $("$TMP/cpurun" "$RUNS" "$BIN/ffsim" --version) ms of processor time here"
