#!/bin/sh
# The ff stream's header numbers (cell, origin, radius) in the shortest
# text that reads back to the same bits: radius 0.4, not
# 0.40000000000000002.  Text and binary streams of one field agree byte
# for byte after a round trip, so the ids stay true.
. "$(dirname "$0")/lib.sh"
S=$TD/demo/small.ffmap
sed -e '1a cell 0.7\norigin 0.1 -2.2' "$S" >"$TMP/odd.ffmap"
check "the map has cell 0.7" "$(grep -c '^cell 0.7$' "$TMP/odd.ffmap")" = 1
run "ffbuild -r 0.4 --text" 0 "$BIN/ffbuild -r 0.4 --text $S > $TMP/t.ff"
check "radius 0.4" "$(grep -c '^radius 0.4$' "$TMP/t.ff")" = 1
check "origin 0 0" "$(grep -c '^origin 0 0$' "$TMP/t.ff")" = 1
run "ffbuild --text, cell 0.7" 0 "$BIN/ffbuild -r 0.1 --text $TMP/odd.ffmap > $TMP/t.ff"
check "cell 0.7" "$(grep -c '^cell 0.7$' "$TMP/t.ff")" = 1
check "origin 0.1 -2.2" "$(grep -c '^origin 0.1 -2.2$' "$TMP/t.ff")" = 1
check "radius 0.1" "$(grep -c '^radius 0.1$' "$TMP/t.ff")" = 1
# 0.1 + 0.2 needs all 17 digits.
run "ffbuild -r 0.30000000000000004 --text" 0 "$BIN/ffbuild -r 0.30000000000000004 --text $S > $TMP/t17.ff"
check "radius 0.30000000000000004 (17 digits)" "$(grep -c '^radius 0.30000000000000004$' "$TMP/t17.ff")" = 1
run "ffbuild -r 0.3 --text" 0 "$BIN/ffbuild -r 0.3 --text $S > $TMP/t3.ff"
check "radius 0.3 stays 0.3" "$(grep -c '^radius 0.3$' "$TMP/t3.ff")" = 1
# The maze has origin -10 4 and cell 2; the row origin -4 1.
run "maze header" 0 "$BIN/ffbuild --text $TD/query/maze.ffmap | sed -n '/^cell/p;/^origin/p'"
check "maze: cell 2, origin -10 4" "$OUT" = "cell 2
origin -10 4"
# Round trip: the text stream read back and written in binary is the
# binary stream, bytes and ids (ffdir --text, then ffdir): the header's
# numbers read back to the bits they were written from.
for r in 0.1 0.30000000000000004 0.2; do
    "$BIN/ffbuild" -r $r "$TMP/odd.ffmap" | "$BIN/ffdir" >"$TMP/bin.ff"
    "$BIN/ffbuild" -r $r --text "$TMP/odd.ffmap" | "$BIN/ffdir" --text | "$BIN/ffdir" >"$TMP/back.ff"
    same "radius $r: text read back is the binary stream" "$TMP/bin.ff" "$TMP/back.ff"
done
finish
