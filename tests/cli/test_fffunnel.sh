#!/bin/sh
# fffunnel: corner paths compared exactly with testdata/funnel/ and
# testdata/pull/, the radius and its refusal (exit 1), cell paths, -o
# atomic, and every bad input: one stderr line, exit 2, nothing on stdout.
. "$(dirname "$0")/lib.sh"
F=$TD/funnel
P=$TD/pull

for c in straight l-turn zigzag u-turn; do
    run "$c" 0 "$BIN/fffunnel <$F/$c.txt >$TMP/out.txt"
    same "$c: the expected corners" "$TMP/out.txt" "$F/$c.out"
done
run "l-turn, file operand" 0 "$BIN/fffunnel $F/l-turn.txt >$TMP/out.txt"
same "l-turn, file operand: the same" "$TMP/out.txt" "$F/l-turn.out"
run "l-turn, radius 0.25" 0 "$BIN/fffunnel -r 0.25 <$F/l-turn.txt >$TMP/out.txt"
same "l-turn, radius 0.25: corners 0.25 off the wall corner" "$TMP/out.txt" "$F/l-turn-r.out"
run "u-turn, radius 0.25" 0 "$BIN/fffunnel --radius 0.25 <$F/u-turn.txt >$TMP/out.txt"
same "u-turn, radius 0.25" "$TMP/out.txt" "$F/u-turn-r.out"
run "straight, radius 0.5 (portals exactly 2R wide)" 0 "$BIN/fffunnel -r 0.5 <$F/straight.txt >$TMP/out.txt"
same "straight, radius 0.5: still straight" "$TMP/out.txt" "$F/straight.out"

# A portal narrower than 2R: the unit cannot pass (exit 1, not an error).
run "narrow portal" 1 "$BIN/fffunnel -r 0.25 <$F/narrow.txt"
check "narrow portal: nothing on stdout" -z "$OUT"
check "narrow portal: names the portal, its line and width" "$ERR" = \
    "fffunnel: -:4: portal 2 is 0.4 wide, narrower than 2R = 0.5: an agent of radius 0.25 cannot pass"
run "narrow portal, radius 0.2" 0 "$BIN/fffunnel -r 0.2 <$F/narrow.txt"

# Cell paths on a field's grid.
"$BIN/ffbuild" -g 0,2 "$P/wall.ffmap" | "$BIN/ffdir" >"$TMP/wall.ff"
"$BIN/ffbuild" -g 5,5 "$TD/movingai/arena.map" >"$TMP/arena.ff"
run "cells: wall" 0 "$BIN/fffunnel --cells $TMP/wall.ff <$P/wall.path >$TMP/out.txt"
same "cells: wall, round the wall's end" "$TMP/out.txt" "$P/wall.funnel"
run "cells: arena" 0 "$BIN/fffunnel --cells $TMP/arena.ff <$P/arena.path >$TMP/out.txt"
same "cells: arena" "$TMP/out.txt" "$P/arena.funnel"
run "cells: wall, radius 0.25" 0 "$BIN/fffunnel -r 0.25 --cells $TMP/wall.ff <$P/wall.path"
check "cells: wall, radius 0.25: corners off the wall end" "$OUT" = \
    "$(printf '0.5 0.5\n4 0.75\n4.25 1\n4.25 2\n4 2.25\n0.5 2.5')"
("$BIN/ffbuild" --name a -g 0,2 "$P/wall.ffmap"; "$BIN/ffbuild" --name b -g 4,2 "$P/wall.ffmap") >"$TMP/two.ff"
run "cells: --name" 0 "$BIN/fffunnel --cells $TMP/two.ff --name b <$P/wall.path >$TMP/out.txt"
same "cells: --name, the same map" "$TMP/out.txt" "$P/wall.funnel"
refuse "cells: two fields, no --name" '^fffunnel: .*two.ff: the stream holds 2 fields' \
    "$BIN/fffunnel --cells $TMP/two.ff <$P/wall.path"
refuse "--name without --cells" "^fffunnel: --name 'a': it goes with --cells" "$BIN/fffunnel --name a <$F/straight.txt"
run "cells: radius above half a cell" 1 "$BIN/fffunnel -r 0.6 --cells $TMP/wall.ff <$P/wall.path"
refuse "cells: not neighbours" '^fffunnel: -:2: cell 2,0 is not a neighbour of the previous cell 0,0' \
    "printf '0.5 0.5\n2.5 0.5\n' | $BIN/fffunnel --cells $TMP/wall.ff"
refuse "cells: in a wall" '^fffunnel: -:2: point 1.5 1.5 lies in blocked cell 1,1$' \
    "printf '0.5 0.5\n1.5 1.5\n' | $BIN/fffunnel --cells $TMP/wall.ff"
refuse "cells: one point" '^fffunnel: -:1: the cell path has 1 point' \
    "printf '0.5 0.5\n' | $BIN/fffunnel --cells $TMP/wall.ff"
refuse "cells: missing FIELD" '^fffunnel: .*nothere.ff: cannot open' \
    "$BIN/fffunnel --cells $TMP/nothere.ff <$P/wall.path"

# -o writes atomically; a refused run leaves an earlier file whole.
run "-o" 0 "$BIN/fffunnel -o $TMP/o.txt <$F/zigzag.txt"
same "-o: the expected corners" "$TMP/o.txt" "$F/zigzag.out"
run "-o, narrow" 1 "$BIN/fffunnel -r 0.25 -o $TMP/o.txt <$F/narrow.txt"
same "-o, narrow: the earlier file survives" "$TMP/o.txt" "$F/zigzag.out"
printf '0 0\n1 0 1\n2 0\n' | "$BIN/fffunnel" -o "$TMP/new.txt" 2>/dev/null
check "-o, bad input: no new file" ! -e "$TMP/new.txt"

# Bad input.
refuse "malformed number" '^fffunnel: -:2:7: .x. is not a number$' \
    "printf '0 0\n1 0 1 x\n2 0\n' | $BIN/fffunnel"
refuse "three numbers" '^fffunnel: -:2: 3 numbers on the line' \
    "printf '0 0\n1 0 1\n2 0\n' | $BIN/fffunnel"
refuse "five numbers" '^fffunnel: -:2:9: more than 4 numbers' \
    "printf '0 0\n1 0 1 1 1\n2 0\n' | $BIN/fffunnel"
refuse "NaN" '^fffunnel: -:3:1: .nan. is not a finite number' \
    "printf '0 0\n1 0 1 1\nnan 0\n' | $BIN/fffunnel"
refuse "infinity" '^fffunnel: -:1:3: .-inf. is not a finite number' \
    "printf '0 -inf\n1 0 1 1\n2 0\n' | $BIN/fffunnel"
refuse "one point" '^fffunnel: -:1: one point: a corridor needs a start and a goal$' \
    "printf '0 0\n' | $BIN/fffunnel"
refuse "empty" '^fffunnel: -: empty input' "$BIN/fffunnel </dev/null"
refuse "no goal" '^fffunnel: -:3: the corridor ends without a goal' \
    "printf '0 0\n1 0 1 1\n2 0 2 1\n' | $BIN/fffunnel"
refuse "a portal first" '^fffunnel: -:1: the first line must be the start' \
    "printf '1 0 1 1\n2 0\n' | $BIN/fffunnel"
refuse "a point in the middle" '^fffunnel: -:3: a point before the end' \
    "printf '0 0\n1 0 1 1\n1.5 0\n2 0 2 1\n3 0\n' | $BIN/fffunnel"
refuse "huge coordinate" '^fffunnel: -:2: coordinate 1e\+200 is out of range' \
    "printf '0 0\n1 0 1e200 1\n2 0\n' | $BIN/fffunnel"
refuse "swapped portal" '^fffunnel: -:5: portal 3 faces backwards' "$BIN/fffunnel <$F/swapped.txt"
refuse "bad radius" "^fffunnel: -r '-1': not a number from 0 to 1e150" "$BIN/fffunnel -r -1 <$F/straight.txt"
refuse "radius not a number" "^fffunnel: -r 'wide': not a number from 0 to 1e150" "$BIN/fffunnel -r wide <$F/straight.txt"
refuse "two inputs" "^fffunnel: '$F/zigzag.txt': one input at most" "$BIN/fffunnel $F/straight.txt $F/zigzag.txt"
run "help" 0 "$BIN/fffunnel --help"
check "help names the usage" "$(printf '%s\n' "$OUT" | head -n 1 | cut -c1-15)" = "usage: fffunnel"

finish
