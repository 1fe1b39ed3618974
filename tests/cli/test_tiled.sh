#!/bin/sh
# ffbuild on Tiled maps (man 5 fftiled): each map of testdata/tiled/ gives
# byte for byte the field of its equivalent ffmap (distances, goals,
# spawns, map and distance ids), in every layer encoding and compression,
# with external tilesets, flipped tiles, layers, groups and objects; and
# every refused map gets one line, exit 2 and no output.
. "$(dirname "$0")/lib.sh"
D=$TD/tiled

# same_field NAME TILED FFMAP [OPTIONS]: the two give the same stream,
# binary and text, and the same direction field through ffdir.
same_field() {
    name=$1 tiled=$2 ffmap=$3
    shift 3
    run "$name: ffbuild reads it" 0 "$BIN/ffbuild --text $* $tiled >$TMP/tiled.txt"
    run "$name: ffbuild reads the ffmap" 0 "$BIN/ffbuild --text $* $ffmap >$TMP/ffmap.txt"
    same "$name: the same field as $(basename "$ffmap")" "$TMP/tiled.txt" "$TMP/ffmap.txt"
    "$BIN/ffbuild" "$@" "$tiled" | "$BIN/ffdir" >"$TMP/tiled.ff"
    "$BIN/ffbuild" "$@" "$ffmap" | "$BIN/ffdir" >"$TMP/ffmap.ff"
    same "$name: the same binary stream with directions" "$TMP/tiled.ff" "$TMP/ffmap.ff"
}

for f in hall.tmj hall-csv.tmx hall-base64.tmx hall-gzip.tmx hall-zlib.tmj hall-zstd.tmj \
         hall-flips.tmj hall-flips.tmx hall-layers.tmx hall-layers.tmj hall-objects.tmj; do
    same_field "$f" "$D/$f" "$D/hall.ffmap"
done
same_field "hall-zone.tmx (a goal rectangle, a Tiled 1.9 goal point)" "$D/hall-zone.tmx" "$D/hall-zone.ffmap"
same_field "hall-layers.tmx --layer floor" "$D/hall-layers.tmx" "$D/hall-floor.ffmap" --layer floor -g 2,2
same_field "hall-layers.tmj --layer floor" "$D/hall-layers.tmj" "$D/hall-floor.ffmap" --layer floor -g 2,2
same_field "classes.tmj (ground, water, trees; cell 2)" "$D/classes.tmj" "$D/classes.ffmap" -g 1,1
same_field "tiled-doc.tmj (Tiled's documented example)" "$D/tiled-doc.tmj" "$D/tiled-doc.ffmap"
same_field "dungeon.tmj (README)" "$D/dungeon.tmj" "$D/dungeon.ffmap"
same_field "dungeon.tmj, 4 moves, radius" "$D/dungeon.tmj" "$D/dungeon.ffmap" -m 4 -c cut -g 2,5

# The distances of the README's dungeon, worked by hand: a step costs the
# mean of its two cells' costs; the door (5,2) costs 3.
run "dungeon: distances" 0 "$BIN/ffbuild -m 4 --text $D/dungeon.tmj | tail -n 7"
check "dungeon: the door costs (1 + 3) / 2 each way" \
    "$(printf '%s\n' "$OUT" | sed -n 3p)" = "inf 8 7 6 5 3 1 0 1 inf"
check "dungeon: the spawn is 9 away" "$(printf '%s\n' "$OUT" | sed -n 6p | cut -d' ' -f2)" = 9
run "dungeon: a goal object and a spawn tile" 0 "$BIN/ffbuild --text $D/dungeon.tmj | sed -n '/^goal/p;/^spawn/p'"
check "dungeon: goal 7 2, spawn 1 5" "$OUT" = "goal 7 2
spawn 1 5"

# Standard input: an embedded tileset reads, an external one cannot.
run "stdin: embedded tilesets" 0 "$BIN/ffbuild --text - <$D/hall-base64.tmx >$TMP/stdin.txt"
"$BIN/ffbuild" --text "$D/hall.ffmap" >"$TMP/hall.txt"
same "stdin: the same field" "$TMP/stdin.txt" "$TMP/hall.txt"
refuse "stdin: an external tileset" \
    "^ffbuild: -:3: external tileset 'hall.tsx': a map read from standard input cannot have one" \
    "$BIN/ffbuild <$D/hall-csv.tmx"
# The map's folder, not the working one, holds its tilesets.
run "tilesets found from the map's folder" 0 "cd $TMP && $BIN/ffbuild $D/hall-csv.tmx >/dev/null"
# ffquery --map reads a Tiled map as ffbuild does.
"$BIN/ffbuild" "$D/dungeon.tmj" | "$BIN/ffdir" >"$TMP/dungeon.ff"
run "ffquery --map accepts the Tiled map of the field" 0 \
    "echo '1.5 5.5' | $BIN/ffquery --map $D/dungeon.tmj $TMP/dungeon.ff"
refuse "ffquery --map refuses another map" "the field was built from another map" \
    "echo '1.5 5.5' | $BIN/ffquery --map $D/hall.tmj $TMP/dungeon.ff"

# The unknown tile of the issue.
refuse "an unknown tile decides a cell" \
    "^ffbuild: $D/unknown.tmj: tile 7 of tileset 'hall' decides cell 4,2 but has no cost or wall property\$" \
    "$BIN/ffbuild $D/unknown.tmj"
refuse "--layer reads a hidden layer too" \
    "hall-layers.tmx: tile 7 of tileset 'hall' decides cell 0,0 but has no cost or wall" \
    "$BIN/ffbuild --layer notes $D/hall-layers.tmx"
refuse "--layer of no layer" "hall-layers.tmx: no tile layer is named 'nope'\$" \
    "$BIN/ffbuild --layer nope $D/hall-layers.tmx"

# Refusals: each a small map of its own.  tmj FILE BODY writes a JSON map
# of 2x1 cells with BODY's keys (they override), tmx FILE ATTRS DATA a TMX.
TS='{"firstgid":1,"name":"t","tilecount":2,"tiles":[{"id":0,"properties":[{"name":"cost","type":"float","value":1},{"name":"goal","type":"bool","value":true}]},{"id":1,"properties":[{"name":"wall","type":"bool","value":true}]}]}'
tmj() {
    printf '{"type":"map","width":2,"height":1,"tilewidth":8,"tileheight":8,"tilesets":[%s],"layers":[%s]%s}\n' \
        "${3:-$TS}" "${2:-{\"type\":\"tilelayer\",\"name\":\"g\",\"width\":2,\"height\":1,\"data\":[1,2]\}}" \
        "${4:-,\"orientation\":\"orthogonal\",\"infinite\":false}" >"$TMP/$1"
}
TSX='<tileset firstgid="1" name="t" tilecount="2"><tile id="0"><properties><property name="cost" type="float" value="1"/><property name="goal" type="bool" value="true"/></properties></tile><tile id="1"><properties><property name="wall" type="bool" value="true"/></properties></tile></tileset>'
tmx() {
    printf '<?xml version="1.0"?>\n%s<map width="2" height="1" tilewidth="8" tileheight="8" %s>\n%s\n<layer name="g" width="2" height="1">%s</layer>%s\n</map>\n' \
        "${5:-}" "${2:-orientation=\"orthogonal\"}" "$TSX" "$3" "${4:-}" >"$TMP/$1"
}
tmj ok.tmj
run "the small JSON map reads" 0 "$BIN/ffbuild $TMP/ok.tmj >/dev/null"
tmx ok.tmx '' '<data encoding="csv">1,2</data>'
run "the small TMX map reads" 0 "$BIN/ffbuild $TMP/ok.tmx >/dev/null"
tmx tiles.tmx '' '<data><tile gid="1"/><tile gid="2"/></data>'
run "TMX data as tile elements reads" 0 "$BIN/ffbuild $TMP/tiles.tmx >/dev/null"

tmj infinite.tmj '' '' ',"infinite":true'
refuse "infinite JSON map" "infinite.tmj: infinite map: this reads finite Tiled maps only" "$BIN/ffbuild $TMP/infinite.tmj"
tmx infinite.tmx 'orientation="orthogonal" infinite="1"' '<data encoding="csv">1,2</data>'
refuse "infinite TMX map" "infinite.tmx:2: infinite map" "$BIN/ffbuild $TMP/infinite.tmx"
tmj iso.tmj '' '' ',"orientation":"isometric"'
refuse "isometric map" "iso.tmj: isometric map: this reads orthogonal Tiled maps only" "$BIN/ffbuild $TMP/iso.tmj"
tmx hex.tmx 'orientation="hexagonal"' '<data encoding="csv">1,2</data>'
refuse "hexagonal map" "hex.tmx:2: hexagonal map" "$BIN/ffbuild $TMP/hex.tmx"
tmx enc.tmx '' '<data encoding="base32">AAAA</data>'
refuse "unknown encoding" "enc.tmx:4: tile layer 'g': unknown encoding 'base32' \\(this reads csv and base64\\)" "$BIN/ffbuild $TMP/enc.tmx"
tmx comp.tmx '' '<data encoding="base64" compression="lzma">AAAA</data>'
refuse "unknown compression" "comp.tmx:4: tile layer 'g': unknown compression 'lzma'" "$BIN/ffbuild $TMP/comp.tmx"
tmx short.tmx '' '<data encoding="base64">AQAAAA==</data>'
refuse "too few gids" "short.tmx:4: tile layer 'g': its data cannot hold the map's 2x1 cells" "$BIN/ffbuild $TMP/short.tmx"
tmx long.tmx '' '<data encoding="base64">AQAAAAIAAAABAAAA</data>'
refuse "too many gids" "long.tmx:4: tile layer 'g': too much data \\(the map has 2x1 cells\\)" "$BIN/ffbuild $TMP/long.tmx"
tmx count.tmx '' '<data encoding="csv">1,2,1</data>'
refuse "too many CSV gids" "count.tmx:4: tile layer 'g': more than the map's 2x1 cells" "$BIN/ffbuild $TMP/count.tmx"
tmx trunc.tmx '' '<data encoding="base64" compression="zlib">eJxjZGBgYAJiAAA=</data>'
refuse "truncated zlib data" "trunc.tmx:4: tile layer 'g': zlib truncated" "$BIN/ffbuild $TMP/trunc.tmx"
tmx entity.tmx '' '<data encoding="csv">1,2</data>' '' '<!DOCTYPE map [<!ENTITY a "1,2">]>'
refuse "entity declarations" "entity.tmx:2:[0-9]+: entity declaration 'a': Tiled files have none" "$BIN/ffbuild $TMP/entity.tmx"
printf '<map width="2"\n height="1" x=>\n' >"$TMP/badxml.tmx"
refuse "bad XML at its line and column" "badxml.tmx:2:[0-9]+: bad XML" "$BIN/ffbuild $TMP/badxml.tmx"
printf '{"type":"map",\n "width": 2,,}\n' >"$TMP/badjson.tmj"
refuse "bad JSON at its line and column" "badjson.tmj:2:[0-9]+: bad JSON" "$BIN/ffbuild $TMP/badjson.tmj"
printf '{"width":2,"width":3,"layers":[],"tilesets":[]}\n' >"$TMP/dup.tmj"
refuse "a repeated JSON key" "dup.tmj:1:[0-9]+: bad JSON: duplicate object key" "$BIN/ffbuild $TMP/dup.tmj"
printf '{"type":"tileset","name":"t"}\n' >"$TMP/notmap.tmj"
refuse "a tileset is not a map" "notmap.tmj: a JSON file of type 'tileset', not a Tiled map" "$BIN/ffbuild $TMP/notmap.tmj"
tmj gid.tmj '{"type":"tilelayer","name":"g","width":2,"height":1,"data":[1,5]}'
refuse "a gid past the tileset" "gid.tmj: gid 5 at cell 1,0 is past the 2 tiles of tileset 't'" "$BIN/ffbuild $TMP/gid.tmj"
tmj costwall.tmj '' '{"firstgid":1,"name":"t","tiles":[{"id":0,"properties":[{"name":"cost","type":"float","value":1},{"name":"wall","type":"bool","value":true}]}]}'
refuse "a wall with a cost" "costwall.tmj: tile 0 of tileset 't' is a wall with a cost property" "$BIN/ffbuild $TMP/costwall.tmj"
tmj negcost.tmj '' '{"firstgid":1,"name":"t","tiles":[{"id":0,"properties":[{"name":"cost","type":"float","value":-1}]}]}'
refuse "a negative cost" "negcost.tmj: cost -1 of tile 0 of tileset 't' must be a number from 0 to 3.4e38" "$BIN/ffbuild $TMP/negcost.tmj"
tmj strcost.tmj '' '{"firstgid":1,"name":"t","tiles":[{"id":0,"properties":[{"name":"cost","type":"string","value":"1"}]}]}'
refuse "a cost that is a string" "strcost.tmj: property 'cost' of tile 0 of tileset 't' is a string: it must be a float >= 0" "$BIN/ffbuild $TMP/strcost.tmj"
tmj oneway.tmj '' '{"firstgid":1,"name":"t","tiles":[{"id":0,"properties":[{"name":"cost","type":"float","value":1},{"name":"oneway","type":"string","value":"UP"}]}]}'
refuse "bad oneway" "oneway.tmj: oneway 'UP' of tile 0 of tileset 't'" "$BIN/ffbuild $TMP/oneway.tmj"
tmj old.tmj '' '{"firstgid":1,"name":"t","tileproperties":{"0":{"cost":1}}}'
refuse "Tiled's format before 1.2" "old.tmj: tilesets\\[0\\]: tileproperties are Tiled's format before 1.2" "$BIN/ffbuild $TMP/old.tmj"
tmj nolayer.tmj '{"type":"tilelayer","name":"g","width":2,"height":1,"visible":false,"data":[1,2]}'
refuse "no visible tile layer" "nolayer.tmj: no visible tile layer: every cell would be a wall" "$BIN/ffbuild $TMP/nolayer.tmj"
tmj size.tmj '{"type":"tilelayer","name":"g","width":3,"height":1,"data":[1,2,1]}'
refuse "a layer of another size" "size.tmj: tile layer 'g' is 3x1, the map 2x1" "$BIN/ffbuild $TMP/size.tmj"
tmj missing.tmj '' '{"firstgid":1,"source":"nowhere.tsj"}'
refuse "a missing external tileset" "missing.tmj: external tileset 'nowhere.tsj': .*nowhere.tsj: cannot open" "$BIN/ffbuild $TMP/missing.tmj"
tmj two.tmj '{"type":"tilelayer","name":"g","width":2,"height":1,"data":[1,2]},{"type":"tilelayer","name":"g","width":2,"height":1,"data":[1,2]}'
refuse "--layer of two layers of that name" "two.tmj: two tile layers are named 'g'" "$BIN/ffbuild --layer g $TMP/two.tmj"
OBJ='{"type":"tilelayer","name":"g","width":2,"height":1,"data":[1,2]},{"type":"objectgroup","name":"o","objects":[%s]}'
tmj wallgoal.tmj "$(printf "$OBJ" '{"id":4,"type":"goal","point":true,"x":12,"y":4}')"
refuse "a goal point on a wall" "wallgoal.tmj: goal object 4 is on a wall \\(cell 1,0\\)" "$BIN/ffbuild $TMP/wallgoal.tmj"
tmj outside.tmj "$(printf "$OBJ" '{"id":5,"type":"spawn","x":40,"y":0,"width":8,"height":8}')"
refuse "a spawn rectangle outside the map" "outside.tmj: spawn object 5 lies outside the map" "$BIN/ffbuild $TMP/outside.tmj"
tmj ellipse.tmj "$(printf "$OBJ" '{"id":6,"type":"goal","ellipse":true,"x":0,"y":0,"width":8,"height":8}')"
refuse "an ellipse goal" "ellipse.tmj: goal object 6 is an ellipse: only points and rectangles mark cells" "$BIN/ffbuild $TMP/ellipse.tmj"
tmj rotated.tmj "$(printf "$OBJ" '{"id":7,"type":"goal","x":0,"y":0,"width":8,"height":8,"rotation":45}')"
refuse "a rotated goal" "rotated.tmj: goal object 7 is rotated" "$BIN/ffbuild $TMP/rotated.tmj"
tmj walls.tmj "$(printf "$OBJ" '{"id":8,"type":"goal","x":9,"y":0,"width":6,"height":8}')"
refuse "a goal rectangle over walls only" "walls.tmj: goal object 8 covers only walls" "$BIN/ffbuild $TMP/walls.tmj"
finish
