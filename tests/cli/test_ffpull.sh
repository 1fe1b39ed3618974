#!/bin/sh
# ffpull: pulled paths compared exactly with testdata/pull/, the output a
# subsequence of the input, -o atomic, and every refusal: one stderr line,
# exit 2, nothing on stdout.
. "$(dirname "$0")/lib.sh"
P=$TD/pull

"$BIN/ffbuild" -g 0,2 "$P/wall.ffmap" | "$BIN/ffdir" >"$TMP/wall.ff"
"$BIN/ffbuild" -g 0,2 --text "$P/wall.ffmap" >"$TMP/wall-text.ff"
"$BIN/ffbuild" -g 5,5 "$TD/movingai/arena.map" >"$TMP/arena.ff"

run "help" 0 "$BIN/ffpull --help"
check "help names the usage" "$(printf '%s\n' "$OUT" | head -n 1 | cut -c1-13)" = "usage: ffpull"
run "version" 0 "$BIN/ffpull --version"

run "wall" 0 "$BIN/ffpull $TMP/wall.ff <$P/wall.path >$TMP/out.txt"
same "wall: the expected corners" "$TMP/out.txt" "$P/wall.pulled"
run "wall, text stream without direction" 0 "$BIN/ffpull $TMP/wall-text.ff <$P/wall.path >$TMP/out.txt"
same "wall, text stream: the same" "$TMP/out.txt" "$P/wall.pulled"
run "arena" 0 "$BIN/ffpull $TMP/arena.ff <$P/arena.path >$TMP/out.txt"
same "arena: the expected path" "$TMP/out.txt" "$P/arena.pulled"

# The output is a subsequence of the input, line for line.
sub=$(awk 'NR == FNR { want[++n] = $0; next }
           k < n && $0 == want[k + 1] { k++ }
           END { print (k == n ? "yes" : "no") }' "$TMP/out.txt" "$P/arena.path")
check "arena: a subsequence of the input" "$sub" = yes
check "arena: first point kept" "$(head -n 1 "$TMP/out.txt")" = "$(head -n 1 "$P/arena.path")"
check "arena: last point kept" "$(tail -n 1 "$TMP/out.txt")" = "$(tail -n 1 "$P/arena.path")"

# A multi-field stream: the field is chosen by name, never by position.
("$BIN/ffbuild" --name strict -g 0,2 "$P/wall.ffmap"
 "$BIN/ffbuild" --name cut -c cut -g 0,2 "$P/wall.ffmap") >"$TMP/two.ff"
printf '3.5 0.5\n4.5 1.5\n' >"$TMP/corner.txt"
run "--name cut" 0 "$BIN/ffpull --name cut $TMP/two.ff <$TMP/corner.txt"
check "--name cut: past the wall's corner" "$OUT" = "$(printf '3.5 0.5\n4.5 1.5')"
run "--name strict" 0 "$BIN/ffpull --name strict $TMP/two.ff <$P/wall.path >$TMP/out.txt"
same "--name strict: the wall's corners" "$TMP/out.txt" "$P/wall.pulled"
refuse "two fields, no --name" '^ffpull: .*two.ff: the stream holds 2 fields \(strict, cut\): choose one with --name$' \
    "$BIN/ffpull $TMP/two.ff <$TMP/corner.txt"
refuse "no such name" "^ffpull: .*two.ff: no field named 'free'" \
    "$BIN/ffpull --name free $TMP/two.ff <$TMP/corner.txt"

# Numbers come out as they went in: shortest form, the same double.
printf '0.1 0.5\n4.50000000000000000001 0.5\n4.5 2.5\n' >"$TMP/digits.txt"
run "numbers keep their value" 0 "$BIN/ffpull $TMP/wall.ff <$TMP/digits.txt"
check "numbers: 0.1 stays 0.1, 4.500...01 is 4.5" "$OUT" = "$(printf '0.1 0.5\n4.5 0.5\n4.5 2.5')"

# Comments and blank lines are skipped.
printf '# a path\n\n0.5 0.5 # start\n\n1.5 0.5\n' >"$TMP/comments.txt"
run "comments" 0 "$BIN/ffpull $TMP/wall.ff <$TMP/comments.txt"
check "comments: both points" "$OUT" = "$(printf '0.5 0.5\n1.5 0.5')"

# -o writes atomically; a refused run leaves an earlier file whole.
run "-o" 0 "$BIN/ffpull -o $TMP/o.txt $TMP/wall.ff <$P/wall.path"
same "-o: the expected corners" "$TMP/o.txt" "$P/wall.pulled"
refuse "-o, bad input" '^ffpull: -:2:' "printf '0.5 0.5\nx 1\n' | $BIN/ffpull -o $TMP/o.txt $TMP/wall.ff"
same "-o, bad input: the earlier file survives" "$TMP/o.txt" "$P/wall.pulled"
printf '0.5 0.5\n1 x\n' | "$BIN/ffpull" -o "$TMP/new.txt" "$TMP/wall.ff" 2>/dev/null
check "-o, bad input: no new file" ! -e "$TMP/new.txt"
check "-o: no temporary left" "$(ls "$TMP" | grep -c '^\.')" = 0

# Refusals.
refuse "malformed number" '^ffpull: -:2:1: .x. is not a number$' \
    "printf '0.5 0.5\nx 0.5\n' | $BIN/ffpull $TMP/wall.ff"
refuse "three numbers" '^ffpull: -:2:9: more than 2 numbers' \
    "printf '0.5 0.5\n1.5 0.5 7\n' | $BIN/ffpull $TMP/wall.ff"
refuse "one number" '^ffpull: -:1: 1 number on the line' \
    "printf '0.5\n1.5 0.5\n' | $BIN/ffpull $TMP/wall.ff"
refuse "NaN" '^ffpull: -:1:5: .nan. is not a finite number' \
    "printf '0.5 nan\n1.5 0.5\n' | $BIN/ffpull $TMP/wall.ff"
refuse "infinity" '^ffpull: -:2:1: .inf. is not a finite number' \
    "printf '0.5 0.5\ninf 0.5\n' | $BIN/ffpull $TMP/wall.ff"
refuse "one point" '^ffpull: -:1: the path has 1 point; at least two are needed$' \
    "printf '0.5 0.5\n' | $BIN/ffpull $TMP/wall.ff"
refuse "no point" "^ffpull: -: empty input: no path \\(want points 'x y' or 'x,y', one a line, at least two\\)$" \
    "printf '# nothing\n' | $BIN/ffpull $TMP/wall.ff"
refuse "empty input" "^ffpull: -: empty input: no path " "$BIN/ffpull $TMP/wall.ff </dev/null"
refuse "point in a wall" '^ffpull: -:2: point 1.5 1.5 lies in blocked cell 1,1$' \
    "printf '0.5 0.5\n1.5 1.5\n' | $BIN/ffpull $TMP/wall.ff"
refuse "point outside" '^ffpull: -:2: point -0.5 0.5 lies outside the 5x3 map$' \
    "printf '0.5 0.5\n-0.5 0.5\n' | $BIN/ffpull $TMP/wall.ff"
refuse "no FIELD" '^ffpull: FIELD: none given' "$BIN/ffpull </dev/null"
refuse "FIELD on stdin" "^ffpull: FIELD '-': it must be a file" "$BIN/ffpull - <$P/wall.path"
refuse "missing FIELD" '^ffpull: .*nothere.ff: cannot open' "$BIN/ffpull $TMP/nothere.ff <$P/wall.path"
refuse "FIELD not a stream" '^ffpull: .*wall.path:1:1: bad magic' "$BIN/ffpull $P/wall.path <$P/wall.path"
run "bad option" 2 "$BIN/ffpull --bogus $TMP/wall.ff <$P/wall.path"
check "bad option: nothing on stdout" -z "$OUT"

finish
