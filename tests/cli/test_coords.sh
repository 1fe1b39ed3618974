#!/bin/sh
# Coordinates read both ways, X,Y and x y (and X, Y), wherever a cell or a
# point is read: -g and --trace, --goals files, goal sets, --check input,
# positions, paths, scenarios (agent, seek, goal); 0,0 too.  Each form
# gives the same bytes as the other.
. "$(dirname "$0")/lib.sh"
S=$TD/demo/small.ffmap
M=$TD/movingai/arena.map

# ---- options: -g and --trace ----
"$BIN/ffbuild" -g 0,0 -g 4,4 "$S" >"$TMP/comma.ff"
run "ffbuild -g '0 0' -g '4 4'" 0 "$BIN/ffbuild -g '0 0' -g '4 4' $S > $TMP/space.ff"
same "-g X Y is -g X,Y" "$TMP/comma.ff" "$TMP/space.ff"
run "ffbuild -g '0, 0' -g '4 ,4'" 0 "$BIN/ffbuild -g '0, 0' -g '4 ,4' $S > $TMP/space.ff"
same "-g 'X, Y' is -g X,Y" "$TMP/comma.ff" "$TMP/space.ff"
for bad in '0' '0,' '0 ' ',0' '0,0,0' '0 0 0' '0;0' 'x,0' '0,,0'; do
    refuse "-g '$bad' refused" "^ffbuild: -g '$bad': not a cell X,Y" "$BIN/ffbuild -g '$bad' $S"
done
"$BIN/ffdir" "$TMP/comma.ff" >"$TMP/comma.dir"
"$BIN/ffquery" --trace 4,0 "$TMP/comma.dir" >"$TMP/t1"
run "ffquery --trace '4 0'" 0 "$BIN/ffquery --trace '4 0' $TMP/comma.dir > $TMP/t2"
same "--trace X Y is --trace X,Y" "$TMP/t1" "$TMP/t2"
check "the trace is a path" "$(wc -l <"$TMP/t1")" -ge 2

# ---- --goals files: x y, X,Y, X, Y, mixed; 0,0 accepted ----
printf '0 0\n4 4\n' >"$TMP/g-space"
printf '0,0\n4,4\n' >"$TMP/g-comma"
printf '0, 0   # the corner\n4 4\n' >"$TMP/g-mixed"
for f in space comma mixed; do
    run "--goals ($f)" 0 "$BIN/ffbuild --goals $TMP/g-$f $S > $TMP/goals-$f.ff"
    same "--goals ($f) is -g" "$TMP/comma.ff" "$TMP/goals-$f.ff"
done
printf '0,0,0\n' >"$TMP/g-bad"
refuse "--goals: three numbers by commas refused" "^ffbuild: $TMP/g-bad:1:1: '0,0,0' is not a number" \
    "$BIN/ffbuild --goals $TMP/g-bad $S"
printf '0,\n' >"$TMP/g-bad"
refuse "--goals: a comma without its second number refused" "^ffbuild: $TMP/g-bad:1:1: '0,' is not a number" \
    "$BIN/ffbuild --goals $TMP/g-bad $S"

# ---- goal sets: NAME X,Y ... and NAME X Y ... ----
printf 'a 0,0 4,4\nb 2,2\n' >"$TMP/sets-comma"
printf 'a 0 0 4 4\nb 2 2\n' >"$TMP/sets-space"
printf 'a 0 0 4,4\nb 2, 2\n' >"$TMP/sets-mixed"
"$BIN/ffbuild" -j 1 --goal-sets "$TMP/sets-comma" "$S" >"$TMP/sets-comma.ff"
for f in space; do
    run "--goal-sets ($f)" 0 "$BIN/ffbuild -j 1 --goal-sets $TMP/sets-$f $S > $TMP/sets-$f.ff"
    same "--goal-sets ($f) is X,Y" "$TMP/sets-comma.ff" "$TMP/sets-$f.ff"
done
refuse "--goal-sets: 'X, Y' is two words, the first not a cell" "bad goal '2,'" \
    "$BIN/ffbuild -j 1 --goal-sets $TMP/sets-mixed $S"
"$BIN/ffbuild" --name a -g 0,0 -g 4,4 "$S" >"$TMP/a.ff"
run "set a's field" 0 "$BIN/ffdir --list $TMP/sets-space.ff"
check "goal sets x y: the names" "$OUT" = "a
b"
printf 'a 0 0 4\n' >"$TMP/sets-bad"
refuse "--goal-sets: an odd number of words refused" "^ffbuild: $TMP/sets-bad:1:[0-9]+: bad goal '4'" \
    "$BIN/ffbuild -j 1 --goal-sets $TMP/sets-bad $S"

# ---- --check input and positions ----
"$BIN/ffbuild" -g 9,9 "$M" | "$BIN/ffdir" >"$TMP/arena.ff"
printf '0 0\n5 5\n9 9\n' >"$TMP/c-space"
printf '0,0\n5,5\n9, 9\n' >"$TMP/c-comma"
run "--check x y" 1 "$BIN/ffquery --check $TMP/arena.ff < $TMP/c-space > $TMP/c1"
run "--check X,Y (0,0 included)" 1 "$BIN/ffquery --check $TMP/arena.ff < $TMP/c-comma > $TMP/c2"
same "--check: both forms, the same answers" "$TMP/c1" "$TMP/c2"
check "--check: 0,0 is read (a wall of arena)" "$(head -n 1 "$TMP/c2" | cut -d' ' -f1-2)" = "0 0"
printf '5.5 5.5\n10.25 7.5\n0 0\n' >"$TMP/p-space"
printf '5.5,5.5\n10.25, 7.5\n0,0\n' >"$TMP/p-comma"
"$BIN/ffquery" -d "$TMP/arena.ff" <"$TMP/p-space" >"$TMP/q1"
run "positions X,Y" 0 "$BIN/ffquery -d $TMP/arena.ff < $TMP/p-comma > $TMP/q2"
same "positions: both forms, the same answers" "$TMP/q1" "$TMP/q2"
check "positions: three answers" "$(wc -l <"$TMP/q2")" = 3

# ---- paths (ffpull) ----
printf '5.5 5.5\n6.5 5.5\n7.5 6.5\n' >"$TMP/path-space"
printf '5.5,5.5\n6.5,5.5\n7.5, 6.5\n' >"$TMP/path-comma"
"$BIN/ffpull" "$TMP/arena.ff" <"$TMP/path-space" >"$TMP/pull1"
run "ffpull, a path of X,Y" 0 "$BIN/ffpull $TMP/arena.ff < $TMP/path-comma > $TMP/pull2"
same "ffpull: both forms, the same pulled path" "$TMP/pull1" "$TMP/pull2"

# ---- scenarios: agent, seek, goal ----
C=$TD/sim/corridor
"$BIN/ffbuild" "$C.ffmap" | "$BIN/ffdir" >"$TMP/corridor.ff"
"$BIN/ffsim" "$TMP/corridor.ff" "$C.scenario" >"$TMP/sim1" 2>/dev/null
sed -e 's/^\( *goal\) \([0-9]*\),\([0-9]*\)$/\1 \2 \3/' \
    -e 's/^\(agent [0-9]* [a-z]*\) \([0-9.]*\),\([0-9.]*\)$/\1 \2 \3/' "$C.scenario" >"$TMP/space.scenario"
check "the scenario rewritten with x y" "$(grep -v '^#' "$TMP/space.scenario" | grep -c ',')" = 0
"$BIN/ffsim" "$TMP/corridor.ff" "$TMP/space.scenario" >"$TMP/sim2" 2>/dev/null
check "ffsim: a trace" -s "$TMP/sim1"
same "ffsim: agent and goal X Y give the trace of X,Y" "$TMP/sim1" "$TMP/sim2"
printf 'ffsim 1\nticks 5\nclass c\n  radius 0.3\n  speed 1\n  seek %s\nend\nagent 1 c %s tick 1\n' \
    '7.5,1.5' '2.5,1.5' >"$TMP/seek1.scenario"
printf 'ffsim 1\nticks 5\nclass c\n  radius 0.3\n  speed 1\n  seek %s\nend\nagent 1 c %s tick 1\n' \
    '7.5 1.5' '2.5 1.5' >"$TMP/seek2.scenario"
run "ffsim: seek X,Y" 0 "$BIN/ffsim $TMP/corridor.ff $TMP/seek1.scenario > $TMP/seek1 2>/dev/null"
run "ffsim: seek X Y, agent X Y tick T" 0 "$BIN/ffsim $TMP/corridor.ff $TMP/seek2.scenario > $TMP/seek2 2>/dev/null"
same "ffsim: seek and agent, both forms, one trace" "$TMP/seek1" "$TMP/seek2"
check "ffsim: the agent moved" "$(grep -c '^5 1 ' "$TMP/seek2")" = 1
printf 'ffsim 1\nticks 5\nclass c\n  radius 0.3\n  speed 1\n  goal 8 1 2\nend\n' >"$TMP/bad.scenario"
refuse "ffsim: goal with three numbers refused" "goal needs one cell X,Y or X Y" \
    "$BIN/ffsim $TMP/corridor.ff $TMP/bad.scenario"
finish
