#!/bin/sh
# One toolchain's habits: --list in every program that reads fields,
# --name in ffsim (an ambiguous stream refused), ffpull's PATH argument,
# ffquery -o (atomic) and its refusal of an empty --check, and ffsim
# --check's exit status and reasons (unreachable, deadlocked, stuck, out of
# ticks).
. "$(dirname "$0")/lib.sh"
BT=$TD/batch
SIM=$TD/sim
"$BIN/ffbuild" --goal-sets "$BT/maps/yard.sets" "$BT/maps/yard.map" | "$BIN/ffdir" >"$TMP/yard.ff"
names="exit
west
corners"

# ---- --list everywhere ----
for cmd in "ffdir --list" "ffquery --list" "ffpng --list" "ffpull --list" "fffunnel --list --cells" \
    "ffsim --list" "ffinfo --list" "ffexport --list"; do
    run "$cmd" 0 "$BIN/$cmd $TMP/yard.ff"
    check "$cmd: the names" "$OUT" = "$names"
done
# -o FILE takes the list in every program, stdout left empty.
for cmd in "ffdir --list" "ffquery --list" "ffpng --list" "ffpull --list" "fffunnel --list --cells" \
    "ffsim --list" "ffinfo --list" "ffexport --list"; do
    rm -f "$TMP/names"
    run "$cmd -o" 0 "$BIN/$cmd $TMP/yard.ff -o $TMP/names"
    check "$cmd -o: the names in the file" "$(cat "$TMP/names" 2>/dev/null)" = "$names"
    check "$cmd -o: nothing on stdout" -z "$OUT"
done
refuse "fffunnel --list without --cells" "^fffunnel: --list: it goes with --cells FIELD" "$BIN/fffunnel --list"
: >"$TMP/empty"
refuse "ffsim --list of an empty stream" "^ffsim: .*empty input" "$BIN/ffsim --list $TMP/empty"

# ---- ffpull: the path from a file or standard input ----
printf '1.5 5.5\n2.5 5.5\n3.5 5.5\n4.5 6.5\n' >"$TMP/path"
run "ffpull FIELD < PATH" 0 "$BIN/ffpull --name west $TMP/yard.ff < $TMP/path > $TMP/pull-stdin"
run "ffpull FIELD PATH" 0 "$BIN/ffpull --name west $TMP/yard.ff $TMP/path > $TMP/pull-file"
same "ffpull: PATH as a file is PATH on stdin" "$TMP/pull-stdin" "$TMP/pull-file"
check "ffpull pulled the path" "$(wc -l <"$TMP/pull-file")" -lt 4
run "ffpull - PATH: the field on stdin" 0 "$BIN/ffpull --name west - $TMP/path < $TMP/yard.ff > $TMP/pull-fstdin"
same "ffpull: the field on stdin" "$TMP/pull-stdin" "$TMP/pull-fstdin"
printf '1.5 5.5\nx 2\n' >"$TMP/badpath"
refuse "ffpull: a bad PATH file is named" "^ffpull: $TMP/badpath:2:1: 'x' is not a number" \
    "$BIN/ffpull --name west $TMP/yard.ff $TMP/badpath"
refuse "ffpull: FIELD and PATH both stdin" "^ffpull: FIELD '-'" "$BIN/ffpull - < $TMP/path"

# ---- ffquery -o and an empty --check ----
printf '1 1\n10 6\n' >"$TMP/cells"
"$BIN/ffquery" --name exit --check "$TMP/yard.ff" <"$TMP/cells" >"$TMP/check-stdout"
run "ffquery --check -o" 0 "$BIN/ffquery --name exit --check -o $TMP/check.out $TMP/yard.ff < $TMP/cells"
same "ffquery -o writes what stdout gets" "$TMP/check-stdout" "$TMP/check.out"
run "ffquery --trace -o" 0 "$BIN/ffquery --name exit --trace 1,1 -o $TMP/trace.out $TMP/yard.ff"
check "ffquery --trace -o: a path" "$(wc -l <"$TMP/trace.out")" -ge 2
printf '5.5 5.5\n' >"$TMP/pos"
run "ffquery positions -o" 0 "$BIN/ffquery --name exit -d -o $TMP/pos.out $TMP/yard.ff < $TMP/pos"
check "ffquery positions -o: one answer" "$(wc -l <"$TMP/pos.out")" = 1
cp "$TMP/pos.out" "$TMP/pos.keep"
printf '5.5 5.5\nx y\n' >"$TMP/badpos"
refuse "ffquery -o: a bad position refused" "^ffquery: -:2:1: 'x' is not a number" \
    "$BIN/ffquery --name exit -d -o $TMP/pos.out $TMP/yard.ff < $TMP/badpos"
same "ffquery -o: the earlier file survives whole" "$TMP/pos.out" "$TMP/pos.keep"
check "ffquery -o: no temporary file left" "$(ls -a "$TMP" | grep -c '^\.pos\.out')" = 0
refuse "ffquery --check with no positions" "^ffquery: -: no positions to check \\(want cells 'x y' or 'x,y', one a line, or world positions 'x.x y.y'\\)$" \
    "$BIN/ffquery --name exit --check $TMP/yard.ff < /dev/null"
printf '# only a comment\n\n' >"$TMP/nocells"
refuse "ffquery --check with only comments" "^ffquery: -: no positions to check" \
    "$BIN/ffquery --name exit --check $TMP/yard.ff < $TMP/nocells"
refuse "ffquery --check -o with no positions leaves no file" "no positions to check" \
    "$BIN/ffquery --name exit --check -o $TMP/none.out $TMP/yard.ff < /dev/null"
check "no file for a refused check" ! -e "$TMP/none.out"

# ---- ffsim --name: a multi-field stream needs it ----
printf 'ffsim 1\nticks 40\nclass c\n  radius 0.3\n  speed 1\n  follow\nend\nagent 1 c 3.5,1.5\n' >"$TMP/one.scen"
refuse "ffsim: a multi-field stream without --name" \
    "^ffsim: $TMP/yard.ff: the stream holds 3 fields \(exit, west, corners\): choose one with --name" \
    "$BIN/ffsim $TMP/yard.ff $TMP/one.scen"
refuse "ffsim --name: no such field" "no field named 'east'" "$BIN/ffsim --name east $TMP/yard.ff $TMP/one.scen"
"$BIN/ffbuild" --name exit -g 9,1 "$BT/maps/yard.map" | "$BIN/ffdir" >"$TMP/exit.ff"
run "ffsim --name exit" 0 "$BIN/ffsim --name exit $TMP/yard.ff $TMP/one.scen > $TMP/sim-named 2>/dev/null"
"$BIN/ffsim" "$TMP/exit.ff" "$TMP/one.scen" >"$TMP/sim-alone" 2>/dev/null
same "ffsim --name exit: the trace of the field alone" "$TMP/sim-named" "$TMP/sim-alone"

# ---- ffsim --check ----
"$BIN/ffbuild" "$SIM/pocket.ffmap" | "$BIN/ffdir" >"$TMP/pocket.ff"
"$BIN/ffbuild" "$SIM/corridor.ffmap" | "$BIN/ffdir" >"$TMP/corridor.ff"
# Agent 4 arrives; 1 is far and the ticks few; 2 starts in the walled-off
# pocket; 3 enters after the last tick.
printf 'ffsim 1\nticks 40\nclass c\n  radius 0.3\n  speed 1\n  follow\nend\n%s\n' \
    'agent 1 c 1.5,1.5
agent 2 c 8.5,1.5
agent 3 c 2.5,2.5 tick 100
agent 4 c 5.5,2.5' >"$TMP/miss.scen"
run "ffsim --check: some agents do not arrive" 1 "$BIN/ffsim --check $TMP/pocket.ff $TMP/miss.scen > $TMP/trace"
check "ffsim --check: the trace is still written" -s "$TMP/trace"
check "ffsim --check: agent 1 out of ticks" \
    "$(printf '%s\n' "$ERR" | grep -c '^ffsim: agent 1 did not arrive: out of ticks (')" = 1
check "ffsim --check: agent 2 unreachable" \
    "$(printf '%s\n' "$ERR" | grep -c '^ffsim: agent 2 did not arrive: unreachable (')" = 1
check "ffsim --check: agent 3 out of ticks (never entered)" \
    "$(printf '%s\n' "$ERR" | grep -c '^ffsim: agent 3 did not arrive: out of ticks (')" = 1
check "ffsim --check: agent 4 arrived, no line" "$(printf '%s\n' "$ERR" | grep -c 'agent 4 did not')" = 0
check "ffsim --check: three lines" "$(printf '%s\n' "$ERR" | grep -c 'did not arrive')" = 3
run "ffsim without --check: exit 0 all the same" 0 "$BIN/ffsim $TMP/pocket.ff $TMP/miss.scen > /dev/null"
check "ffsim without --check: no line" "$(printf '%s\n' "$ERR" | grep -c 'did not arrive')" = 0
run "ffsim --check: head-on in a corridor" 1 "$BIN/ffsim --check $TMP/corridor.ff $SIM/corridor.scenario > /dev/null"
check "ffsim --check: both deadlocked" \
    "$(printf '%s\n' "$ERR" | grep -c '^ffsim: agent [12] did not arrive: deadlocked (')" = 2
# Grid moves with reservations: agent 1 arrives and stays on the one goal
# cell; agent 2 waits behind it for ever.
printf 'ffsim 1\nticks 60\nmove grid\nreserve on\narrived stay\nclass e\n  radius 0.3\n  speed 1\n  goal 8,1\n  follow\nend\nagent 1 e 6.5,1.5\nagent 2 e 5.5,1.5\n' >"$TMP/stuck.scen"
run "ffsim --check: a queue behind an arrived agent" 1 "$BIN/ffsim --check $TMP/corridor.ff $TMP/stuck.scen > /dev/null"
check "ffsim --check: agent 2 stuck, agent 1 arrived" "$(printf '%s\n' "$ERR" | grep 'did not arrive')" = \
    "ffsim: agent 2 did not arrive: stuck (it did not move in the last tick)"
printf 'ffsim 1\nticks 200\nclass c\n  radius 0.3\n  speed 1\n  follow\nend\nagent 1 c 1.5,1.5\nagent 2 c 5.5,3.5\n' >"$TMP/all.scen"
run "ffsim --check: every agent arrives" 0 "$BIN/ffsim --check $TMP/pocket.ff $TMP/all.scen > /dev/null"
check "ffsim --check: no line when all arrive" "$(printf '%s\n' "$ERR" | grep -c 'did not arrive')" = 0
finish
