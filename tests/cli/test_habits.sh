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
# ---- binary refused to a terminal ----
# Standard output a terminal (a pty made by script(1)): each program that
# would write binary there says so in one line and exits 2, writing
# nothing; with -o FILE or the text option it writes; to a pipe it writes.
# on_tty CMD: CMD's stdout a pty, its stderr and status in $TMP/tty.err
# and $TMP/tty.rc, what reached the terminal in $TMP/tty.out.
on_tty() {
    script -qec "$1 2>$TMP/tty.err; echo \$? >$TMP/tty.rc" /dev/null >"$TMP/tty.out" 2>&1 </dev/null
}
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1 </dev/null; then
    "$BIN/ffbuild" "$TD/demo/small.ffmap" >"$TMP/small.ff"
    "$BIN/ffdir" "$TMP/small.ff" >"$TMP/smalld.ff"
    perl -e 'print pack "d<2", 0.5, 0.5' >"$TMP/pos.bin"
    for case in "ffbuild $TD/demo/small.ffmap|--text" "ffdir $TMP/small.ff|--text" \
        "ffexport $TMP/small.ff|--csv" "ffpng $TMP/smalld.ff|" \
        "ffquery --binary $TMP/smalld.ff <$TMP/pos.bin|"; do
        cmd=${case%|*} alt=${case#*|}
        on_tty "$BIN/$cmd"
        check "$cmd to a terminal: exit 2" "$(cat "$TMP/tty.rc")" = 2
        check "$cmd to a terminal: nothing written" ! -s "$TMP/tty.out"
        prog=${cmd%% *}
        check "$cmd to a terminal: one line" "$(cat "$TMP/tty.err")" = \
            "$prog: refusing to write binary to a terminal: use -o FILE${alt:+ or $alt}"
        rm -f "$TMP/tty.raw"
        on_tty "$BIN/$cmd -o $TMP/tty.raw"
        check "$cmd -o FILE from a terminal: written" "$(cat "$TMP/tty.rc")" = 0 -a -s "$TMP/tty.raw"
        if [ -n "$alt" ]; then
            on_tty "$BIN/$cmd $alt"
            check "$cmd $alt to a terminal: written" "$(cat "$TMP/tty.rc")" = 0 -a -s "$TMP/tty.out"
        fi
        run "$cmd to a pipe: written" 0 "$BIN/$cmd | cat >$TMP/tty.pipe"
        check "$cmd to a pipe: bytes" -s "$TMP/tty.pipe"
    done
    on_tty "$BIN/ffdir --list $TMP/smalld.ff"
    check "ffdir --list to a terminal: text, written" "$(cat "$TMP/tty.rc")" = 0
else
    echo "# script(1) cannot make a terminal here: the binary-to-a-terminal checks are skipped"
fi
# ---- progress of long runs ----
# With --progress (or standard error a terminal) ffsim, ffbuild
# --goal-sets and ffpng --animate write one line that overwrites itself:
# "\rprog: WHAT D/T (P%)" as the percent grows, then on a terminal blanks
# over it and a carriage return, to a file a newline (what follows is a
# line of its own); without, and to a file, nothing.  The outputs are the
# same bytes either way.
# progress_ok FILE PROG WHAT TOTAL [tty]: the stderr FILE is that line's
# updates, percents rising to the last (D of TOTAL), then the erasure
# (tty) or the newline.
progress_ok() {
    awk -v RS='\r' -v prog="$2" -v what="$3" -v total="$4" -v tty="${5:-}" '
        NR == 1 { if ($0 != "") bad = "text before the first line"; next }
        tty && /^ +$/ { erased = NR; next }
        erased { bad = "text after the erasure: " $0; next }
        !tty && /\n$/ { sub(/\n$/, ""); erased = NR }
        { n = split($0, w, " ")
          if (n != 4 || w[1] != prog ":" || w[2] != what) { bad = "line " $0; next }
          split(w[3], dt, "/"); p = substr(w[4], 2) + 0
          if (dt[2] != total || p != int(100 * dt[1] / total) || (lines && p <= last)) bad = "line " $0
          last = p; lines++ }
        END { if (!erased) bad = bad " not erased"; if (!lines) bad = bad " no line"
              print bad ? bad : "ok " last }' "$1"
}
printf 'ffsim 1\nticks 50\nclass c\n  radius 0.3\n  speed 1\n  follow\nend\nagent 1 c 1.5,1.5\n' >"$TMP/slow.scen"
run "ffsim --progress" 0 "$BIN/ffsim --progress -o $TMP/p.trace --summary $TMP/p.sum $TMP/pocket.ff $TMP/slow.scen 2>$TMP/p.err"
# (the run ends when nothing can change any more: at its trace's last tick)
last=$(awk '!/^#/ { t = $1 } END { print int(100 * t / 50) }' "$TMP/p.trace")
check "ffsim --progress: ticks to the last of 50 ($last%), erased" "$(progress_ok "$TMP/p.err" ffsim tick 50)" = "ok $last"
check "ffsim --progress: 51 updates at most" "$(tr '\r' '\n' <"$TMP/p.err" | grep -c 'tick')" -le 51
run "ffsim without --progress" 0 "$BIN/ffsim -o $TMP/np.trace --summary $TMP/np.sum $TMP/pocket.ff $TMP/slow.scen 2>$TMP/np.err"
check "ffsim without --progress, stderr a file: nothing" ! -s "$TMP/np.err"
same "ffsim --progress: the same trace" "$TMP/p.trace" "$TMP/np.trace"
run "ffbuild --goal-sets --progress" 0 "$BIN/ffbuild --progress --goal-sets $BT/maps/yard.sets $BT/maps/yard.map >$TMP/p.ff 2>$TMP/p.err"
check "ffbuild --progress: fields to 3 of 3, erased" "$(progress_ok "$TMP/p.err" ffbuild field 3)" = "ok 100"
"$BIN/ffbuild" --goal-sets "$BT/maps/yard.sets" "$BT/maps/yard.map" >"$TMP/np.ff" 2>"$TMP/np.err"
check "ffbuild --goal-sets without --progress: nothing" ! -s "$TMP/np.err"
same "ffbuild --progress: the same stream" "$TMP/p.ff" "$TMP/np.ff"
run "ffpng --animate --progress" 0 "$BIN/ffpng --animate --progress --trace $TMP/p.trace -o $TMP/p.png $TMP/pocket.ff 2>$TMP/p.err"
frames=$(awk '!/^#/ { print $1 }' "$TMP/p.trace" | uniq | wc -l)
check "ffpng --progress: frames to $frames of $frames, erased" "$(progress_ok "$TMP/p.err" ffpng frame "$frames")" = "ok 100"
"$BIN/ffpng" --animate --trace "$TMP/p.trace" -o "$TMP/np.png" "$TMP/pocket.ff" 2>"$TMP/np.err"
check "ffpng --animate without --progress: nothing" ! -s "$TMP/np.err"
same "ffpng --progress: the same animation" "$TMP/p.png" "$TMP/np.png"
check "the progress checker sees a falling percent" \
    "$(printf '\rffsim: tick 2/4 (50%%)\rffsim: tick 1/4 (25%%)\n' >"$TMP/fall"; progress_ok "$TMP/fall" ffsim tick 4)" != "ok 25"
# Standard error a terminal (script(1)'s pty): shown without --progress.
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1 </dev/null; then
    script -qec "$BIN/ffsim -o $TMP/t.trace --summary $TMP/t.sum $TMP/pocket.ff $TMP/slow.scen" /dev/null \
        >"$TMP/t.err" 2>&1 </dev/null
    check "ffsim on a terminal: the progress line" "$(progress_ok "$TMP/t.err" ffsim tick 50 tty)" = "ok $last"
    script -qec "$BIN/ffbuild -o $TMP/t.ff --goal-sets $BT/maps/yard.sets $BT/maps/yard.map" /dev/null \
        >"$TMP/t.err" 2>&1 </dev/null
    check "ffbuild --goal-sets on a terminal: the progress line" "$(progress_ok "$TMP/t.err" ffbuild field 3 tty)" = "ok 100"
fi
finish
