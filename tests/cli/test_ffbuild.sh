#!/bin/sh
# ffbuild and ffdir from the command line: results, refusals, atomic -o.
. "$(dirname "$0")/lib.sh"
B=$TD/bad

# The seeds' 5x5 example, 4 moves: distances by hand.
cat >"$TMP/seed.map" <<'MAP'
ffmap 1
legend . 1
legend # wall
legend G goal 1
map
...#.
.#.#.
..G..
#.##.
.....
MAP
run "seed map builds" 0 "$BIN/ffbuild -m 4 --text $TMP/seed.map"
dist=$(printf '%s\n' "$OUT" | awk '/^end$/{e=1;next} e{n++} e&&n>5&&n<=10')
want='4 3 2 inf 4
3 inf 1 inf 3
2 1 0 1 2
inf 2 inf inf 3
4 3 4 5 4'
check "seed distances by hand" "$dist" = "$want"

run "seed directions" 0 "$BIN/ffbuild -m 4 $TMP/seed.map | $BIN/ffdir --text"
dirs=$(printf '%s\n' "$OUT" | awk '/^end$/{e=1;next} e{n++} e&&n>10')
# (0,0) D=4: E (1,0) has 3, S (0,1) has 3: E comes first in N E S W.
wantd='1 1 2 9 2
2 9 2 9 2
1 1 8 3 3
9 0 9 9 0
1 0 3 1 0'
check "seed directions by tie-break" "$dirs" = "$wantd"

# Goals: -g replaces the map's goal tiles; --goals reads a file.
run "goal by -g" 0 "$BIN/ffbuild -m 4 -g 0,0 --text $TMP/seed.map"
check "-g replaces goal tiles" "$(printf '%s\n' "$OUT" | grep -c '^goal ')" = 1
check "-g goal is 0,0" "$(printf '%s\n' "$OUT" | grep '^goal ')" = "goal 0 0"
printf '# two goals\n0 0\n4 4\n' >"$TMP/goals.txt"
run "goals file" 0 "$BIN/ffbuild --goals $TMP/goals.txt --text $TMP/seed.map"
check "two goals" "$(printf '%s\n' "$OUT" | grep -c '^goal ')" = 2

# Text and binary carry the same bits; ffdir accepts both.
"$BIN/ffbuild" -g 10,10 "$TD/movingai/arena.map" >"$TMP/a.ff"
"$BIN/ffbuild" -g 10,10 --text "$TD/movingai/arena.map" >"$TMP/a.txt"
"$BIN/ffdir" "$TMP/a.ff" >"$TMP/d1.ff"
"$BIN/ffdir" "$TMP/a.txt" >"$TMP/d2.ff"
same "ffdir same from text and binary" "$TMP/d1.ff" "$TMP/d2.ff"
"$BIN/ffdir" --text "$TMP/d1.ff" | "$BIN/ffdir" >"$TMP/d3.ff"
same "binary -> text -> binary" "$TMP/d1.ff" "$TMP/d3.ff"
"$BIN/ffbuild" -g 10,10 "$TD/movingai/arena.map" >"$TMP/a2.ff"
same "deterministic output" "$TMP/a.ff" "$TMP/a2.ff"

# ffdir passes an unknown channel through untouched.
cat >"$TMP/extra.ff" <<'FF'
ff 1
size 3 1
channel cost f32
channel heat f64
encoding text
end
1 1 1
0.25 -7 1e300
FF
run "extra channel kept through ffbuild? (map only)" 0 "$BIN/ffbuild -g 0,0 --text $TMP/extra.ff"
printf 'ff 1\nsize 3 1\ngoal 0 0\nchannel cost f32\nchannel distance f64\nchannel heat f64\n' >"$TMP/x.ff"
id=$(printf '%s\n' "$OUT" | sed -n 's/^id distance //p')
printf 'id distance %s\nencoding text\nend\n1 1 1\n0 1 2\n0.25 -7 1e300\n' "$id" >>"$TMP/x.ff"
run "ffdir on a stream with an unknown channel" 0 "$BIN/ffdir --text $TMP/x.ff"
check "heat declared" "$(printf '%s\n' "$OUT" | grep -c '^channel heat f64$')" = 1
check "heat values unchanged" "$(printf '%s\n' "$OUT" | tail -n 1)" = "0.25 -7 1.0000000000000001e+300"

# Refusals: one line naming file and place, exit 2, nothing on stdout.
# Cell sizes and origins where the search's arithmetic would overflow
# (a step of inf, a bucket index out of range) are refused; the bounds
# themselves are fine, and give the distances they should.
cellmap() { printf 'ffmap 1\ncell %s\norigin %s\nlegend . 1\nlegend G goal 1\nmap\n..G\n' "$1" "${2:-0 0}"; }
for c in 1e-320 1e-7 1e308 2e6 0 -1 inf; do
    cellmap "$c" >"$TMP/cell.ffmap"
    refuse "cell $c refused" "^ffbuild: $TMP/cell.ffmap:2:6: cell size '$c' must be a number from 1e-06 to 1e\\+06" \
        "$BIN/ffbuild $TMP/cell.ffmap"
done
for o in '1e13 0' '0 -1e300'; do
    cellmap 1 "$o" >"$TMP/cell.ffmap"
    refuse "origin $o refused" "^ffbuild: $TMP/cell.ffmap:3:8: origin '$o' wants two numbers" \
        "$BIN/ffbuild $TMP/cell.ffmap"
done
for c in 1e-6 1e6; do
    cellmap "$c" '-1e12 1e12' >"$TMP/cell.ffmap"
    run "cell $c accepted" 0 "$BIN/ffbuild --text $TMP/cell.ffmap | $BIN/ffdir | $BIN/ffquery --trace 0,0 -"
    check "cell $c: the path" "$(printf '%s' "$OUT" | wc -l)" = 2
done
printf 'ff 1\nsize 1 1\ncell 1e308\nchannel cost f32\nencoding text\nend\n1\n' >"$TMP/cell.ff"
refuse "stream: cell 1e308 refused" "^ffbuild: $TMP/cell.ff:3: 'cell' wants one number from 1e-06 to 1e\\+06" \
    "$BIN/ffbuild $TMP/cell.ff"
refuse "unknown tile" "^ffbuild: $B/unknown_tile.map:6:2: unknown tile 'x'" "$BIN/ffbuild -g 0,1 $B/unknown_tile.map"
refuse "ragged rows" "^ffbuild: $B/ragged.map:5:3: .*ragged" "$BIN/ffbuild -g 0,0 $B/ragged.map"
refuse "ragged Moving AI rows" "^ffbuild: $B/ragged_movingai.map:6:3: .*ragged" "$BIN/ffbuild -g 0,0 $B/ragged_movingai.map"
refuse "negative cost" "^ffbuild: $B/negative_cost.map:2:10: cost '-1'" "$BIN/ffbuild -g 0,0 $B/negative_cost.map"
refuse "NaN cost" "^ffbuild: $B/nan_cost.map:2:10: cost 'nan'" "$BIN/ffbuild -g 0,0 $B/nan_cost.map"
refuse "missing cost" "^ffbuild: $B/missing_cost.map:2:8: missing cost for tile '.'" "$BIN/ffbuild -g 0,0 $B/missing_cost.map"
refuse "goal outside" "^ffbuild: -g: goal 9,0 is outside the 3x2 map" "$BIN/ffbuild -g 9,0 $B/small.map"
refuse "goal on a wall" "^ffbuild: -g: goal 1,0 is on a blocked cell" "$BIN/ffbuild -g 1,0 $B/small.map"
refuse "no goal" "^ffbuild: .*no goal" "$BIN/ffbuild $B/small.map"
refuse "too large" "^ffbuild: $B/huge.map:[0-9]+: size 100000 x 100000 is more than" "$BIN/ffbuild -g 0,0 $B/huge.map"
refuse "bad goal syntax" "^ffbuild: -g '3': not a cell X,Y \\(see ffbuild --help\\)$" "$BIN/ffbuild -g 3 $B/small.map"
refuse "bad moves" "^ffbuild: --moves '6': not 4 or 8" "$BIN/ffbuild -m 6 -g 0,0 $B/small.map"
refuse "missing file" "^ffbuild: $TMP/none.map: cannot open" "$BIN/ffbuild -g 0,0 $TMP/none.map"
printf '0 0\n1 x\n' >"$TMP/badgoals.txt"
refuse "bad goals file" "^ffbuild: $TMP/badgoals.txt:2:3: 'x' is not a number" "$BIN/ffbuild --goals $TMP/badgoals.txt $B/small.map"

# Streams that ffdir refuses.
refuse "bad magic" "^ffdir: -:1:1: bad magic" "printf 'P5\n3 1\n' | $BIN/ffdir"
refuse "unknown encoding" "^ffdir: -:5: unknown encoding 'zip'" "printf 'ff 1\nsize 1 1\nchannel cost f32\nchannel distance f64\nencoding zip\nend\n' | $BIN/ffdir"
head -c 300 "$TMP/a.ff" >"$TMP/trunc.ff"
refuse "truncated payload" "^ffdir: $TMP/trunc.ff: byte [0-9]+: truncated payload" "$BIN/ffdir $TMP/trunc.ff"
refuse "token not a number" "^ffdir: -:7:3: channel 'cost': 'abc' is not a f32" "printf 'ff 1\nsize 2 1\nchannel cost f32\nchannel distance f64\nencoding text\nend\n1 abc\n0 1\n' | $BIN/ffdir"
refuse "no distance" "^ffdir: -: the stream has no distance channel" "printf 'ff 1\nsize 2 1\nchannel cost f32\nencoding text\nend\n1 1\n' | $BIN/ffdir"
refuse "empty input" "^ffdir: -: empty input" "$BIN/ffdir </dev/null"

# -o: a failed run leaves no file, and an earlier file survives whole.
run "-o writes" 0 "$BIN/ffbuild -g 0,0 -o $TMP/out.ff $B/small.map"
check "-o file exists" -s "$TMP/out.ff"
cp "$TMP/out.ff" "$TMP/keep.ff"
refuse "-o failing run" "goal 1,0 is on a blocked cell" "$BIN/ffbuild -g 1,0 -o $TMP/out.ff $B/small.map"
same "-o old file survives a failed run" "$TMP/out.ff" "$TMP/keep.ff"
refuse "-o new file not created" "unknown tile" "$BIN/ffbuild -g 0,0 -o $TMP/new.ff $B/unknown_tile.map"
check "no new file" ! -e "$TMP/new.ff"
check "no temporary left" "$(ls -a "$TMP" | grep -c '^\.out\.ff\.\|^\.new\.ff\.')" = 0
refuse "ffdir -o failing" "truncated" "$BIN/ffdir -o $TMP/dd.ff $TMP/trunc.ff"
check "ffdir left no file" ! -e "$TMP/dd.ff"
if [ -w /dev/full ]; then
    run "full disk is an error" 3 "$BIN/ffbuild -g 0,0 $B/small.map >/dev/full"
fi

# An ff stream as the map: its goals, moves, corners and radius carry over.
"$BIN/ffbuild" -m 4 -c cut -r 0.6 -g 10,10 "$TD/movingai/arena.map" >"$TMP/r.ff"
"$BIN/ffbuild" "$TMP/r.ff" >"$TMP/r2.ff"
same "rebuilding from a stream gives the same stream" "$TMP/r.ff" "$TMP/r2.ff"
"$BIN/ffbuild" -r 0.6 "$TMP/r.ff" >"$TMP/r3.ff"
same "repeating the stream's radius changes nothing" "$TMP/r.ff" "$TMP/r3.ff"
refuse "another radius on a closed map" "already closed for radius 0.6" "$BIN/ffbuild -r 1 $TMP/r.ff"
run "-m replaces the stream's moves" 0 "$BIN/ffbuild -m 8 --text $TMP/r.ff"
check "moves 8 in the new header" "$(printf '%s\n' "$OUT" | grep -c '^moves 8$')" = 1
check "the stream's goal kept" "$(printf '%s\n' "$OUT" | grep '^goal ')" = "goal 10 10"

# A device or FIFO given to -o is written in place, never replaced.
if [ -c /dev/null ]; then
    run "-o /dev/null" 0 "$BIN/ffbuild -g 0,0 -o /dev/null $B/small.map"
    check "/dev/null is still a device" -c /dev/null
fi
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/from_fifo" &
run "-o FIFO" 0 "$BIN/ffbuild -g 0,0 -o $TMP/fifo $B/small.map"
wait
"$BIN/ffbuild" -g 0,0 "$B/small.map" >"$TMP/direct.ff"
same "-o FIFO carries the stream" "$TMP/from_fifo" "$TMP/direct.ff"
check "the FIFO is still a FIFO" -p "$TMP/fifo"

# Colour PNGs of grey pixels, written here by a PNG writer without zlib
# (stored deflate blocks): a palette image as ImageMagick writes one, and
# RGB; a 3 x 1 map of levels 0, 1 and 3 with the goal at 2,0 has the
# distances inf 2 0 (the step into the goal costs (1 + 3) / 2), as the grey
# PNG of those levels; one reddish pixel refuses the image with the colour
# message.
if command -v python3 >/dev/null 2>&1; then
    cat >"$TMP/png.py" <<'PY'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
def stored(raw):  # a zlib stream of one stored block, no compression
    a, b = 1, 0
    for byte in raw:
        a = (a + byte) % 65521
        b = (b + a) % 65521
    return b"\x78\x01\x01" + struct.pack("<HH", len(raw), len(raw) ^ 0xffff) + raw + struct.pack(">I", b << 16 | a)
kind, out = sys.argv[1], sys.argv[2]
levels = [0, 1, 3]
if kind == "palette":
    ihdr, extra = struct.pack(">IIBBBBB", 3, 1, 8, 3, 0, 0, 0), chunk(b"PLTE", bytes([0, 0, 0, 3, 3, 3, 1, 1, 1, 255, 0, 0]))
    row = bytes([0, 0, 2, 1])
elif kind == "grey":
    ihdr, extra, row = struct.pack(">IIBBBBB", 3, 1, 8, 0, 0, 0, 0), b"", bytes([0] + levels)
else:
    ihdr, extra = struct.pack(">IIBBBBB", 3, 1, 8, 2, 0, 0, 0), b""
    pixels = [(v, v, v) for v in levels]
    if kind == "reddish":
        pixels[2] = (4, 3, 3)
    row = bytes([0] + [c for p in pixels for c in p])
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", stored(row)) + chunk(b"IEND", b"")
open(out, "wb").write(png)
PY
    for kind in grey palette rgb reddish; do
        python3 "$TMP/png.py" "$kind" "$TMP/$kind.png"
    done
    run "a grey PNG" 0 "$BIN/ffbuild -g 2,0 --text $TMP/grey.png | tail -n 1"
    check "a grey PNG: distances inf 2 0" "$OUT" = "inf 2 0"
    for kind in palette rgb; do
        run "a $kind PNG of grey pixels" 0 "$BIN/ffbuild -g 2,0 --text $TMP/$kind.png | tail -n 1"
        check "a $kind PNG of grey pixels reads as grey" "$OUT" = "inf 2 0"
    done
    refuse "a PNG with one reddish pixel" \
        "^ffbuild: $TMP/reddish.png: colour PNG: paint the map in 8-bit grey without alpha \\(0 = wall, 1..255 = cost\\)$" \
        "$BIN/ffbuild -g 2,0 $TMP/reddish.png"
else
    echo "# no python3: the colour PNG maps are checked in tests/test_mapread.c only"
fi

# --any-angle (man 1 ffbuild, "Any-angle distances"): the hand-worked
# path round the wall's end; the encodings carry the same field; several
# goals; goal sets give the fields of separate runs; -o is atomic.
AA=$TD/anyangle
run "--any-angle, wall with a gap" 0 "$BIN/ffbuild --any-angle --text $AA/gap.ffmap"
check "any-angle key in the header" "$(printf '%s\n' "$OUT" | grep -c '^any-angle$')" = 1
got=$(printf '%s\n' "$OUT" | awk '/^end$/{e=1;next} e{n++} e&&n==7{print $1}')
want=$(awk 'BEGIN { printf "%.12f", sqrt(5.5*5.5 + 1.5*1.5) + sqrt(1.5*1.5 + 2.5*2.5) }')
check "cell 0,0 round the corner 6,2 ($got)" "$(awk -v g="$got" 'BEGIN { printf "%.12f", g }')" = "$want"
"$BIN/ffbuild" --any-angle -o "$TMP/aa.ff" "$AA/gap.ffmap"
"$BIN/ffbuild" --any-angle --text -o "$TMP/aa.txt" "$AA/gap.ffmap"
"$BIN/ffinfo" "$TMP/aa.ff" >"$TMP/aa.info"
"$BIN/ffinfo" "$TMP/aa.txt" >"$TMP/aa-text.info"
same "binary and text encodings hold the same field" "$TMP/aa.info" "$TMP/aa-text.info"
check "no temporary file left by -o" "$(ls "$TMP" | grep -c '^aa\.ff\..')" = 0
run "--any-angle, two goals" 0 "$BIN/ffbuild --any-angle -g 0,0 -g 7,5 --text $AA/gap.ffmap"
# Each cell's distance is the nearer of the two one-goal fields'.
"$BIN/ffbuild" --any-angle -g 0,0 --text "$AA/gap.ffmap" | awk '/^end$/{e=1;next} e{n++} e&&n>6' >"$TMP/g1"
"$BIN/ffbuild" --any-angle -g 7,5 --text "$AA/gap.ffmap" | awk '/^end$/{e=1;next} e{n++} e&&n>6' >"$TMP/g2"
printf '%s\n' "$OUT" | awk '/^end$/{e=1;next} e{n++} e&&n>6' >"$TMP/g12"
check "two goals: the nearer goal's distance, every cell" \
    "$(paste -d' ' "$TMP/g1" "$TMP/g2" | awk '{ n = NF / 2; s = ""; for (k = 1; k <= n; k++) {
        a = $k; b = $(k + n); m = (a == "inf") ? b : (b == "inf") ? a : (a + 0 < b + 0 ? a : b)
        s = s (k > 1 ? " " : "") m } print s }')" = "$(cat "$TMP/g12")"
printf 'one 7,4\ntwo 0,0 7,5\n' >"$TMP/aa.sets"
run "--any-angle --goal-sets" 0 "$BIN/ffbuild --any-angle --goal-sets $TMP/aa.sets -o $TMP/sets.ff $AA/gap.ffmap"
"$BIN/ffbuild" --any-angle --name one -g 7,4 "$AA/gap.ffmap" >"$TMP/one.ff"
"$BIN/ffbuild" --any-angle --name two -g 0,0 -g 7,5 "$AA/gap.ffmap" >"$TMP/two.ff"
cat "$TMP/one.ff" "$TMP/two.ff" >"$TMP/both.ff"
same "goal sets: the fields of separate runs" "$TMP/sets.ff" "$TMP/both.ff"
run "--any-angle -r 0.6 closes cells first" 0 "$BIN/ffbuild --any-angle -r 0.6 -g 2,1 --text $AA/open.ffmap"
check "radius 0.6 closes the edge cells" "$(printf '%s\n' "$OUT" | awk '/^end$/{e=1;next} e{n++} e&&n==5')" = "inf 1 0 1 inf"

# ffdir on an any-angle field: the vector channel (f32x2) instead of the
# direction codes; cell 0,0 heads for the wall's corner 6,2, every other
# reachable cell has a unit vector, goals and walls 0 0; ffinfo and
# ffexport know the channel.
run "ffdir: an any-angle field" 0 "$BIN/ffbuild --any-angle $AA/gap.ffmap | $BIN/ffdir --text"
printf '%s\n' "$OUT" >"$TMP/aav.ff"
check "vector channel f32x2, with its id" \
    "$(grep -c '^channel vector f32x2$\|^id vector ' "$TMP/aav.ff")" = 2
check "no direction channel" "$(grep -c '^channel direction' "$TMP/aav.ff")" = 0
awk '/^end$/{e=1;next} e{n++} e&&n>6&&n<=12' "$TMP/aav.ff" >"$TMP/aad"
awk '/^end$/{e=1;next} e{n++} e&&n>12' "$TMP/aav.ff" >"$TMP/aavec"
check "cell 0,0 toward the corner 6,2" \
    "$(awk 'NR==1{ printf "%.6f %.6f", $1, $2 }' "$TMP/aavec")" = \
    "$(awk 'BEGIN { l = sqrt(5.5*5.5 + 1.5*1.5); printf "%.6f %.6f", 5.5/l, 1.5/l }')"
check "unit vectors on reachable cells, 0 0 on goals and walls" "$(paste -d' ' "$TMP/aad" "$TMP/aavec" |
    awk '{ for (k = 1; k <= 8; k++) { d = $k; x = $(8 + 2*k - 1); y = $(8 + 2*k)
        len = sqrt(x*x + y*y)
        if ((d == "inf" || d == 0) ? len != 0 : (len < 0.999999 || len > 1.000001)) bad++ } }
        END { print bad + 0 }')" = 0
run "ffinfo: the vector channel" 0 "$BIN/ffinfo $TMP/aav.ff"
check "ffinfo counts its 96 values" \
    "$(printf '%s\n' "$OUT" | grep -c '^channel vector f32x2 values 96 finite 96 ')" = 1
run "ffexport: the vector channel, CSV" 0 "$BIN/ffexport -c vector --csv $TMP/aav.ff"
check "CSV with lanes" "$(printf '%s\n' "$OUT" | sed -n '1p;2p;3p' | tr '\n' ' ')" = \
    "x,y,lane,value 0,0,0,0.9647638 0,0,1,0.2631174 "
run "ffexport: the vector channel, npy" 0 "$BIN/ffexport -c vector --npy $TMP/aav.ff | head -c 128 | tail -c +11"
check "npy shape (6, 8, 2)" "$(printf '%s\n' "$OUT" | grep -c "'shape': (6, 8, 2)")" = 1

# ffquery on the any-angle field: at a cell centre the cell's vector;
# halfway between cells 0,0 and 1,0 the blend of their two vectors
# (seed's bilinear rule), by awk from the vectors written.
run "ffquery: smoothed vectors" 0 "printf '0.5 0.5\\n1 0.5\\n' | $BIN/ffquery $TMP/aav.ff"
want=$(awk 'NR==1 { ax = ($1 + $3) / 2; ay = ($2 + $4) / 2; l = sqrt(ax*ax + ay*ay)
    printf "%.6f %.6f\n%.6f %.6f", $1, $2, ax / l, ay / l }' "$TMP/aavec")
check "smoothing blends the vectors" "$(printf '%s\n' "$OUT" | awk '{ printf "%.6f %.6f\n", $1, $2 }')" = "$want"
run "ffquery --raw: the cell's vector" 0 "echo 1.9 0.1 | $BIN/ffquery --raw $TMP/aav.ff"
check "raw vector of cell 1,0" "$(printf '%s\n' "$OUT" | awk '{ printf "%.6f %.6f", $1, $2 }')" = \
    "$(awk 'NR==1 { printf "%.6f %.6f", $3, $4 }' "$TMP/aavec")"

# ffquery --trace on the any-angle field: the corner path, worked by hand
# (man 1 ffbuild): the start's centre, the corner 6,2, the goal's centre;
# a blocked start is refused with exit 1.
run "ffquery --trace: the corner path" 0 "$BIN/ffquery --trace 0,0 $TMP/aav.ff"
check "corner path 0.5 0.5, 6 2, 7.5 4.5" "$(printf '%s\n' "$OUT" | tr '\n' ' ')" = "0.5 0.5 6 2 7.5 4.5 "
run "ffquery --trace from a wall" 1 "$BIN/ffquery --trace 3,2 $TMP/aav.ff"

# Unknown options and options without their value: one line, exit 2.
for prog in ffbuild ffdir ffquery ffpull fffunnel ffpng ffsim; do
    refuse "$prog: unknown option" "^$prog: --bogus: unknown option \\(see $prog --help\\)$" \
        "$BIN/$prog --bogus"
done
refuse "option without its value" "^ffbuild: -g: needs a value \\(see ffbuild --help\\)$" "$BIN/ffbuild -g"

run "--help" 0 "$BIN/ffbuild --help"
check "--help on stdout" -n "$OUT"
run "--version" 0 "$BIN/ffdir --version"
finish
