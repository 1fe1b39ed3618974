#!/bin/sh
# The memory of own goals' fields (ffsim(1), "OWN GOALS"): MAPF instances
# on 512 x 512 maps of ../shared/testdata/movingai, made as
# ../shared/anchors/mapf/gen_scen.py makes them (N agents, starts and
# goals distinct, drawn with random.Random(seed * 1000003 + N) from the
# largest 4-connected component), each agent to its own goal, run as
# bench_mapf.sh runs them (move grid, reserve on, arrived stay).  One row
# an instance: agents, the peak resident memory of the ffsim process
# (GNU time's maximum resident set size, in MB of 10^6 bytes; "-" without
# /usr/bin/time), the run's field_bytes in MB (the own goals' fields as
# they grew), run_ms (the summary's run_seconds), makespan, sum of costs
# and whether every agent arrived.  The targets of issue 35: 1,000 agents
# under 500 MB, 2,000 under 1 GB.
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
. tests/bench/mapfrun.sh
MOVINGAI=${MOVINGAI:-$PWD/../shared/testdata/movingai}
GEN=${GEN:-$PWD/../shared/anchors/mapf/gen_scen.py}
MAPS=${MAPS:-"Berlin_0_512 random512-10-0"}
AGENTS=${AGENTS:-"1000 2000"}
SEEDS=${SEEDS:-1}
[ -f "$GEN" ] || { echo "bench_ownfield: no $GEN" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "bench_ownfield: no python3" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
timed=0
/usr/bin/time -f %M -o /dev/null true 2>/dev/null && timed=1

printf '%-26s %6s %8s %9s %8s %8s %9s %s\n' instance agents peak_MB field_MB run_ms makespan soc solved
for map in $MAPS; do
    [ -f "$MOVINGAI/$map.map" ] || { echo "bench_ownfield: no $MOVINGAI/$map.map" >&2; continue; }
    for n in $AGENTS; do
        for seed in $SEEDS; do
            scen=$TMP/$map-$n-$seed.scen
            python3 - "$GEN" "$MOVINGAI/$map.map" "$n" "$seed" "$scen" <<'EOF' || exit 1
import importlib.util, random, sys
spec = importlib.util.spec_from_file_location('gen_scen', sys.argv[1])
g = importlib.util.module_from_spec(spec)
spec.loader.exec_module(g)
path, n, seed, out = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
w, h, free = g.load(path)
cells = g.largest_component(w, h, free)
rng = random.Random(seed * 1000003 + n)
starts = rng.sample(cells, n); goals = rng.sample(cells, n)
name = path.rsplit('/', 1)[-1]
with open(out, 'w') as f:
    f.write('version 1\n')
    for (sx, sy), (gx, gy) in zip(starts, goals):
        f.write('0\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t0\n' % (name, w, h, sx, sy, gx, gy))
EOF
            mapf_field "$scen" "$MOVINGAI/$map.map" "$TMP/f.ff" || exit 1
            mapf_scenario 4000 "$n" "$scen" >"$TMP/s.scenario"
            if [ "$timed" = 1 ]; then
                /usr/bin/time -f %M -o "$TMP/rss" "$BIN/ffsim" --every 1000000000 --summary "$TMP/sum" \
                    "$TMP/f.ff" "$TMP/s.scenario" >/dev/null 2>"$TMP/err" ||
                    { echo "bench_ownfield: $map-$n-$seed failed: $(cat "$TMP/err")" >&2; exit 1; }
                peak=$(awk '{ printf "%.0f", $1 * 1024 / 1e6 }' "$TMP/rss")
            else
                "$BIN/ffsim" --every 1000000000 --summary "$TMP/sum" "$TMP/f.ff" "$TMP/s.scenario" >/dev/null 2>"$TMP/err" ||
                    { echo "bench_ownfield: $map-$n-$seed failed: $(cat "$TMP/err")" >&2; exit 1; }
                peak=-
            fi
            awk -v i="$map-$n-$seed" -v a="$n" -v p="$peak" '
                { v[$1] = $2 }
                END { printf "%-26s %6d %8s %9.1f %8.0f %8d %9d %s\n", i, a, p, v["field_bytes"] / 1e6,
                          v["run_seconds"] * 1000, v["makespan"], v["sum_of_costs"], v["arrived"] == a ? "yes" : "no" }' \
                "$TMP/sum"
        done
    done
done
