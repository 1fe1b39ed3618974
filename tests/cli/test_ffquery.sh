#!/bin/sh
# ffquery from the command line: answers worked by hand (testdata/query/),
# --trace paths and their lengths, --check listings and statuses, --map,
# refusals, and the examples of the man page.
. "$(dirname "$0")/lib.sh"
Q=$TD/query
F=$TMP/f
mkdir -p "$F"
: >"$TMP/empty"
field() {  # field NAME FFBUILD-ARGS...: build NAME.ff with ffbuild | ffdir
    name=$1
    shift
    "$BIN/ffbuild" "$@" | "$BIN/ffdir" >"$F/$name.ff" || fail "build $name" "ffbuild $*"
}
field row "$Q/row.ffmap"
field corner -c free "$Q/corner.ffmap"
field maze "$Q/maze.ffmap"
field maze-cut -c cut "$Q/maze.ffmap"
field pockets "$Q/pockets.ffmap"
field gap "$Q/gap.ffmap"
field gap-r -r 0.8 "$Q/gap.ffmap"
field arena -g 5,5 "$TD/movingai/arena.map"

# ---- directions: row.ffmap has cells of 2 units from x = -4 (cell i spans
# -4+2i .. -2+2i), all pointing east, distances 8 6 4 2 0.  By hand:
#   -3 2      center of cell 0                     1 0, distance 8
#   0 2       border of cells 1 and 2, in cell 2   1 0, distance 4
#   -3.5 1.2  the north-west corner of the map      1 0 (only cell 0 inside), 8
#   -5 2      outside, west: every sample outside  0 0 inf
#   5 2       center of the goal: its own sample   0 0 (a goal has none), 0
#   4.5 2     in the goal, a quarter from cell 3   1 0 (cell 3 weighs 1/4), 0
#   2 0.5     above the map, half a cell from row 0: row 0 weighs 1/4: 1 0, inf
run "row: -d" 0 "$BIN/ffquery -d $F/row.ff < $Q/row-positions.txt > $TMP/res"
same "row: directions and distances by hand" "$TMP/res" "$Q/row-d.expected"
run "row: --raw" 0 "$BIN/ffquery --raw $F/row.ff < $Q/row-positions.txt > $TMP/res"
same "row: raw cell directions by hand" "$TMP/res" "$Q/row-raw.expected"
# corner.ffmap with free corners: E at 0,0, NE at 0,1, N at 1,1, goal 1,0.
#   1 1     the common corner: (E + NE + N) / 4 points NE; cell 1,1 is 1 away
#   0.5 1.5 center of 0,1: NE; sqrt2 away
#   0.5 1   between 0,0 (E) and 0,1 (NE), half each: 22.5 degrees north of
#           east, (cos pi/8, -sin pi/8); the cell is 0,1
run "corner: -d" 0 "$BIN/ffquery -d $F/corner.ff < $Q/corner-positions.txt > $TMP/res"
same "corner: blends by hand" "$TMP/res" "$Q/corner-d.expected"
run "unit vectors" 0 "awk 'BEGIN{srand(3); for(i=0;i<2000;i++) printf \"%.3f %.3f\\n\", rand()*52-1, rand()*52-1}' | $BIN/ffquery $F/arena.ff"
bad=$(printf '%s\n' "$OUT" | awk '{l = sqrt($1*$1 + $2*$2)} !(($1 == 0 && $2 == 0) || (l > 1 - 1e-8 && l < 1 + 1e-8)) {n++} END {print n + 0}')
check "2000 answers, each a unit vector or 0 0" "$(printf '%s\n' "$OUT" | wc -l)-$bad" = "2000-0"

# --binary: 0.5 and 1 as little-endian doubles; cell 0 of row.ff at -3 2.
# -3 = c0 08 00..., 2 = 40 00 00...; the answer 1 0 8.
printf '\000\000\000\000\000\000\010\300\000\000\000\000\000\000\000\100' >"$TMP/q.bin"
run "--binary -d" 0 "$BIN/ffquery --binary -d $F/row.ff < $TMP/q.bin | od -An -tx1 | tr -s ' \n' ' '"
check "--binary answers 1 0 8 in f64" "$OUT" = " 00 00 00 00 00 00 f0 3f 00 00 00 00 00 00 00 00 00 00 00 00 00 00 20 40 "
run "binary agrees with text" 0 "awk 'BEGIN{srand(5); for(i=0;i<300;i++) printf \"%.4f %.4f\\n\", rand()*50, rand()*50}' > $TMP/p.txt"
perl -ne 'print pack("d<d<", split)' "$TMP/p.txt" >"$TMP/p.bin" 2>/dev/null
if [ -s "$TMP/p.bin" ]; then
    "$BIN/ffquery" -d "$F/arena.ff" <"$TMP/p.txt" >"$TMP/t.out"
    "$BIN/ffquery" -d --binary "$F/arena.ff" <"$TMP/p.bin" |
        perl -e 'binmode STDIN; local $/ = \24; while (<STDIN>) { printf "%.9g %.9g %.9g\n", unpack "d<3" }' |
        sed 's/Inf/inf/g' >"$TMP/b.out"
    same "binary answers print as the text answers" "$TMP/t.out" "$TMP/b.out"
fi

# A multi-field stream: --name chooses, --list names, no name is refused.
printf 'a 10,10\nb 40,40\n' >"$TMP/sets.txt"
"$BIN/ffbuild" --goal-sets "$TMP/sets.txt" "$TD/movingai/arena.map" | "$BIN/ffdir" >"$F/two.ff"
"$BIN/ffbuild" -g 40,40 "$TD/movingai/arena.map" | "$BIN/ffdir" >"$F/b.ff"
refuse "two fields and no --name" "ffquery: $F/two.ff: the stream holds 2 fields \\(a, b\\)" \
    "printf '20.5 20.5\n' | $BIN/ffquery -d $F/two.ff"
run "two fields: --name b" 0 "printf '20.5 20.5\n' | $BIN/ffquery -d --name b $F/two.ff"
named=$OUT
run "the field b alone" 0 "printf '20.5 20.5\n' | $BIN/ffquery -d $F/b.ff"
check "--name answers from the named field" "$named" = "$OUT"
run "--list" 0 "$BIN/ffquery --list $F/two.ff"
check "--list names the fields" "$OUT" = "a
b"
# --check takes a distance field straight from ffbuild (the CI recipe).
"$BIN/ffbuild" -g 40,40 "$TD/movingai/arena.map" >"$F/b-dist.ff"
printf '20 20\n0 0\n' >"$TMP/cells.txt"
run "--check on ffdir's field" 1 "$BIN/ffquery --check $F/b.ff <$TMP/cells.txt"
withdir=$OUT
run "--check on ffbuild's field" 1 "$BIN/ffquery --check $F/b-dist.ff <$TMP/cells.txt"
check "--check answers alike without directions" "$withdir" = "$OUT"
refuse "positions need directions" "run ffdir" "printf '1 1\n' | $BIN/ffquery $F/b-dist.ff"

# ---- --trace: maze.ffmap (cells of 2, origin -10 4), from 1,3 to 3,3.
# Strict corners allow no diagonal there: 11 cells, 10 steps, 20 units.
# Cutting corners: 8 cells, 4 + 3 sqrt2 cells = 8 + 6 sqrt2 units.
length() {  # sum of the steps between the points of a path on stdin
    awk 'NR > 1 {s += sqrt(($1-x)^2 + ($2-y)^2)} {x = $1; y = $2} END {printf "%.9g\n", s}'
}
run "trace strict" 0 "$BIN/ffquery --trace 1,3 $F/maze.ff > $TMP/res"
same "trace strict: the path by hand" "$TMP/res" "$Q/maze-strict.expected"
check "trace strict: length 20" "$(length <"$TMP/res")" = 20
run "trace cut" 0 "$BIN/ffquery --trace 1,3 - < $F/maze-cut.ff > $TMP/res"
same "trace cut: the path by hand" "$TMP/res" "$Q/maze-cut.expected"
check "trace cut: length 8 + 6 sqrt2" "$(length <"$TMP/res")" = "$(awk 'BEGIN{printf "%.9g\n", 8 + 6 * sqrt(2)}')"
run "distance of the start" 0 "printf -- '-7 11\n' | $BIN/ffquery -d $F/maze-cut.ff"
check "trace cut: length is the start's distance" "$(printf '%s\n' "$OUT" | cut -d' ' -f3)" = "$(length <"$TMP/res")"
# From every open cell of the arena: legal steps (one cell, 8 neighbours),
# ends at the goal 5,5, length equal to the distance (9 digits).
bad=0
for c in 20,20 40,40 3,30 46,3 25,10 10,44; do
    "$BIN/ffquery" --trace "$c" "$F/arena.ff" >"$TMP/path" || { bad=$((bad + 1)); continue; }
    steps=$(awk 'NR > 1 {dx = $1 - x; dy = $2 - y; if (dx < 0) dx = -dx; if (dy < 0) dy = -dy; if (dx > 1 || dy > 1 || dx + dy == 0) print "bad"} {x = $1; y = $2}' "$TMP/path")
    last=$(tail -n 1 "$TMP/path")
    d=$(head -n 1 "$TMP/path" | "$BIN/ffquery" -d "$F/arena.ff" | cut -d' ' -f3)
    [ -z "$steps" ] && [ "$last" = "5.5 5.5" ] && [ "$d" = "$(length <"$TMP/path")" ] || bad=$((bad + 1))
done
check "arena traces: legal, end at the goal, length = distance" "$bad" = 0
run "trace from the goal" 0 "$BIN/ffquery --trace 3,3 $F/maze.ff"
check "trace from the goal is the goal" "$OUT" = "-3 11"
run "trace from a wall" 1 "$BIN/ffquery --trace 0,0 $F/maze.ff"
check "trace from a wall: no path, one message" "$OUT-$(printf '%s\n' "$ERR" | wc -l)" = "-1"
check "trace from a wall says blocked" "$(printf '%s\n' "$ERR" | grep -c 'cell 0,0 is blocked')" = 1
run "trace from a pocket" 1 "$BIN/ffquery --trace 5,1 $F/pockets.ff"
check "trace from a pocket says so" "$ERR" = "ffquery: $F/pockets.ff: cell 5,1 cannot reach a goal"
check "trace from a pocket prints no path" -z "$OUT"
# A hand-edited direction is refused like a stale one (issue 21): code 8
# ("at a goal") on the corner cell 0,0 of small.ffmap, at distance 4, and
# an uphill step (S from 0,0, onto a cell farther from the goal) instead
# of its own; the ids are left as written.
"$BIN/ffbuild" -m 4 --text "$TD/demo/small.ffmap" | "$BIN/ffdir" --text >"$TMP/small.ff"
check "small: the direction's first row" "$(tail -n 5 "$TMP/small.ff" | head -n 1)" = "1 1 2 9 2"
n=$(wc -l <"$TMP/small.ff")
sed "$((n - 4))s/^1 /8 /" "$TMP/small.ff" >"$TMP/edit8.ff"
refuse "trace: a hand-edited goal code" "ffquery: $TMP/edit8.ff: the direction channel does not match 'id direction" \
    "$BIN/ffquery --trace 0,0 $TMP/edit8.ff"
sed "$((n - 4))s/^1 /2 /" "$TMP/small.ff" >"$TMP/edit-up.ff"
refuse "trace: a hand-edited uphill step" "rerun ffdir" "$BIN/ffquery --trace 0,0 $TMP/edit-up.ff"
refuse "directions: a hand-edited field" "does not match 'id direction" \
    "printf '0.5 0.5\n' | $BIN/ffquery $TMP/edit8.ff"
refuse "trace outside" "cell 7,9 is outside the 7x5 map" "$BIN/ffquery --trace 7,9 $F/maze.ff"
refuse "trace at negative cell" "outside" "$BIN/ffquery --trace -1,2 $F/maze.ff"

# ---- --check
run "check pockets" 1 "$BIN/ffquery --check $F/pockets.ff < $Q/pockets-spawns.txt > $TMP/res"
same "check pockets: listing by hand" "$TMP/res" "$Q/pockets-check.expected"
run "check all reach" 0 "printf '1 1\n3 2\n2 3\n' | $BIN/ffquery --check $F/pockets.ff"
check "check all reach: silent" -z "$OUT$ERR"
refuse "check nothing: refused" "^ffquery: -: no positions to check" "$BIN/ffquery --check $F/pockets.ff < $TMP/empty"
run "check gap, radius 0" 0 "$BIN/ffquery --check $F/gap.ff < $Q/gap-spawns.txt"
run "check gap, radius 0.8" 1 "$BIN/ffquery --check $F/gap-r.ff < $Q/gap-spawns.txt > $TMP/res"
same "check gap, radius 0.8: the west room is cut off" "$TMP/res" "$Q/gap-r0.8.expected"
refuse "check: not a number" "^ffquery: -:2:5: '3x' is not a number" "printf '1 1\n2.5 3x\n' | $BIN/ffquery --check $F/pockets.ff"
# World positions in maze.ffmap (cells of 2 from -10,4; cell x,y spans
# [-10+2x, -8+2x) x [4+2y, 6+2y)), by hand: -7.0 11 is in cell 1,3 (reaches
# the goal), -3 9.9 in 3,2 (a wall), -4.5,5 in 2,0 (a wall), 4.0 5 in 7,0
# (outside); 1 3 is the cell 1,3; 3 2 the cell, a wall.
run "check world positions" 1 "printf -- '-7.0 11\n-3 9.9\n-4.5,5\n4.0 5\n1 3\n3 2\n' | $BIN/ffquery --check $F/maze.ff"
check "check world positions: listed as given" "$OUT" = "-3.0 9.9 blocked
-4.5 5.0 blocked
4.0 5.0 outside
3 2 blocked"
printf '%s\n' "$OUT" | cut -d' ' -f1,2 >"$TMP/listed"
run "check world positions read back" 1 "$BIN/ffquery --check $F/maze.ff < $TMP/listed"
check "check world positions read back: the same listing" "$OUT" = "-3.0 9.9 blocked
-4.5 5.0 blocked
4.0 5.0 outside
3 2 blocked"
# --trace from a world position: the path of the cell it lies in.
run "trace from a world position" 0 "$BIN/ffquery --trace -6.5,10.2 $F/maze.ff > $TMP/res"
same "trace from a world position: the cell's path" "$TMP/res" "$Q/maze-strict.expected"
run "trace from a world position with a blank" 0 "$BIN/ffquery --trace '-7.0 11.0' $F/maze.ff > $TMP/res"
same "trace from -7.0 11.0: cell 1,3's path" "$TMP/res" "$Q/maze-strict.expected"
refuse "trace: a world position outside" \
    "^ffquery: $F/maze.ff: --trace 4.0,5: the world position lies outside the 7x5 map \\(cell 7,0\\)$" \
    "$BIN/ffquery --trace 4.0,5 $F/maze.ff"
refuse "trace: not a place" "^ffquery: --trace '1,x': not a cell X,Y or a world position x.x,y.y" \
    "$BIN/ffquery --trace 1,x $F/maze.ff"
# The corner path of an any-angle field from a world position: that of
# the cell it lies in.
"$BIN/ffbuild" --any-angle "$TD/anyangle/gap.ffmap" | "$BIN/ffdir" >"$F/gap-aa.ff"
"$BIN/ffquery" --trace 0,0 "$F/gap-aa.ff" >"$TMP/aa-cell"
run "any-angle trace from a world position" 0 "$BIN/ffquery --trace 0.75,0.25 $F/gap-aa.ff > $TMP/aa-world"
same "any-angle trace from 0.75,0.25: cell 0,0's corner path" "$TMP/aa-world" "$TMP/aa-cell"

# ---- --map
run "--map, the right map" 1 "$BIN/ffquery --map $Q/pockets.ffmap --check $F/pockets.ff < $Q/pockets-spawns.txt > $TMP/discard"
refuse "--map, another map" "map id [0-9a-f]{16} is not .*gap.ffmap's map id [0-9a-f]{16}" \
    "$BIN/ffquery --map $Q/gap.ffmap --check $F/pockets.ff < $Q/pockets-spawns.txt"
run "--map with the field's radius" 0 "printf '8.5 2.5\n' | $BIN/ffquery --map $Q/gap.ffmap $F/gap-r.ff"
field gap-r1 -r 1 "$Q/gap.ffmap"
sed 's/^#\.\.\.\.#\.\.\.\.#$/#....##...#/' "$Q/gap.ffmap" >"$TMP/gap2.ffmap"
refuse "--map, one cell changed" "is not .*gap2.ffmap's map id" "$BIN/ffquery --map $TMP/gap2.ffmap --trace 8,2 $F/gap.ff"
refuse "--map with trace" "map id" "$BIN/ffquery --map $Q/row.ffmap --trace 1,3 $F/maze.ff"
run "--map, a Moving AI map" 0 "$BIN/ffquery --map $TD/movingai/arena.map --trace 5,5 $F/arena.ff"
refuse "--map, another Moving AI map" "map id" "$BIN/ffquery --map $TD/movingai/arena2.map --trace 5,5 $F/arena.ff"

# ---- bad input
refuse "malformed line" "^ffquery: -:1:3: 'x' is not a number$" "printf '1 x\n2 2\n' | $BIN/ffquery $F/row.ff"
refuse "malformed after comments" "^ffquery: -:3:1: " "printf '# c\n\nfoo 1\n' | $BIN/ffquery $F/row.ff"
refuse "three numbers" "^ffquery: -:1:5: more than 2 numbers" "printf '1 2 3\n' | $BIN/ffquery $F/row.ff"
refuse "one number" "^ffquery: -:2: 1 number on the line" "printf '\n7\n' | $BIN/ffquery $F/row.ff"
refuse "not finite" "^ffquery: -:1:3: 'nan' is not a finite number" "printf '1 nan\n' | $BIN/ffquery $F/row.ff"
run "answers before a bad line stand" 2 "printf -- '-3 2\nbad\n' | $BIN/ffquery $F/row.ff"
check "answers before a bad line stand: output" "$OUT" = "1 0"
refuse "binary: truncated" "^ffquery: -: byte 16: truncated position: 3 of 16 bytes" \
    "{ cat $TMP/q.bin; printf 'abc'; } | $BIN/ffquery --binary $F/row.ff > $TMP/discard"
"$BIN/ffbuild" "$Q/row.ffmap" >"$F/nodir.ff"
refuse "no direction channel" "no direction channel: run ffdir" "printf '1 1\n' | $BIN/ffquery $F/nodir.ff"
refuse "no direction channel, trace" "run ffdir" "$BIN/ffquery --trace 0,0 $F/nodir.ff"
refuse "a map is not a field" "^ffquery: .*row.ffmap" "printf '1 1\n' | $BIN/ffquery $Q/row.ffmap"
refuse "missing field file" "cannot open" "$BIN/ffquery $F/nothere.ff < $TMP/empty"
refuse "empty field" "empty input" "$BIN/ffquery --trace 1,1 < $TMP/empty"
run "FIELD on stdin with positions" 2 "printf '1 1\n' | $BIN/ffquery - "
check "FIELD on stdin: says why" "$(printf '%s\n' "$ERR" | grep -c "FIELD '-': it must be a file")" = 1
check "FIELD on stdin: no output" -z "$OUT"
run "no FIELD" 2 "$BIN/ffquery < $F/row.ff"
check "no FIELD: says why" "$(printf '%s\n' "$ERR" | grep -c "FIELD '-': it must be a file")" = 1
run "--check with FIELD on stdin" 2 "$BIN/ffquery --check < $F/row.ff"
run "bad --trace" 2 "$BIN/ffquery --trace 1 $F/row.ff"
run "--trace with --check" 2 "$BIN/ffquery --trace 1,1 --check $F/row.ff"
run "--raw with --trace" 2 "$BIN/ffquery --raw --trace 1,1 $F/row.ff"
refuse "--max-cells" "45|cells" "$BIN/ffquery --max-cells 44 --trace 1,1 $F/pockets.ff"
run "--max-cells, enough" 0 "$BIN/ffquery --max-cells 45 --trace 1,1 $F/pockets.ff"
run "two fields given" 2 "$BIN/ffquery $F/row.ff $F/row.ff < $TMP/empty"
run "--help" 0 "$BIN/ffquery --help"
check "--help on stdout" "$(printf '%s\n' "$OUT" | grep -c '^usage: ffquery')" = 1
run "--version" 0 "$BIN/ffquery --version"
run "write error" 3 "printf '1 1\n' | $BIN/ffquery $F/row.ff > /dev/full"
[ -w /dev/full ] || echo "# /dev/full missing: the write error check means little"

# ---- the man page: options as --help lists them; every example runs and
# prints what the page shows (the convention of tests/cli/test_docs.sh).
page=man/man1/ffquery.1
help=$("$BIN/ffquery" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
doc=$(grep '^\.It Fl' "$page" | grep -o 'Fl -[a-z][a-z-]*' | sed 's/^Fl /-/' | sort -u)
check "ffquery: --help and the page list the same long options" "$help" = "$doc"
for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
    check "ffquery.1 has $s" "$(grep -c "^\.Sh $s\$" "$page")" = 1
done
mkdir -p "$TMP/ex" "$TMP/root"
ln -s "$BIN" "$TMP/root/bin"
ln -s "$TD" "$TMP/root/testdata"
awk -v dir="$TMP/ex" '
    function unescape(s) { gsub(/\\&/, "", s); gsub(/\\-/, "-", s); gsub(/\\e/, "\\", s); return s }
    /^\.Sh / { inex = ($0 == ".Sh EXAMPLES"); next }
    inex && /^\.Bd -literal/ { lit = 1; file = ""; next }
    inex && /^\.Ed/ { lit = 0; next }
    !lit { next }
    {
        line = unescape($0)
        if (line ~ /^\$ /) {
            n++
            file = dir "/" n
            printf "%s\n", substr(line, 3) > (file ".cmd")
            printf "" > (file ".want")
        } else if (line ~ /^> / && file != "") printf "%s\n", substr(line, 3) >> (file ".cmd")
        else if (file != "") printf "%s\n", line >> (file ".want")
    }
    END { print n + 0 > (dir "/count") }' "$page"
count=$(cat "$TMP/ex/count")
check "ffquery.1 has examples" "$count" -ge 6
k=1
while [ "$k" -le "$count" ]; do
    (cd "$TMP/root" && PATH="$TMP/root/bin:$PATH" sh -c "$(cat "$TMP/ex/$k.cmd")") >"$TMP/got" 2>&1
    first=$(head -n 1 "$TMP/ex/$k.cmd" | tr -d '\\')
    if cmp -s "$TMP/got" "$TMP/ex/$k.want"; then
        pass "example: $first"
    else
        fail "example: $first" "$(diff "$TMP/ex/$k.want" "$TMP/got" | head -n 6)"
    fi
    k=$((k + 1))
done
# ---- turn-cost fields (ffbuild(1), "Turn costs"): the worked example,
# each 45-degree turn costing 1.  By hand, at S (0,0): heading S (2)
# 10.875, the edge with one right angle; heading E (1) a right angle more,
# 12.875; heading N (0) turns about, 14.875; without H the best, S.
field zigzag -m 4 --turn-cost 1 "$TD/turn/zigzag.ffmap"
run "turn: x y H lines" 0 "printf '0.5 0.5\\n0.5 0.5 1\\n0.5 0.5 0\\n0.5 0.5 2\\n' | $BIN/ffquery --raw -d $F/zigzag.ff"
check "turn: each line its state's direction and distance" "$OUT" = "0 1 10.875
0 1 12.875
0 1 14.875
0 1 10.875"
# From 1,0 heading W: on west to 0,0 (1), a right angle south (2), then
# the edge; heading E: a wall ahead, so a right angle south and the stairs
# or back round: the path of the state, which differs.
run "turn: --trace --heading W" 0 "$BIN/ffquery --trace 1,0 --heading W $F/zigzag.ff"
check "turn: the state's path" "$(echo "$OUT" | paste -sd ' ' -)" = "1.5 0.5 0.5 0.5 0.5 1.5 0.5 2.5 0.5 3.5 0.5 4.5 1.5 4.5 2.5 4.5 3.5 4.5 4.5 4.5"
run "turn: --trace --heading 3" 0 "$BIN/ffquery --trace 1,0 --heading 3 $F/zigzag.ff"
check "turn: a heading by code or by name" "$(echo "$OUT" | paste -sd ' ' -)" = "1.5 0.5 0.5 0.5 0.5 1.5 0.5 2.5 0.5 3.5 0.5 4.5 1.5 4.5 2.5 4.5 3.5 4.5 4.5 4.5"
run "turn: --trace without --heading: the best state's" 0 "$BIN/ffquery --trace 0,0 $F/zigzag.ff"
check "turn: the one turn" "$(echo "$OUT" | paste -sd ' ' -)" = "0.5 0.5 0.5 1.5 0.5 2.5 0.5 3.5 0.5 4.5 1.5 4.5 2.5 4.5 3.5 4.5 4.5 4.5"
refuse "turn: a heading of 8" "-:1: heading 8 is not a direction code 0 to 7" \
    "printf '0.5 0.5 8\\n' | $BIN/ffquery $F/zigzag.ff"
refuse "turn: --heading on a field without headings" "no headings" \
    "$BIN/ffquery --trace 0,0 --heading 1 $F/row.ff"
refuse "turn: a bad --heading" "--heading 'NNE'" "$BIN/ffquery --trace 0,0 --heading NNE $F/zigzag.ff"
refuse "turn: --heading without --trace" "it goes with --trace" "$BIN/ffquery --heading 1 $F/zigzag.ff < /dev/null"
refuse "turn: x y H on a field without headings" "-:1:" "printf '0 2 1\\n' | $BIN/ffquery $F/row.ff"

if command -v mandoc >/dev/null 2>&1; then
    run "mandoc -Tlint ffquery.1" 0 "mandoc -Tlint -Wwarning $page"
    check "mandoc -Tlint ffquery.1 is silent" -z "$OUT$ERR"
fi
finish
