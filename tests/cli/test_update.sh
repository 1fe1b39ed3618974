#!/bin/sh
# ffbuild --update: the repaired stream equals, byte for byte, ffbuild on
# the changed map (made by hand from the ffmap's rows by changes.awk) with
# the same goals and options; refusals.
. "$(dirname "$0")/lib.sh"
DEMO=$TD/demo/demo.ffmap

# Random change lists on the demo map under several rules, one change and
# many at once; the same stream through the text encoding.
for opts in "" "-m 4" "-c cut" "-c free" "-m 4 -g 1,10 -g 38,1"; do
    "$BIN/ffbuild" $opts "$DEMO" -o "$TMP/base.ff" || fail "base $opts" "ffbuild failed"
    for seed in 1 2 3 4 5 6; do
        n=$(( seed % 3 == 0 ? 1 : seed * 2 ))
        awk -v seed="$seed" -v n="$n" -v ch="$TMP/ch.txt" -f tests/cli/changes.awk "$DEMO" >"$TMP/changed.ffmap"
        "$BIN/ffbuild" $opts "$TMP/changed.ffmap" -o "$TMP/want.ff"
        run "update '$opts' seed $seed" 0 "$BIN/ffbuild --update $TMP/ch.txt $TMP/base.ff -o $TMP/got.ff"
        same "update '$opts' seed $seed equals a rebuild" "$TMP/got.ff" "$TMP/want.ff"
    done
done
"$BIN/ffbuild" --text "$DEMO" -o "$TMP/base.txt"
awk -v seed=9 -v n=5 -v ch="$TMP/ch.txt" -f tests/cli/changes.awk "$DEMO" >"$TMP/changed.ffmap"
"$BIN/ffbuild" --text "$TMP/changed.ffmap" -o "$TMP/want.txt"
run "update of a text stream" 0 "$BIN/ffbuild --update $TMP/ch.txt --text $TMP/base.txt -o $TMP/got.txt"
same "text update equals a rebuild" "$TMP/got.txt" "$TMP/want.txt"
run "update from standard input" 0 "$BIN/ffbuild --update $TMP/ch.txt --text < $TMP/base.txt > $TMP/got2.txt"
same "stdin update equals a rebuild" "$TMP/got2.txt" "$TMP/want.txt"

# A clearance radius: closings close the cells near them too.
for r in 0.5 0.6 1.2; do
    "$BIN/ffbuild" -r $r -g 37,10 "$DEMO" -o "$TMP/base.ff"
    for seed in 11 12 13; do
        awk -v seed="$seed" -v n=3 -v kinds=close -v ch="$TMP/ch.txt" -f tests/cli/changes.awk "$DEMO" >"$TMP/changed.ffmap"
        if "$BIN/ffbuild" -r $r -g 37,10 "$TMP/changed.ffmap" -o "$TMP/want.ff" 2>/dev/null; then
            run "radius $r seed $seed" 0 "$BIN/ffbuild --update $TMP/ch.txt $TMP/base.ff -o $TMP/got.ff"
            same "radius $r seed $seed equals a rebuild" "$TMP/got.ff" "$TMP/want.ff"
        fi
    done
done
# Closings and costs mixed on a cleared map: where no cost falls on a
# closed cell, a rebuild of the changed map (costs do not move the
# clearance) is the oracle.
good=0
for r in 0.5 1.2; do
    "$BIN/ffbuild" -r $r -g 37,10 "$DEMO" -o "$TMP/base.ff"
    for seed in 51 52 53 54 55 56 57 58; do
        awk -v seed="$seed" -v n=4 -v ch="$TMP/ch.txt" -f tests/cli/changes.awk "$DEMO" >"$TMP/changed.ffmap"
        if "$BIN/ffbuild" --update "$TMP/ch.txt" "$TMP/base.ff" -o "$TMP/got.ff" 2>"$TMP/err"; then
            "$BIN/ffbuild" -r $r -g 37,10 "$TMP/changed.ffmap" -o "$TMP/want.ff"
            same "radius $r mixed seed $seed equals a rebuild" "$TMP/got.ff" "$TMP/want.ff"
            good=$((good + 1))
        else
            check "radius $r mixed seed $seed: refused for a closed cell or goal" \
                "$(grep -c 'is closed in a map cleared\|closes goal' "$TMP/err")" = 1
        fi
    done
done
check "most mixed lists apply" $good -ge 8
# ... and a cost for an open cell of a cleared map is fine.
printf 'cost 30,12,31,12 2.5\n' >"$TMP/ch.txt"
"$BIN/ffbuild" -r 0.6 -g 37,10 "$DEMO" -o "$TMP/base.ff"
sed '/^map$/i legend k 2.5' "$DEMO" | awk '/^map$/{m=1;print;next} m&&++y==13{$0=substr($0,1,30) "kk" substr($0,33)} {print}' >"$TMP/changed.ffmap"
"$BIN/ffbuild" -r 0.6 -g 37,10 "$TMP/changed.ffmap" -o "$TMP/want.ff"
run "cost in a cleared map" 0 "$BIN/ffbuild --update $TMP/ch.txt $TMP/base.ff -o $TMP/got.ff"
same "cost in a cleared map equals a rebuild" "$TMP/got.ff" "$TMP/want.ff"

# A multi-field stream: each field repaired.
"$BIN/ffbuild" --goal-sets "$TD/demo/demo.sets" "$DEMO" -o "$TMP/sets.ff"
awk -v seed=21 -v n=4 -v ch="$TMP/ch.txt" -f tests/cli/changes.awk "$DEMO" >"$TMP/changed.ffmap"
"$BIN/ffbuild" --goal-sets "$TD/demo/demo.sets" "$TMP/changed.ffmap" -o "$TMP/want.ff"
run "update of a multi-field stream" 0 "$BIN/ffbuild --update $TMP/ch.txt $TMP/sets.ff -o $TMP/got.ff"
same "multi-field update equals a rebuild" "$TMP/got.ff" "$TMP/want.ff"

# A long list: checked change by change, repaired once; the same bytes as
# a rebuild of the map the whole list makes.
"$BIN/ffbuild" "$DEMO" -o "$TMP/base.ff"
awk -v seed=31 -v n=300 -v ch="$TMP/ch.txt" -f tests/cli/changes.awk "$DEMO" >"$TMP/changed.ffmap"
"$BIN/ffbuild" "$TMP/changed.ffmap" -o "$TMP/want.ff"
run "300 changes" 0 "$BIN/ffbuild --update $TMP/ch.txt $TMP/base.ff -o $TMP/got.ff"
same "300 changes equal a rebuild" "$TMP/got.ff" "$TMP/want.ff"

# A list whose region is most of the map: one search of the whole map,
# the same bytes as a rebuild.  100 whole-map costs (the walls opened)
# and a block closed; and on a cleared map, a block of the west closed.
awk 'BEGIN { for (k = 0; k < 100; k++) printf "cost 0,0,39,19 %s\n", k % 2 ? 2.5 : 4
             print "close 5,5,6,6" }' >"$TMP/ch.txt"
sed 's/^legend \([<GS]\) \(goal \|spawn \)\{0,1\}1/legend \1 \22.5/; /^map$/i legend k 2.5' "$DEMO" |
    awk '/^map$/ { m = 1; print; next } !m { print; next }
         { gsub(/[^<GS]/, "k"); if (++y == 6 || y == 7) $0 = substr($0, 1, 5) "##" substr($0, 8); print }' \
    >"$TMP/changed.ffmap"
"$BIN/ffbuild" "$TMP/changed.ffmap" -o "$TMP/want.ff"
run "100 whole-map costs" 0 "$BIN/ffbuild --update $TMP/ch.txt $TMP/base.ff -o $TMP/got.ff"
same "100 whole-map costs equal a rebuild" "$TMP/got.ff" "$TMP/want.ff"
printf 'close 3,6,22,12\n' >"$TMP/ch.txt"
awk '/^map$/ { m = 1; print; next }
     m && y >= 6 && y <= 12 { $0 = substr($0, 1, 3) "####################" substr($0, 24) }
     m { y++ } { print }' "$DEMO" >"$TMP/changed.ffmap"
"$BIN/ffbuild" -r 0.6 -g 37,10 "$TMP/changed.ffmap" -o "$TMP/want.ff"
"$BIN/ffbuild" -r 0.6 -g 37,10 "$DEMO" -o "$TMP/r.ff"
run "west block closed, radius 0.6" 0 "$BIN/ffbuild --update $TMP/ch.txt $TMP/r.ff -o $TMP/got.ff"
same "west block closed equals a rebuild" "$TMP/got.ff" "$TMP/want.ff"

# No change: the same stream.
printf '# nothing\n\n' >"$TMP/none.txt"
"$BIN/ffbuild" "$DEMO" -o "$TMP/base.ff"
run "empty change list" 0 "$BIN/ffbuild --update $TMP/none.txt $TMP/base.ff -o $TMP/got.ff"
same "empty change list keeps the stream" "$TMP/got.ff" "$TMP/base.ff"

# Closing and opening again gives the first stream back.
printf 'close 23,13,23,13\ncost 23,13,23,13 0.5\n' >"$TMP/ch.txt"
run "close and open the gate" 0 "$BIN/ffbuild --update $TMP/ch.txt $TMP/base.ff -o $TMP/got.ff"
same "close and open gives the stream back" "$TMP/got.ff" "$TMP/base.ff"

# Refusals: one line, exit 2, no output, no file.
p() { printf '%s\n' "$1" >"$TMP/bad.txt"; }
p 'close 32,5,32,5'
refuse "closing a goal" "bad.txt:1:7: the change closes goal 32,5$" "$BIN/ffbuild --update $TMP/bad.txt $TMP/base.ff"
p 'close 0,0,40,3'
refuse "leaving the map" "bad.txt:1:7: rectangle 0,0,40,3 leaves the 40x20 map" "$BIN/ffbuild --update $TMP/bad.txt $TMP/base.ff"
p 'close -1,0,1,1'
refuse "negative cell" "bad.txt:1:7: rectangle -1,0,1,1 leaves" "$BIN/ffbuild --update $TMP/bad.txt $TMP/base.ff"
p 'open 1,1,2,2'
refuse "unknown change" "bad.txt:1:1: unknown change 'open'" "$BIN/ffbuild --update $TMP/bad.txt $TMP/base.ff"
p 'close 1,1,2'
refuse "three numbers" "bad.txt:1:7: bad rectangle '1,1,2'" "$BIN/ffbuild --update $TMP/bad.txt $TMP/base.ff"
p 'close 3,1,2,2'
refuse "empty rectangle" "bad.txt:1:7: rectangle 3,1,2,2 is empty" "$BIN/ffbuild --update $TMP/bad.txt $TMP/base.ff"
p 'cost 1,1,2,2'
refuse "cost without C" "bad.txt:1:.*cost wants a cost" "$BIN/ffbuild --update $TMP/bad.txt $TMP/base.ff"
for c in -1 inf nan 1e40 x 2,5; do
    p "cost 1,1,2,2 $c"
    refuse "cost $c" "bad.txt:1:14: bad cost '$c'" "$BIN/ffbuild --update $TMP/bad.txt $TMP/base.ff"
done
p 'close 1,1,2,2 now'
refuse "extra word" "bad.txt:1:15: unexpected 'now'" "$BIN/ffbuild --update $TMP/bad.txt $TMP/base.ff"
printf 'close 1,1,1,1\n# fine\nclose 2,2,2,2 # fine\ncost 50,1,50,1 3\n' >"$TMP/bad.txt"
refuse "error on line 4" "bad.txt:4:6: rectangle 50,1,50,1 leaves" "$BIN/ffbuild --update $TMP/bad.txt $TMP/base.ff"
"$BIN/ffbuild" -r 0.6 -g 37,10 "$DEMO" -o "$TMP/r.ff"
p 'close 36,10,36,10'
refuse "clearance closes a goal" "closes goal 37,10 \\(by the clearance radius\\)" "$BIN/ffbuild --update $TMP/bad.txt $TMP/r.ff"
printf 'cost 20,15,20,15 2\nclose 20,15,20,15\ncost 20,15,20,15 1\n' >"$TMP/bad.txt"
refuse "a cost where an earlier change closed" \
    "bad.txt:3:6: cell 20,15 is closed in a map cleared for radius 0.6" "$BIN/ffbuild --update $TMP/bad.txt $TMP/r.ff"
p 'cost 1,1,1,1 1'
refuse "opening a cleared cell" "bad.txt:1:6: cell 1,1 is closed in a map cleared for radius 0.6" "$BIN/ffbuild --update $TMP/bad.txt $TMP/r.ff"
"$BIN/ffbuild" "$DEMO" | "$BIN/ffdir" -o "$TMP/dir.ff"
"$BIN/ffbuild" "$DEMO" -o "$TMP/plain.ff"
p 'close 5,5,5,5'
"$BIN/ffbuild" --update "$TMP/bad.txt" "$TMP/plain.ff" -o "$TMP/want.ff"
run "a stream with directions" 0 "$BIN/ffbuild --update $TMP/bad.txt $TMP/dir.ff -o $TMP/got.ff"
same "directions dropped, as ffbuild writes" "$TMP/got.ff" "$TMP/want.ff"
refuse "a map, not a field" "demo.ffmap:1:1: an ffmap, not an ff stream: build a field of it with ffbuild -g X,Y$" "$BIN/ffbuild --update $TMP/bad.txt $DEMO"
refuse "--update with -g" "--update: it keeps the field's goals" "$BIN/ffbuild --update $TMP/bad.txt -g 1,1 $TMP/base.ff"
refuse "--update with -r" "--update: it keeps the field's goals" "$BIN/ffbuild --update $TMP/bad.txt -r 1 $TMP/base.ff"
refuse "both on stdin" "cannot both be standard input" "$BIN/ffbuild --update - < $TMP/base.ff"
refuse "missing changes" "nope.txt: cannot open" "$BIN/ffbuild --update $TMP/nope.txt $TMP/base.ff"
p 'close 32,5,32,5'
rm -f "$TMP/out.ff"
refuse "refused with -o" "closes goal" "$BIN/ffbuild --update $TMP/bad.txt $TMP/base.ff -o $TMP/out.ff"
check "no file left by a refusal" ! -e "$TMP/out.ff"
check "no temporary left" -z "$(ls -A "$TMP" | grep '^\.out')"
finish
