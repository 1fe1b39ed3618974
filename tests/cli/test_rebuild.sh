#!/bin/sh
# ffsim's map events repaired ('rebuild repair', the default) against
# fields built whole ('rebuild full'): the same trace bytes on the doors
# scenario and on random door events; the cache taken when a door opens
# again; a change a field cannot feel leaves it in use.
. "$(dirname "$0")/lib.sh"

"$BIN/ffbuild" "$TD/doors.ffmap" | "$BIN/ffdir" >"$TMP/doors.ff"
key() { sed -n "s/^$1 //p" "$2"; }

sed 's/^rebuild-ticks 3/rebuild-ticks 3\nrebuild full/' "$TD/doors.scenario" >"$TMP/full.scenario"
run "doors, repaired" 0 "$BIN/ffsim -o $TMP/repair.trace --summary $TMP/repair.sum $TMP/doors.ff $TD/doors.scenario"
run "doors, built whole" 0 "$BIN/ffsim -o $TMP/full.trace --summary $TMP/full.sum $TMP/doors.ff $TMP/full.scenario"
same "doors: the same trace" "$TMP/repair.trace" "$TMP/full.trace"
check "doors: the same builds" "$(key field_builds "$TMP/repair.sum")" = "$(key field_builds "$TMP/full.sum")"

# Random door events: the two passages and a few random cells closed and
# opened again, two and three profiles, fallback astar and wait.
for seed in 1 2 3 4 5 6; do
    awk -v seed=$seed 'BEGIN { srand(seed); t = 1
        print "ffsim 1\ntick 0.1\nticks 160\narrive 0.6\nprofiles on"
        print "rebuild-ticks " int(rand() * 4)
        print "fallback " (rand() < 0.5 ? "astar" : "wait")
        for (k = 0; k < 7; k++) {
            t += 1 + int(rand() * 15)
            r = rand()
            if (r < 0.4) print "at " t " " (k % 2 ? "open" : "close") " 20,6,21,8"
            else if (r < 0.6) print "at " t " " (k % 2 ? "open" : "close") " 20,19,21,22"
            else { x = 2 + int(rand() * 35); y = 1 + int(rand() * 26)
                   print "at " t " close " x "," y "," x + 1 "," y; print "at " t + 3 " open " x "," y "," x + 1 "," y }
        }
        print "class small\n    radius 0.3\n    speed 1.4\n    follow\n    separate weight 0.5 range 1.0\nend"
        print "class large\n    radius 0.8\n    speed 1.0\n    follow\nend"
        if (seed % 2) print "class mid\n    radius 0.5\n    speed 1.2\n    follow\nend"
        print "spawn 10 large rect 1.2,8,7.5,13.3 seed " seed " first 100"
        print "spawn 20 small rect 1.2,1.5,7.5,7 seed " seed " first 0"
        if (seed % 2) print "spawn 10 mid rect 1.2,1.5,7.5,7 seed " seed + 9 " first 200"
    }' >"$TMP/r$seed.scenario"
    sed 's/^profiles on/profiles on\nrebuild full/' "$TMP/r$seed.scenario" >"$TMP/f$seed.scenario"
    "$BIN/ffsim" -o "$TMP/r$seed.trace" --summary "$TMP/r$seed.sum" "$TMP/doors.ff" "$TMP/r$seed.scenario" 2>/dev/null
    "$BIN/ffsim" -o "$TMP/f$seed.trace" --summary "$TMP/f$seed.sum" "$TMP/doors.ff" "$TMP/f$seed.scenario" 2>/dev/null
    check "random events $seed: traces written" -s "$TMP/r$seed.trace" -a -s "$TMP/f$seed.trace"
    same "random events $seed: the same trace" "$TMP/r$seed.trace" "$TMP/f$seed.trace"
    check "random events $seed: no cache when built whole" "$(key field_cache_hits "$TMP/f$seed.sum")" = 0
done

# A door closed and opened again: the second and later changes take the
# cached field (both profiles, each change after the first).
cat >"$TMP/toggle.scenario" <<'EOS'
ffsim 1
tick 0.1
ticks 60
profiles on
rebuild-ticks 2
at 5 close 20,6,21,8
at 15 open 20,6,21,8
at 25 close 20,6,21,8
at 35 open 20,6,21,8
class small
    radius 0.3
    speed 1.4
    follow
end
class large
    radius 0.8
    speed 1.0
    follow
end
spawn 10 small rect 1.2,1.5,7.5,7 seed 1 first 0
spawn 10 large rect 1.2,8,7.5,13.3 seed 2 first 100
EOS
run "door toggled" 0 "$BIN/ffsim -o $TMP/toggle.trace --summary $TMP/toggle.sum $TMP/doors.ff $TMP/toggle.scenario"
# Both fields change (the large profile does not fit the passage, but the
# cells there it leads out of its clearance do): two fields per change;
# from the second change on, both come from the cache.
check "door toggled: two fields per change" "$(grep -c '^# tick [0-9]* field' "$TMP/toggle.trace")" = 8
check "door toggled: the cache served six" "$(key field_cache_hits "$TMP/toggle.sum")" = 6
check "door toggled: ten fields made" "$(key field_builds "$TMP/toggle.sum")" = 10
sed 's/^profiles on/profiles on\nrebuild full/' "$TMP/toggle.scenario" >"$TMP/toggle_full.scenario"
"$BIN/ffsim" -o "$TMP/toggle_full.trace" "$TMP/doors.ff" "$TMP/toggle_full.scenario" 2>/dev/null
same "door toggled: the same trace built whole" "$TMP/toggle.trace" "$TMP/toggle_full.trace"

# A map of 600 x 130 cells (10 x 3 tiles of the ids' trees, two levels
# above them): random rectangles closed and opened, several a tick, the
# ids repaired tile by tile.  The trace equals 'rebuild full''s (each id
# hashed whole), and the last id of each field equals the first id of a
# run on a stream built from the map the events left.
awk 'BEGIN { srand(7); print "ffmap 1\nlegend # wall\nlegend . 1\nlegend G goal 1\nmap"
             for (y = 0; y < 130; y++) { r = ""
                 for (x = 0; x < 600; x++)
                     r = r (x == 590 && y == 65 ? "G" : y == 0 || y == 129 || x == 0 || x == 599 || (x % 70 == 35 && y % 40 > 4) ? "#" : ".")
                 print r } }' >"$TMP/wide.ffmap"
"$BIN/ffbuild" "$TMP/wide.ffmap" | "$BIN/ffdir" >"$TMP/wide.ff"
awk 'BEGIN { srand(11); print "ffsim 1\ntick 0.1\nticks 120\nprofiles on\nrebuild-ticks 1"
             for (k = 0; k < 16; k++) {
                 t = 2 + int(k / 2) * 6; x = 3 + int(rand() * 560); y = 3 + int(rand() * 110)
                 w = int(rand() * 30); h = int(rand() * 12)
                 print "at " t " close " x "," y "," x + w "," y + h
                 if (k % 3 != 2) print "at " t + 3 " open " x "," y "," x + w "," y + h
                 else closed[++n] = x "," y "," x + w "," y + h
             }
             print "class small\n    radius 0.3\n    speed 1.4\n    follow\nend"
             print "class large\n    radius 1.2\n    speed 1.0\n    follow\nend"
             print "spawn 20 small rect 2,2,30,120 seed 1 first 0"
             print "spawn 10 large rect 2,2,30,120 seed 2 first 100"
             for (k = 1; k <= n; k++) print closed[k] > "'"$TMP/closed.txt"'" }' >"$TMP/wide.scenario"
sed 's/^profiles on/profiles on\nrebuild full/' "$TMP/wide.scenario" >"$TMP/wide_full.scenario"
run "600 x 130, repaired" 0 "$BIN/ffsim -o $TMP/wide.trace $TMP/wide.ff $TMP/wide.scenario"
run "600 x 130, built whole" 0 "$BIN/ffsim -o $TMP/wide_full.trace $TMP/wide.ff $TMP/wide_full.scenario"
same "600 x 130: the same trace, ids included" "$TMP/wide.trace" "$TMP/wide_full.trace"
check "600 x 130: fields published" "$(grep -c '^# tick [0-9]* field' "$TMP/wide.trace")" -ge 16
# The map the events left, by hand, and a run on it without events.
awk -v list="$TMP/closed.txt" 'BEGIN { while ((getline r < list) > 0) { split(r, c, ","); n++
                                           x0[n] = c[1]; y0[n] = c[2]; x1[n] = c[3]; y1[n] = c[4] } }
    /^map$/ { m = 1; print; next } !m { print; next }
    { for (k = 1; k <= n; k++) if (y >= y0[k] && y <= y1[k])
          $0 = substr($0, 1, x0[k]) sprintf("%*s", x1[k] - x0[k] + 1, "") substr($0, x1[k] + 2)
      gsub(/ /, "#"); y++; print }' "$TMP/wide.ffmap" >"$TMP/final.ffmap"
"$BIN/ffbuild" "$TMP/final.ffmap" | "$BIN/ffdir" >"$TMP/final.ff"
grep -v '^at ' "$TMP/wide.scenario" >"$TMP/final.scenario"
run "600 x 130, the map the events left" 0 "$BIN/ffsim -o $TMP/final.trace $TMP/final.ff $TMP/final.scenario"
for k in 0 1; do
    last=$(sed -n "s/^# \(tick [0-9]* \)\{0,1\}field $k radius [^ ]* id \([0-9a-f]*\).*/\2/p" "$TMP/wide.trace" | tail -n 1)
    fresh=$(sed -n "s/^# field $k radius [^ ]* id \([0-9a-f]*\)$/\1/p" "$TMP/final.trace")
    check "600 x 130: field $k's repaired id is a fresh build's ($last)" -n "$last" -a "$last" = "$fresh"
done

# A change inside cells no field reaches leaves every field in use.
cat >"$TMP/far.scenario" <<'EOS'
ffsim 1
ticks 20
profiles on
rebuild-ticks 5
at 3 close 0,0,3,0
class small
    radius 0.3
    speed 1.4
    follow
end
spawn 10 small rect 1.2,1.5,7.5,7 seed 1 first 0
EOS
run "a change in the walls" 0 "$BIN/ffsim -o $TMP/far.trace --summary $TMP/far.sum $TMP/doors.ff $TMP/far.scenario"
check "a change in the walls: no field published" "$(grep -c '^# tick [0-9]* field' "$TMP/far.trace")" = 0
check "a change in the walls: no stale tick" "$(key stale_ticks "$TMP/far.sum")" = 0

# The scenario's key.
printf 'ffsim 1\nrebuild sometimes\n' >"$TMP/bad.scenario"
refuse "rebuild, a bad value" "bad.scenario:2:9: rebuild 'sometimes' \\(repair or full\\)" "$BIN/ffsim $TMP/doors.ff $TMP/bad.scenario"
printf 'ffsim 1\nrebuild full\nrebuild repair\n' >"$TMP/bad.scenario"
refuse "rebuild twice" "bad.scenario:3:1: 'rebuild' given twice" "$BIN/ffsim $TMP/doors.ff $TMP/bad.scenario"
finish
