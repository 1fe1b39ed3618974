#!/bin/sh
# ffsim's congestion fields (man 1 ffsim, "CONGESTION") on the bundled
# two-exit room, testdata/exits.ffmap and exits.scenario: with congestion
# off the far exit takes 58 of the 400 and the 95th-percentile arrival is
# at tick 753; with it on the p95 is at least 25% lower, the far exit
# takes at least a third, everyone arrives, nobody enters a wall (from the
# summary and from the trace), and the trace is the same bytes on every
# run; several weights all help.  With a single exit nobody is worse off
# by more than 3% (plus a second): the i-th arrival with congestion on
# comes no later than that with it off (an agent's own place in a queue is
# a lottery that any change redraws, so the arrivals are compared rank by
# rank).  The static field is what it was; map events and cell-to-cell
# moves work with congestion; bad settings are refused.
. "$(dirname "$0")/lib.sh"

"$BIN/ffbuild" "$TD/exits.ffmap" | "$BIN/ffdir" >"$TMP/exits.ff"
key() { sed -n "s/^$1 //p" "$2"; }
sim() {  # NAME SCENARIO: trace and summary in $TMP/NAME.trace, .sum
    run "$1" 0 "$BIN/ffsim -o $TMP/$1.trace --summary $TMP/$1.sum $TMP/exits.ff $2"
}
west() { sed -n 's/^goal_arrivals 0,14,0,15 //p' "$1"; }
east() { sed -n 's/^goal_arrivals 39,14,39,15 //p' "$1"; }
# Arrivals at each exit from the trace alone: an agent's last line, state
# arrived, west or east of the room's middle.
trace_split() { awk '$9 == "arrived" { if ($3 < 20) w++; else e++ } END { print w + 0, e + 0 }' "$1"; }
# Penetrations from the trace alone: the room's walls are the map's '#'.
penetrations() {
    awk 'FNR == NR { if (m) { for (x = 0; x < length($0); x++) wall[x, rows] = substr($0, x + 1, 1) == "#"; w = length($0); rows++ }
                     if ($0 == "map") m = 1; next }
         /^#/ { next }
         { px = $3; py = $4; r = $8; n++
           for (y = int(py - r) - 1; y <= int(py + r) + 1; y++)
               for (x = int(px - r) - 1; x <= int(px + r) + 1; x++) {
                   if (x >= 0 && y >= 0 && x < w && y < rows && !wall[x, y]) continue
                   qx = px < x ? x : (px > x + 1 ? x + 1 : px)
                   qy = py < y ? y : (py > y + 1 ? y + 1 : py)
                   if ((px - qx) ^ 2 + (py - qy) ^ 2 < (r - 1e-4) ^ 2) { bad++; next }
               } }
         END { print (n > 0 ? bad + 0 : "no positions") }' "$TD/exits.ffmap" "$1"
}

# The baseline: congestion off.
sed 's/^congestion on/congestion off/' "$TD/exits.scenario" >"$TMP/off.scenario"
sim off "$TMP/off.scenario"
check off_everyone_arrives "$(key arrived "$TMP/off.sum")" = 400
check off_far_exit "$(east "$TMP/off.sum")" = 58
check off_near_exit "$(west "$TMP/off.sum")" = 342
check off_p95 "$(key arrival_tick_p95 "$TMP/off.sum")" = 753
check off_trace_split "$(trace_split "$TMP/off.trace")" = "342 58"
check off_no_refresh "$(key congestion_refreshes "$TMP/off.sum")" = 0

# Congestion on, as bundled (weight 2.5, threshold 1, every 10 ticks), twice.
sim on "$TD/exits.scenario"
run on_again 0 "$BIN/ffsim -o $TMP/on2.trace --summary $TMP/on2.sum $TMP/exits.ff $TD/exits.scenario"
same on_same_trace "$TMP/on.trace" "$TMP/on2.trace"
grep -v '_seconds \|^agent_steps_per_second' "$TMP/on.sum" >"$TMP/on.s"
grep -v '_seconds \|^agent_steps_per_second' "$TMP/on2.sum" >"$TMP/on2.s"
same on_same_summary "$TMP/on.s" "$TMP/on2.s"
p_off=$(key arrival_tick_p95 "$TMP/off.sum")
p_on=$(key arrival_tick_p95 "$TMP/on.sum")
check on_p95_25pct_lower "$(awk -v a="$p_on" -v b="$p_off" 'BEGIN { print (a <= 0.75 * b) ? "yes" : "no: " a " vs " b }')" = yes
check on_far_third "$(awk -v e="$(east "$TMP/on.sum")" 'BEGIN { print (3 * e >= 400) ? "yes" : "no: " e }')" = yes
check on_everyone_arrives "$(key arrived "$TMP/on.sum")" = 400
check on_groups_sum "$(( $(west "$TMP/on.sum") + $(east "$TMP/on.sum") ))" = 400
check on_trace_split "$(trace_split "$TMP/on.trace")" = "$(west "$TMP/on.sum") $(east "$TMP/on.sum")"
check on_no_penetration "$(key wall_penetrations "$TMP/on.sum")" = 0
check on_trace_clear "$(penetrations "$TMP/on.trace")" = 0
# One refresh every 10 ticks (ticks 1, 11, 21, ...) until the run is over
# (every agent arrived).
check on_over "$(key over "$TMP/on.sum")" = "$(key ticks "$TMP/on.sum")"
check on_refreshes "$(key congestion_refreshes "$TMP/on.sum")" = "$(( ($(key ticks "$TMP/on.sum") + 9) / 10 ))"
check on_header "$(grep -m 1 "^# congestion" "$TMP/on.trace")" = "# congestion weight 2.5 threshold 1 ticks 10"
check on_never_distance "$(grep -ci distance "$TMP/on.sum" "$TMP/on.trace" | awk -F: '{ s += $2 } END { print s }')" = 0

# Several weights and periods: every one helps, nobody is left, nobody
# enters a wall.
for spec in 1:10 1.5:10 2:10 3:10 4:10 2.5:1 2.5:50; do
    w=${spec%:*} p=${spec#*:}
    sed -e "s/^congestion-weight .*/congestion-weight $w/" -e "s/^congestion-ticks .*/congestion-ticks $p/" \
        "$TD/exits.scenario" >"$TMP/w.scenario"
    sim "w$w-$p" "$TMP/w.scenario"
    check "w$w-${p}_arrive" "$(key arrived "$TMP/w$w-$p.sum") $(key wall_penetrations "$TMP/w$w-$p.sum")" = "400 0"
    check "w$w-${p}_helps" "$(awk -v a="$(key arrival_tick_p95 "$TMP/w$w-$p.sum")" -v b="$p_off" \
        -v e="$(east "$TMP/w$w-$p.sum")" 'BEGIN { print (a < b && e > 58) ? "yes" : "no: p95 " a ", far " e }')" = yes
done

# The static field stays what it was: with profiles on, the trace's field
# ids are the same both ways.
sed 's/^congestion on/profiles on/' "$TD/exits.scenario" >"$TMP/pon.scenario"
printf 'congestion on\n' >>"$TMP/pon.scenario"
sed 's/^congestion on/profiles on/' "$TD/exits.scenario" | sed 's/^congestion-.*//' >"$TMP/poff.scenario"
run fields_on 0 "$BIN/ffsim --every 100000 $TMP/exits.ff $TMP/pon.scenario >$TMP/pon.trace 2>/dev/null"
run fields_off 0 "$BIN/ffsim --every 100000 $TMP/exits.ff $TMP/poff.scenario >$TMP/poff.trace 2>/dev/null"
check static_field_same "$(grep '^# field' "$TMP/pon.trace")" = "$(grep '^# field' "$TMP/poff.trace")"
check static_field_listed "$(grep -c '^# field' "$TMP/pon.trace")" = 1

# A single exit: the class's own goals are the west exit's cells.
one() {  # NAME MODE WEIGHT
    sed -e "s/^congestion on/congestion $2/" -e "s/^congestion-weight .*/congestion-weight $3/" \
        -e 's/^    radius 0.39/    radius 0.39\n    goal 0,14\n    goal 0,15/' "$TD/exits.scenario" >"$TMP/$1.scenario"
    sim "$1" "$TMP/$1.scenario"
    awk '$9 == "arrived" { print $1 }' "$TMP/$1.trace" | sort -n >"$TMP/$1.ranks"
}
# The i-th arrival on against off: later by more than 3% and 10 ticks?
worse() {
    paste "$TMP/$1.ranks" "$TMP/$2.ranks" |
        awk '{ n++; if ($1 > 1.03 * $2 + 10) bad++ } END { print n + 0, bad + 0 }'
}
mean() { awk '{ s += $1; n++ } END { printf "%.1f\n", s / n }' "$TMP/$1.ranks"; }
one one_off off 2.5
for w in 2.5 4; do
    one "one_$w" on "$w"
    check "one_${w}_everyone" "$(key arrived "$TMP/one_$w.sum") $(key wall_penetrations "$TMP/one_$w.sum")" = "400 0"
    check "one_${w}_nobody_worse" "$(worse "one_$w" one_off)" = "400 0"
    check "one_${w}_mean" "$(awk -v a="$(mean "one_$w")" -v b="$(mean one_off)" \
        'BEGIN { print (a <= 1.03 * b) ? "yes" : "no: " a " vs " b }')" = yes
done

# With a map event: the door of the far exit closes at tick 100 (fields
# rebuilt in 5 ticks, agents waiting meanwhile); everyone still arrives
# by the near one, on the same bytes every run.
sed 's/^ticks 1500/ticks 2500/' "$TD/exits.scenario" >"$TMP/door.scenario"
printf 'rebuild-ticks 5\nat 100 close 37,14,37,15\n' >>"$TMP/door.scenario"
sim door "$TMP/door.scenario"
run door_again 0 "$BIN/ffsim $TMP/exits.ff $TMP/door.scenario >$TMP/door2.trace 2>/dev/null"
same door_same_trace "$TMP/door.trace" "$TMP/door2.trace"
check door_everyone "$(key arrived "$TMP/door.sum") $(key wall_penetrations "$TMP/door.sum")" = "400 0"
check door_far_closed "$(awk '$9 == "arrived" && $1 > 110 && $3 > 20' "$TMP/door.trace" | wc -l)" = 0

# Cell-to-cell moves with reservations follow the congestion fields too:
# one agent a cell never passes the default threshold (an agent a cell),
# so with a threshold of half that the far exit takes more.
sed -e 's/^ticks 1500/ticks 1500\nmove grid\nreserve on/' -e 's/^congestion-threshold .*/congestion-threshold 0.5/' \
    "$TD/exits.scenario" >"$TMP/grid.scenario"
sed 's/^congestion on/congestion off/' "$TMP/grid.scenario" >"$TMP/gridoff.scenario"
sim grid "$TMP/grid.scenario"
sim gridoff "$TMP/gridoff.scenario"
check grid_everyone "$(key arrived "$TMP/grid.sum") $(key deadlocks "$TMP/grid.sum")" = "400 0"
check grid_spreads "$(awk -v a="$(east "$TMP/grid.sum")" -v b="$(east "$TMP/gridoff.sum")" \
    'BEGIN { print (a > b) ? "yes" : "no: " a " vs " b }')" = yes

# Bad settings: file:line:col, exit 2, nothing on stdout.
"$BIN/ffbuild" "$TD/sim/room.ffmap" | "$BIN/ffdir" >"$TMP/room.ff"
badline() { printf 'ffsim 1\nticks 10\nclass w\n    radius 0.3\n    speed 1\n    follow\nend\n%s\n' "$1" >"$TMP/$2.scenario"; }
badline "congestion maybe" c_word
refuse congestion_word "^ffsim: .*/c_word.scenario:8:12: congestion 'maybe' \\(on or off\\)$" \
    "$BIN/ffsim $TMP/room.ff $TMP/c_word.scenario"
badline "congestion-weight 0" c_zero
refuse congestion_weight_zero "^ffsim: .*/c_zero.scenario:8:19: congestion-weight 0 must be a number from 0 \\(excluded\\) to 1e12$" \
    "$BIN/ffsim $TMP/room.ff $TMP/c_zero.scenario"
badline "congestion-weight nan" c_nan
refuse congestion_weight_nan "^ffsim: .*/c_nan.scenario:8:19: " "$BIN/ffsim $TMP/room.ff $TMP/c_nan.scenario"
badline "congestion-ticks 0" c_ticks
refuse congestion_ticks_zero "^ffsim: .*/c_ticks.scenario:8:18: congestion-ticks '0' is not an integer in 1..100000000$" \
    "$BIN/ffsim $TMP/room.ff $TMP/c_ticks.scenario"
badline "congestion on
congestion off" c_twice
refuse congestion_twice "^ffsim: .*/c_twice.scenario:9:1: 'congestion' given twice \\(first at line 8\\)$" \
    "$BIN/ffsim $TMP/room.ff $TMP/c_twice.scenario"
badline "congestion-threshold -1" c_thr
refuse congestion_threshold_negative "^ffsim: .*/c_thr.scenario:8:22: congestion-threshold -1 must be a number from 0 to 1e12$" \
    "$BIN/ffsim $TMP/room.ff $TMP/c_thr.scenario"
badline "congestion" c_none
refuse congestion_no_value "^ffsim: .*/c_none.scenario:8:1: congestion needs one value$" \
    "$BIN/ffsim $TMP/room.ff $TMP/c_none.scenario"
finish
