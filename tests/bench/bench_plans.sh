#!/bin/sh
# ffsim's MAPF plans (man 1 ffsim, PLANS) against LaCAM3 on the shared
# instances of ../shared/anchors/mapf (Moving AI .scen files on the maps of
# ../shared/testdata/mapf; lacam3-figures.tsv: the lower bound LB, the sum
# of each agent's breadth-first distance, and LaCAM3's sum of costs with a
# 30 s anytime budget).  For each instance: the field (ffbuild -m 4), then
# ffsim with reservations, 'arrived stay' and plan-effort EFFORT (the
# scenario's default when unset).  One row an instance: agents, solved
# (every agent ended on its goal), the sum of costs, the online run's it
# began from (plan_online_cost), each over LB and over LaCAM3's, then
# proc_ms, the median processor time of RUNS runs (default 3) of the whole
# ffsim process (its own goals' fields, the online run, the plan's
# improvement and the replay; tests/bench/cpurun.c), and peak_mb, its peak
# resident memory (GNU time's %M; '-' without /usr/bin/time).  Last, the
# median and worst ratio to LaCAM3, and the longest proc_ms.
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
. tests/bench/mapfrun.sh
ANCHORS=${ANCHORS:-$PWD/../shared/anchors/mapf}
MAPF=${MAPF:-$PWD/../shared/testdata/mapf}
[ -f "$ANCHORS/lacam3-figures.tsv" ] || { echo "bench_plans: no $ANCHORS/lacam3-figures.tsv" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
RUNS=${RUNS:-3}
EFFORT=${EFFORT:-}
cc -O2 -o "$TMP/cpurun" tests/bench/cpurun.c || { echo "bench_plans: cannot build cpurun" >&2; exit 1; }

printf '%-30s %6s %6s %8s %8s %6s %6s %7s %7s %8s %7s\n' instance agents solved soc online soc/LB on/LB soc/L3 on/L3 proc_ms peak_mb
tail -n +2 "$ANCHORS/lacam3-figures.tsv" | while IFS='	' read -r inst agents lb l3_solved l3_soc rest; do
    scen="$ANCHORS/instances/$inst.scen"
    map=$(sed -n '2p' "$scen" | cut -f2)
    mapf_scenario 20000 "$agents" "$scen" "$EFFORT" >"$TMP/s.scenario"
    mapf_field "$scen" "$MAPF/$map" "$TMP/f.ff" || exit 1
    peak=-
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%M' -o "$TMP/rss" "$BIN/ffsim" --every 1000000000 --summary "$TMP/sum" "$TMP/f.ff" \
            "$TMP/s.scenario" >/dev/null 2>"$TMP/err" || { echo "bench_plans: $inst failed: $(cat "$TMP/err")" >&2; exit 1; }
        peak=$(awk '{ printf "%.1f", $1 / 1024 }' "$TMP/rss")
    else
        "$BIN/ffsim" --every 1000000000 --summary "$TMP/sum" "$TMP/f.ff" "$TMP/s.scenario" >/dev/null 2>"$TMP/err" ||
            { echo "bench_plans: $inst failed: $(cat "$TMP/err")" >&2; exit 1; }
    fi
    ms=$("$TMP/cpurun" "$RUNS" "$BIN/ffsim" --every 1000000000 "$TMP/f.ff" "$TMP/s.scenario") || exit 1
    soc=$(sed -n 's/^sum_of_costs //p' "$TMP/sum")
    online=$(sed -n 's/^plan_online_cost //p' "$TMP/sum")
    [ "$online" = -1 ] && online=$soc  # (no plan: the online run is the run)
    awk -v i="$inst" -v a="$agents" -v s="$soc" -v o="$online" -v lb="$lb" -v l3="$l3_soc" -v ms="$ms" \
        -v pk="$peak" 'BEGIN {
        printf "%-30s %6d %6s %8d %8d %6.3f %6.3f %7.3f %7.3f %8.1f %7s\n", i, a, (s >= 0 ? "yes" : "no"), s, o,
            s / lb, o / lb, s / l3, o / l3, ms, pk }'
done | tee "$TMP/rows"
med=$(awk '{ print $8 }' "$TMP/rows" | sort -g | awk '{ v[NR] = $1 } END {
    printf "median %.3f, worst %.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[NR] }')
awk -v med="$med" '{ if ($10 > t) t = $10; if ($3 != "yes") u++ } END {
    printf "sum of costs / LaCAM3: %s; unsolved %d; longest proc_ms %.1f\n", med, u, t }' "$TMP/rows"
