#!/bin/sh
# ffsim on the multi-agent path finding benchmark of ../shared/testdata/mapf
# (Moving AI MAPF maps and .scen instances; reference.tsv: PIBT+'s makespan,
# sum of costs and planning time on this machine).  For each instance: the
# field (ffbuild -m 4, a goal anywhere: every agent has its own), then one
# ffsim run with reservations and 'arrived stay' (the MAPF convention),
# timed as the median of RUNS (default 3).  Prints one row an instance:
# agents, makespan and sum of costs (ffsim, reference), the ratio of the
# sums of costs, the milliseconds of the ffsim process alone (its own
# fields, one per agent's goal, included; sim_ms) and of the whole pipeline
# (ffbuild | ffdir of the map, the input's preparation, then ffsim; ms),
# the reference's planning time (ref_ms; 0 means under 1 ms), and whether
# every agent ended on its goal.  Last, the floor: the median time of a
# process that does nothing (ffsim --version), which every sim_ms holds.
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
MAPF=${MAPF:-$PWD/../shared/testdata/mapf}
[ -f "$MAPF/reference.tsv" ] || { echo "bench_mapf: no $MAPF/reference.tsv" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
RUNS=${RUNS:-3}

ms() { date +%s%3N; }
median() { echo "$@" | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-30s %6s %8s %8s %8s %8s %6s %7s %7s %7s %s\n' instance agents makespan ref soc ref soc/ref sim_ms ms ref_ms solved
solved=0
total=0
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
    times=""
    stimes=""
    run=0
    while [ "$run" -lt "$RUNS" ]; do
        run=$((run + 1))
        t0=$(ms)
        "$BIN/ffbuild" -m 4 -g "$goal" "$MAPF/$map" | "$BIN/ffdir" >"$TMP/f.ff" || exit 1
        t1=$(ms)
        "$BIN/ffsim" --every 1000000000 --summary "$TMP/sum" "$TMP/f.ff" "$TMP/s.scenario" \
            >/dev/null 2>"$TMP/err" || { echo "bench_mapf: $inst failed: $(cat "$TMP/err")" >&2; exit 1; }
        t2=$(ms)
        times="$times $((t2 - t0))"
        stimes="$stimes $((t2 - t1))"
    done
    med=$(median $times)
    smed=$(median $stimes)
    mk=$(sed -n 's/^makespan //p' "$TMP/sum")
    soc=$(sed -n 's/^sum_of_costs //p' "$TMP/sum")
    ok=no
    [ "$mk" -ge 0 ] && ok=yes
    awk -v i="$inst" -v a="$agents" -v m="$mk" -v rm="$ref_mk" -v s="$soc" -v rs="$ref_soc" \
        -v st="$smed" -v t="$med" -v rt="$ref_ms" -v ok="$ok" 'BEGIN {
        printf "%-30s %6d %8d %8d %8d %8d %6.3f %7d %7d %7d %s\n", i, a, m, rm, s, rs, (s >= 0 ? s / rs : -1), st, t, rt, ok }'
done
times=""
run=0
while [ "$run" -lt 5 ]; do
    run=$((run + 1))
    t0=$(ms)
    "$BIN/ffsim" --version >/dev/null
    t1=$(ms)
    times="$times $((t1 - t0))"
done
echo "floor: a process start (ffsim --version) takes $(median $times) ms here"

