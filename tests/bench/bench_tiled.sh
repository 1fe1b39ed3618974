#!/bin/sh
# What reading a Tiled map costs beside the ffmap of the same cells: a
# 2048x2048 map (4 Mi cells, four kinds of tile) as an ffmap, a TMX with
# CSV, zlib and gzip data, and a JSON map with a gid array and zstd data,
# each read by `ffbuild --goal-sets SETS --list` (the map read and checked,
# no search).  Each figure is the best wall time of 3 runs, with the peak
# memory, and the ratio to the ffmap's time measured in the same run.
# Needs python3 (and zstd for the zstd map); run after make:
#   sh tests/bench/bench_tiled.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
command -v python3 >/dev/null 2>&1 || { echo "bench_tiled: python3 not found: skipped"; exit 0; }

python3 - "$TMP" <<'EOF' || exit 1
import base64, gzip, json, shutil, struct, subprocess, sys, zlib
out, n = sys.argv[1], 2048
kinds = ".#~G"  # floor, wall, mud, goal
def kind(x, y):
    if x == 1 and y == 1: return 3
    if (x % 64 == 32 and y % 512 < 400) or (y % 128 == 64 and x % 256 < 200): return 1
    return 2 if (x // 16 + y // 16) % 7 == 0 else 0
cells = [kind(x, y) for y in range(n) for x in range(n)]
with open(out + "/map.ffmap", "w") as f:
    f.write("ffmap 1\nlegend . 1\nlegend # wall\nlegend ~ 4\nlegend G goal 1\nmap\n")
    for y in range(n):
        f.write("".join(kinds[c] for c in cells[y * n:(y + 1) * n]) + "\n")
props = [[("cost", "float", 1)], [("wall", "bool", True)], [("cost", "float", 4)],
         [("cost", "float", 1), ("goal", "bool", True)]]
gids = [c + 1 for c in cells]
raw = struct.pack("<%dI" % len(gids), *gids)
def tmx(name, encoding, data, comp=""):
    c = ' compression="%s"' % comp if comp else ""
    tiles = "".join('<tile id="%d"><properties>%s</properties></tile>' % (i, "".join(
        '<property name="%s" type="%s" value="%s"/>' % (k, t, str(v).lower()) for k, t, v in p))
        for i, p in enumerate(props))
    with open(out + "/" + name, "w") as f:
        f.write('<?xml version="1.0"?>\n<map orientation="orthogonal" width="%d" height="%d" '
                'tilewidth="16" tileheight="16">\n<tileset firstgid="1" name="t">%s</tileset>\n'
                '<layer name="ground" width="%d" height="%d"><data encoding="%s"%s>\n%s\n</data></layer>\n</map>\n'
                % (n, n, tiles, n, n, encoding, c, data))
tmx("csv.tmx", "csv", ",\n".join(",".join(str(g) for g in gids[y * n:(y + 1) * n]) for y in range(n)))
tmx("zlib.tmx", "base64", base64.b64encode(zlib.compress(raw)).decode(), "zlib")
tmx("gzip.tmx", "base64", base64.b64encode(gzip.compress(raw, mtime=0)).decode(), "gzip")
def tmj(name, layer):
    m = {"type": "map", "orientation": "orthogonal", "width": n, "height": n, "tilewidth": 16,
         "tileheight": 16, "infinite": False,
         "tilesets": [{"firstgid": 1, "name": "t", "tiles": [
             {"id": i, "properties": [{"name": k, "type": t, "value": v} for k, t, v in p]}
             for i, p in enumerate(props)]}],
         "layers": [dict(layer, type="tilelayer", name="ground", width=n, height=n)]}
    with open(out + "/" + name, "w") as f:
        json.dump(m, f, separators=(",", ":"))
tmj("array.tmj", {"data": gids})
if shutil.which("zstd"):
    z = subprocess.run(["zstd", "-q", "-c"], input=raw, capture_output=True, check=True).stdout
    tmj("zstd.tmj", {"encoding": "base64", "compression": "zstd", "data": base64.b64encode(z).decode()})
EOF
echo "only 1,1" >"$TMP/sets"

# best NAME FILE: the best of 3 wall times (s) and its peak memory (MiB).
best() {
    b=""
    for i in 1 2 3; do
        if [ -x /usr/bin/time ]; then
            /usr/bin/time -f '%e %M' -o "$TMP/t" "$BIN/ffbuild" --goal-sets "$TMP/sets" --list "$2" \
                >/dev/null || return 1
            set -- "$1" "$2" $(cat "$TMP/t")
        else
            s=$(date +%s.%N)
            "$BIN/ffbuild" --goal-sets "$TMP/sets" --list "$2" >/dev/null || return 1
            set -- "$1" "$2" "$(echo "$(date +%s.%N) - $s" | bc)" 0
        fi
        if [ -z "$b" ] || [ "$(echo "$3 < $b" | bc)" = 1 ]; then b=$3 mem=$4; fi
        set -- "$1" "$2"
    done
    echo "$b $mem"
}

echo "bench_tiled: reading a 2048x2048 map (ffbuild --goal-sets --list), best of 3"
printf '%-12s %10s %8s %9s %8s\n' format bytes seconds "peak MiB" ratio
base=""
for f in map.ffmap csv.tmx zlib.tmx gzip.tmx array.tmj zstd.tmj; do
    [ -f "$TMP/$f" ] || { echo "$f: skipped (no zstd)"; continue; }
    r=$(best "$f" "$TMP/$f") || { echo "bench_tiled: $f could not be read" >&2; exit 1; }
    set -- $r
    [ -z "$base" ] && base=$1
    printf '%-12s %10s %8s %9s %8s\n' "$f" "$(wc -c <"$TMP/$f")" "$1" "$(($2 / 1024))" \
        "$(echo "scale=2; $1 / $base" | bc)"
done
