#!/bin/sh
# ffpng from the command line: every picture passes pngcheck, sizes and the
# default layer, the same bytes for the same input, overlays from files and
# stdin, and the refusals (one stderr line, exit 2, nothing on stdout, no
# file left).  Pixel colours are checked in tests/test_ffpng.c.
. "$(dirname "$0")/lib.sh"
P=$BIN/ffpng
PNG=$TD/png

if command -v pngcheck >/dev/null 2>&1; then
    HAVE_PNGCHECK=1
else
    HAVE_PNGCHECK=0
    echo "# pngcheck not found (Debian package pngcheck): the PNG validity checks are skipped"
fi

# The PNG passes pngcheck (when there is one) and is W x H pixels.
png_ok() {
    name=$1 file=$2 want=$3
    if [ "$HAVE_PNGCHECK" -eq 1 ]; then
        if pngcheck -q "$file" >"$TMP/pc" 2>&1; then pass "$name: pngcheck"
        else fail "$name: pngcheck" "$(cat "$TMP/pc")"; fi
    fi
    # IHDR: width and height, big-endian, at bytes 16..23.
    got=$(od -An -tu1 -j16 -N8 "$file" |
        awk '{ printf "%dx%d", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }')
    check "$name: $want pixels" "$got" = "$want"
}

"$BIN/ffbuild" "$PNG/room.ffmap" >"$TMP/room-d.ff"
"$BIN/ffdir" "$TMP/room-d.ff" >"$TMP/room.ff"
"$BIN/ffbuild" --text "$PNG/room.ffmap" | "$BIN/ffdir" --text >"$TMP/room-text.ff"
"$BIN/ffbuild" "$PNG/star.ffmap" | "$BIN/ffdir" >"$TMP/star.ff"

run "--help" 0 "$P --help"
check "--help on stdout" "$(printf '%s\n' "$OUT" | head -n 1 | cut -c1-12)" = "usage: ffpng"
run "--version" 0 "$P --version"
check "--version says ffpng" "$(printf '%s\n' "$OUT" | cut -d' ' -f1)" = "ffpng"

# Sizes: the default scale gives the 10 x 6 room 1024 / 10 = 102 pixels a
# cell; the key below adds, in dots of 3 pixels from 900 pixels of width,
# margin 3, title 9, gap 3, bar 8, ticks 2, gap 1, labels 9, gap 3, a line
# of swatches 9, margin 3.
run "default scale" 0 "$P $TMP/room.ff -o $TMP/default.png"
png_ok "default scale" "$TMP/default.png" 1020x762
run "default scale, --no-legend" 0 "$P --no-legend $TMP/room.ff -o $TMP/default.png"
png_ok "default scale, --no-legend" "$TMP/default.png" 1020x612
run "scale 1" 0 "$P -s 1 --no-legend $TMP/room.ff > $TMP/s1.png"
png_ok "scale 1" "$TMP/s1.png" 10x6
# A small map's key is wider than the map: the picture widens to its
# title (6 pixels a character, less 1, and margins of 4).
run "every layer, with the key" 0 "for l in cost distance direction; do $P -s 8 -l \$l $TMP/room.ff > $TMP/legend-\$l.png || exit 1; done"
png_ok "key of cost" "$TMP/legend-cost.png" 139x98
png_ok "key of distance" "$TMP/legend-distance.png" 259x98
png_ok "key of direction" "$TMP/legend-direction.png" 319x98
run "--legend is the default" 0 "$P -s 8 --legend -l cost $TMP/room.ff > $TMP/legend-cost2.png"
same "--legend is the default" "$TMP/legend-cost.png" "$TMP/legend-cost2.png"
run "direction below scale 8, a key of swatches" 0 "$P -s 4 -l direction $TMP/room.ff > $TMP/sw.png"
png_ok "swatches in two lines" "$TMP/sw.png" 133x62
run "map layer" 0 "$P -s 3 -l map $TMP/room.ff > $TMP/map.png"
png_ok "map layer, its key" "$TMP/map.png" 211x45
run "a map-only stream" 0 "$P -s 5 $PNG/terrain.ff > $TMP/terrain.png"
png_ok "a map-only stream" "$TMP/terrain.png" 139x70
run "--grid" 0 "$P -s 8 --grid 2 --no-legend $TMP/room.ff > $TMP/grid.png"
png_ok "--grid: strips below and right" "$TMP/grid.png" 93x63

# The default layer is the richest: direction, else distance, else cost.
$P -s 8 "$TMP/room.ff" >"$TMP/rich1.png"
$P -s 8 -l direction "$TMP/room.ff" >"$TMP/rich2.png"
same "default layer of a field with directions: direction" "$TMP/rich1.png" "$TMP/rich2.png"
$P -s 8 "$TMP/room-d.ff" >"$TMP/rich3.png"
$P -s 8 -l distance "$TMP/room-d.ff" >"$TMP/rich4.png"
same "default layer of a distance field: distance" "$TMP/rich3.png" "$TMP/rich4.png"
# An any-angle field's directions are its vectors (test_draw.c checks
# the arrows' pixels): the richest layer, and arrows the width of the key.
"$BIN/ffbuild" --any-angle "$TD/anyangle/gap.ffmap" | "$BIN/ffdir" >"$TMP/gap.ff"
run "any-angle vectors as arrows" 0 "$P -s 16 $TMP/gap.ff > $TMP/gap1.png"
png_ok "any-angle vectors as arrows" "$TMP/gap1.png" 379x146
$P -s 16 -l direction "$TMP/gap.ff" >"$TMP/gap2.png"
same "default layer of an any-angle field: direction" "$TMP/gap1.png" "$TMP/gap2.png"
$P -s 8 "$PNG/terrain.ff" >"$TMP/rich5.png"
$P -s 8 -l cost "$PNG/terrain.ff" >"$TMP/rich6.png"
same "default layer of a map: cost" "$TMP/rich5.png" "$TMP/rich6.png"
check "layers differ" "$(cmp -s "$TMP/rich1.png" "$TMP/rich4.png" && echo same)" = ""

# Same input, same bytes: twice, text or binary stream, file or stdin, -o
# or stdout.
printf '1.5 1.5\n4.5 4.5\n8.5 4.5\n' >"$TMP/path.txt"
printf '# ffsim trace: tick id x y vx vy heading radius state\n0 1 8.5 4.5 0 0 0 0.3 moving\n1 1 7.5 4.5 0 0 0 0.3 moving\n0 2 6.5 2.5 0 0 0 0.45 moving\n' >"$TMP/trace.txt"
printf '3 2\n6 3.5\n' >"$TMP/points.txt"
OV="--path $TMP/path.txt --trace $TMP/trace.txt --points $TMP/points.txt"
run "all overlays" 0 "$P -s 20 --legend $OV $TMP/room.ff -o $TMP/ov1.png"
png_ok "all overlays" "$TMP/ov1.png" 319x170
$P -s 20 --legend $OV "$TMP/room.ff" >"$TMP/ov2.png"
same "same bytes twice (-o and stdout)" "$TMP/ov1.png" "$TMP/ov2.png"
$P -s 20 --legend $OV <"$TMP/room-text.ff" >"$TMP/ov3.png"
same "text stream on stdin, same bytes" "$TMP/ov1.png" "$TMP/ov3.png"
$P -s 20 --legend --path - --trace "$TMP/trace.txt" --points "$TMP/points.txt" "$TMP/room.ff" \
    <"$TMP/path.txt" >"$TMP/ov4.png"
same "an overlay on stdin, same bytes" "$TMP/ov1.png" "$TMP/ov4.png"
$P -s 20 --legend "$TMP/room.ff" >"$TMP/plain.png"
check "overlays change the picture" "$(cmp -s "$TMP/ov1.png" "$TMP/plain.png" && echo same)" = ""
$P -s 20 --legend --points "$TMP/points.txt" --trace "$TMP/trace.txt" --path "$TMP/path.txt" \
    "$TMP/room.ff" >"$TMP/ov5.png"
check "overlay order matters" "$(cmp -s "$TMP/ov1.png" "$TMP/ov5.png" && echo same)" = ""

# 3,000 random points (a path crossing the picture back and forth, its
# every tenth point as points and as a second path): the bytes of
# testdata/png/randpath.png, drawn before the marks' active list was merged
# a row at a time instead of inserted into one by one.
awk 'BEGIN { s = 1; for (i = 0; i < 3000; i++) {
    s = (s * 69069 + 1) % 4294967296; x = s / 4294967296 * 12 - 1
    s = (s * 69069 + 1) % 4294967296; y = s / 4294967296 * 8 - 1
    printf "%.4f %.4f\n", x, y } }' >"$TMP/rand.txt"
awk 'NR % 10 == 0' "$TMP/rand.txt" >"$TMP/randpts.txt"
run "3,000 random points" 0 "$P -s 12 --path $TMP/rand.txt --points $TMP/randpts.txt --path $TMP/randpts.txt $TMP/room.ff -o $TMP/rand.png"
same "3,000 random points: the bytes drawn before" "$TMP/rand.png" "$PNG/randpath.png"

# A real ffsim trace, when ffsim is there.
if [ -x "$BIN/ffsim" ]; then
    "$BIN/ffbuild" "$TD/gate.ffmap" | "$BIN/ffdir" >"$TMP/gate.ff"
    run "ffsim's trace" 0 "$BIN/ffsim $TMP/gate.ff $TD/gate.scenario 2>/dev/null | $P -s 8 --trace - $TMP/gate.ff > $TMP/crowd.png"
    png_ok "ffsim's trace" "$TMP/crowd.png" 319x218
    "$BIN/ffsim" -o "$TMP/gate.trace" "$TMP/gate.ff" "$TD/gate.scenario" 2>/dev/null
    run "density of ffsim's trace" 0 "$P -s 8 -l density --trace $TMP/gate.trace $TMP/gate.ff -o $TMP/dens1.png"
    png_ok "density of ffsim's trace" "$TMP/dens1.png" 256x218
    $P -s 8 -l density --trace - "$TMP/gate.ff" <"$TMP/gate.trace" >"$TMP/dens2.png"
    same "density: same bytes, file or stdin" "$TMP/dens1.png" "$TMP/dens2.png"
    # --animate: an APNG a frame per tick (acTL's frame count at
    # bytes 55..58, after the signature, IHDR and sRGB), the same bytes again and
    # from a pipe; pngcheck passes it (it checks the PNG structure and the
    # CRCs, and passes the APNG chunks over); tests/test_animate.c takes
    # the frames apart.
    ticks=$(awk '!/^#/ && (!seen || $1 != last) { n++; last = $1; seen = 1 } END { print n }' "$TMP/gate.trace")
    run "--animate" 0 "$P -s 4 --animate --trace $TMP/gate.trace $TMP/gate.ff -o $TMP/gate1.png"
    png_ok "--animate" "$TMP/gate1.png" 133x144
    frames=$(od -An -tu1 -j54 -N4 "$TMP/gate1.png" | awk '{ print ((($1*256+$2)*256+$3)*256+$4) }')
    check "--animate: a frame per tick ($ticks)" "$frames" = "$ticks"
    check "--animate: as many fcTL chunks" "$(LC_ALL=C grep -ao fcTL "$TMP/gate1.png" | wc -l)" -ge "$ticks"
    $P -s 4 --animate --trace - "$TMP/gate.ff" <"$TMP/gate.trace" >"$TMP/gate2.png"
    same "--animate: same bytes, file or pipe" "$TMP/gate1.png" "$TMP/gate2.png"
    run "--animate --every 10 --fps 25" 0 "$P -s 4 --animate --every 10 --fps 25 --trace $TMP/gate.trace $TMP/gate.ff -o $TMP/gate3.png"
    png_ok "--animate --every 10" "$TMP/gate3.png" 133x144
    frames=$(od -An -tu1 -j54 -N4 "$TMP/gate3.png" | awk '{ print ((($1*256+$2)*256+$3)*256+$4) }')
    check "--every 10: ceil($ticks / 10) frames" "$frames" = "$(( (ticks + 9) / 10 ))"
    delay=$(od -An -tu1 -j94 -N4 "$TMP/gate3.png" | awk '{ print ($1*256+$2) "/" ($3*256+$4) }')
    check "--fps 25: a frame lasts 1/25 s" "$delay" = "1/25"
    # A door closing at tick 4 (ffsim's worked example, each rebuild at
    # once): the trace notes the event; the animation draws it (the
    # frames are checked in tests/test_animate.c) and labels each frame,
    # unless --no-legend.
    "$BIN/ffbuild" "$TD/doors.ffmap" | "$BIN/ffdir" >"$TMP/doors.ff"
    sed 's/^rebuild-ticks 3/rebuild-ticks 0/; s/^ticks 600/ticks 12/' "$TD/doors.scenario" >"$TMP/doors.scenario"
    "$BIN/ffsim" -o "$TMP/doors.trace" "$TMP/doors.ff" "$TMP/doors.scenario" 2>/dev/null
    check "ffsim notes the door in its trace" "$(grep -c '^# tick 4 close 20,6,21,8$' "$TMP/doors.trace")" = 1
    run "--animate a door closing" 0 "$P -s 4 --animate --trace $TMP/doors.trace $TMP/doors.ff -o $TMP/doors1.png"
    png_ok "--animate a door closing" "$TMP/doors1.png" 160x158
    run "--animate --no-legend" 0 "$P -s 4 --no-legend --animate --trace $TMP/doors.trace $TMP/doors.ff -o $TMP/doors2.png"
    png_ok "--animate --no-legend" "$TMP/doors2.png" 160x120
    sed 's/^# tick 4 close 20,6,21,8$/# tick 4 close 20,6,41,8/' "$TMP/doors.trace" >"$TMP/doors-bad.trace"
    line=$(grep -n '^# tick 4 close' "$TMP/doors-bad.trace" | cut -d: -f1)
    refuse "--animate: a map event outside the map" \
        "^ffpng: $TMP/doors-bad.trace:$line: map event cells 20,6,41,8 are not a rectangle of the 40x30 map" \
        "$P --animate --trace $TMP/doors-bad.trace $TMP/doors.ff -o $TMP/doors3.png"
    check "--animate: a refused event leaves no file" ! -e "$TMP/doors3.png"
    run "density thinned" 0 "$P -s 8 -l density --every 5 --trace $TMP/gate.trace $TMP/gate.ff -o $TMP/dens3.png"
    check "thinning changes the density" "$(cmp -s "$TMP/dens1.png" "$TMP/dens3.png" && echo same)" = ""
fi

# Refusals.
refuse "a layer the stream lacks" \
    "^ffpng: .*room-d.ff: the stream has no direction channel: its layers are map, cost, distance\$" \
    "$P -l direction $TMP/room-d.ff"
refuse "distance of a map alone" "its layers are map, cost \\(run ffbuild" \
    "$P -l distance $PNG/terrain.ff"
refuse "a picture over 2^31 bytes" "^ffpng: scale 30000 makes a 300000x180150 picture .* over the limit of 2\\^31" \
    "$P -s 30000 $TMP/room.ff"
refuse "the same on stdin" "over the limit" "$P -s 2147483647 < $TMP/room.ff"
printf '1 1\n2 x\n' >"$TMP/bad-path.txt"
refuse "malformed path" "^ffpng: $TMP/bad-path.txt:2:3: 'x' is not a number\$" \
    "$P --path $TMP/bad-path.txt $TMP/room.ff"
refuse "malformed points on stdin" "^ffpng: -:1: 1 number on the line" \
    "printf '7\n' | $P --points - $TMP/room.ff"
printf '# tick id x y radius\n0 1 2 3 0.2\n1 1 2 3 -0.5\n' >"$TMP/bad-trace.txt"
refuse "malformed trace" "^ffpng: $TMP/bad-trace.txt:3:9: radius '-0.5' must be > 0\$" \
    "$P --trace $TMP/bad-trace.txt $TMP/room.ff"
refuse "trace with a fractional id" "^ffpng: -:1:3: agent id '1.5' is not an integer\$" \
    "printf '0 1.5 2 3\n' | $P --trace - $TMP/room.ff"
refuse "a point absurdly far away" "^ffpng: -:1: position 1e\\+300 0 lies too far outside" \
    "echo '1e300 0' | $P --points - $TMP/room.ff"
refuse "missing overlay file" "^ffpng: $TMP/none.txt: cannot open" "$P --path $TMP/none.txt $TMP/room.ff"
refuse "missing stream" "cannot open" "$P $TMP/none.ff"
refuse "empty input" "empty input" ": | $P"
refuse "a map is not a stream" "room.ffmap:1:1: an ffmap, not an ff stream: build a field of it with ffbuild -g X,Y$" "$P $PNG/room.ffmap"
refuse "stdin twice" "standard input" "$P --path - < $TMP/room.ff"
refuse "stdin twice, two overlays" "standard input" "$P --path - --points - $TMP/room.ff < /dev/null"
refuse "unknown layer" "^ffpng: --layer 'height': not map, cost, distance, direction or density" "$P -l height $TMP/room.ff"
refuse "scale 0" "^ffpng: --scale '0': not a whole number" "$P -s 0 $TMP/room.ff"
refuse "scale not a number" "^ffpng: --scale '2x': not a whole number" "$P -s 2x $TMP/room.ff"
refuse "two streams" "one stream at most" "$P $TMP/room.ff $TMP/room.ff"
refuse "--grid 0" "^ffpng: --grid '0': not a whole number" "$P --grid 0 $TMP/room.ff"
refuse "--max-cells" "more than" "$P --max-cells 50 $TMP/room.ff"
refuse "density without a trace" "^ffpng: --layer density: it counts the agents of a --trace, give one" \
    "$P -l density $TMP/room.ff"
refuse "--animate without a trace" "--animate replays one --trace" "$P --animate $TMP/room.ff"
refuse "--animate of two traces" "--animate replays one --trace" \
    "$P --animate --trace $TMP/trace.txt --trace $TMP/trace.txt $TMP/room.ff"
refuse "--fps 0" "^ffpng: --fps '0': not a whole number" "$P --animate --fps 0 --trace $TMP/trace.txt $TMP/room.ff"
refuse "an empty trace to animate" "no line to animate" "$P --animate --trace - $TMP/room.ff </dev/null"
refuse "--every 0" "^ffpng: --every '0': not a whole number" "$P --every 0 --trace $TMP/trace.txt $TMP/room.ff"

# A failed run leaves no file, and an earlier file survives whole.
cp "$TMP/ov1.png" "$TMP/keep.png"
refuse "failure keeps the old file" "is not a number" \
    "$P --path $TMP/bad-path.txt $TMP/room.ff -o $TMP/keep.png"
same "the old file is untouched" "$TMP/keep.png" "$TMP/ov1.png"
refuse "failure makes no file" "no direction" "$P -l direction $TMP/room-d.ff -o $TMP/new.png"
check "no new file" ! -e "$TMP/new.png"
check "no temporary left" "$(ls -a "$TMP" | grep -c '^\.new\.png\.\|^\.keep\.png\.')" = 0

# -o onto a FIFO (or a device such as /dev/null) writes into it: renaming
# a temporary file over it would replace it with a plain file.
if mkfifo "$TMP/fifo" 2>/dev/null; then
    timeout 30 cat "$TMP/fifo" >"$TMP/from-fifo.png" &
    run "-o a FIFO" 0 "$P -s 20 --legend $OV $TMP/room.ff -o $TMP/fifo"
    wait
    check "the FIFO is still a FIFO" -p "$TMP/fifo"
    same "the picture went through the FIFO" "$TMP/from-fifo.png" "$TMP/ov1.png"
fi

if command -v mandoc >/dev/null 2>&1; then
    run "mandoc -Tlint ffpng.1" 0 "mandoc -Tlint -Wwarning man/man1/ffpng.1"
    check "mandoc -Tlint ffpng.1 is silent" -z "$OUT$ERR"
fi
help=$("$P" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
doc=$(grep '^\.It Fl' man/man1/ffpng.1 | grep -o 'Fl -[a-z][a-z-]*' | sed 's/^Fl /-/' | sort -u)
check "ffpng: --help and the page list the same long options" "$help" = "$doc"
# Multi-field streams: --list names them, --name picks one, no name is
# refused with the names.
printf 'near 1,1\nfar 6,4\n' >"$TMP/sets.txt"
"$BIN/ffbuild" --goal-sets "$TMP/sets.txt" "$TD/png/room.ffmap" >"$TMP/two.ff"
run "--list" 0 "$BIN/ffpng --list $TMP/two.ff"
check "--list names both fields" "$OUT" = "near
far"
refuse "several fields without --name" "choose one with --name" "$BIN/ffpng $TMP/two.ff"
refuse "--name that is not there" "ffpng: $TMP/two.ff: .*nowhere" "$BIN/ffpng --name nowhere $TMP/two.ff"
run "--name picks a field" 0 "$BIN/ffpng --name far -o $TMP/far.png $TMP/two.ff"
"$BIN/ffbuild" --name far -g 6,4 "$TD/png/room.ffmap" >"$TMP/far.ff"
"$BIN/ffpng" -o "$TMP/far1.png" "$TMP/far.ff"
same "--name draws the same picture as the field alone" "$TMP/far.png" "$TMP/far1.png"
# --heading on a turn-cost field (the pixels are checked in test_ffpng.c):
# a valid PNG with its key, a code and its name the same picture, and a
# picture of its own.
"$BIN/ffbuild" --turn-cost 1 "$TD/turn/zigzag.ffmap" | "$BIN/ffdir" >"$TMP/zigzag.ff"
run "--heading with the key" 0 "$P -s 16 --heading NE $TMP/zigzag.ff -o $TMP/ne.png"
png_ok "--heading with the key" "$TMP/ne.png" 409x130
run "--heading 4" 0 "$P -s 16 --heading 4 $TMP/zigzag.ff -o $TMP/4.png"
same "--heading 4 is --heading NE" "$TMP/ne.png" "$TMP/4.png"
run "--heading 1, distance layer" 0 "$P -s 16 -l distance --heading 1 $TMP/zigzag.ff -o $TMP/1.png"
run "the best heading's distances" 0 "$P -s 16 -l distance $TMP/zigzag.ff -o $TMP/best.png"
check "--heading 1 draws other distances" "$(cmp -s "$TMP/1.png" "$TMP/best.png"; echo $?)" = 1
finish
