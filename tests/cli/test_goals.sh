#!/bin/sh
# Goal changes at run time (at T goal, goal-change; man 1 ffsim, "GOAL
# CHANGES"): a class's goal changed and changed back (the field of the
# goals before taken from the cache and published at once, no rebuild
# ticks waited), keep against stop while the new field is made, an
# agent's own goal changed and changed back, an agent that stood arrived
# going on to its new goal; every trace of cell-to-cell moves free of
# conflicts by the tests' independent checker (conflicts.awk).
. "$(dirname "$0")/lib.sh"

key() { sed -n "s/^$1 //p" "$2"; }
conflicts() { awk -f "$(dirname "$0")/conflicts.awk" "$1"; }
# at TRACE TICK ID: "x y state" of agent ID at tick TICK.
at() { awk -v t="$2" -v id="$3" '$1 == t && $2 == id { print $3, $4, $9 }' "$1"; }

"$BIN/ffbuild" "$TD/sim/room.ffmap" | "$BIN/ffdir" >"$TMP/room.ff" || exit 1
# The room's goal is 18,4; the walkers start at its west end.
scenario() {
    cat <<EOT
ffsim 1
ticks 60
move ${MOVE:-grid}
${RESERVE-reserve on}
rebuild-ticks 3
${POLICY:-}
class walker
    radius 0.3
    speed 1
    follow
end
agent 1 walker 3.5,4.5
agent 2 walker 3.5,5.5
agent 3 walker 3.5,3.5
at 5 goal walker 10,1
at 9 goal walker 18,4
EOT
}

# ---- a change and back: keep (the default) ----
scenario >"$TMP/keep.scen"
run keep_runs 0 "'$BIN/ffsim' --summary '$TMP/keep.sum' '$TMP/room.ff' '$TMP/keep.scen' >'$TMP/keep.trace'"
first=$(sed -n 's/^# field 0 radius 0.3 id \([0-9a-f]*\)$/\1/p' "$TMP/keep.trace")
check keep_change_line "$(grep -c '^# tick 5 goal walker 10,1$' "$TMP/keep.trace")" = 1
# The new field: rebuild-ticks after the change, another id.
new=$(sed -n 's/^# tick 8 field 0 radius 0.3 id \([0-9a-f]*\) published$/\1/p' "$TMP/keep.trace")
check keep_new_field_after_rebuild_ticks -n "$new" -a "$new" != "$first"
check keep_nothing_published_before "$(grep -c '^# tick [567] field' "$TMP/keep.trace")" = 0
# The change back: the first field again, at the tick of the change.
check back_published_at_once \
    "$(grep -c "^# tick 9 field 0 radius 0.3 id $first published\$" "$TMP/keep.trace")" = 1
check back_cache_hit "$(key goal_cache_hits "$TMP/keep.sum")" = 1
check back_goal_changes "$(key goal_changes "$TMP/keep.sum")" = 2
check back_two_builds "$(key field_builds "$TMP/keep.sum")" = 2
check keep_no_stale_ticks "$(key stale_ticks "$TMP/keep.sum")" = 0
# Keep: agent 1 walks on while the new field is made (ticks 5 to 7).
set -- $(at "$TMP/keep.trace" 4 1) $(at "$TMP/keep.trace" 7 1)
check keep_walks_on "$1" != "$4" -a "$6" = moving
# After tick 9 it heads for 18,4 again, and every walker arrives there.
set -- $(at "$TMP/keep.trace" 9 1) $(at "$TMP/keep.trace" 12 1)
check back_heads_east "$(awk -v a="$4" -v b="$1" 'BEGIN { print (a + 0 > b + 0) }')" = 1
check back_all_arrive "$(key arrived "$TMP/keep.sum")" = 3
check back_arrive_at_18_4 "$(awk '$9 == "arrived" && int($3) == 18 && int($4) == 4' "$TMP/keep.trace" | wc -l)" = 3
check keep_conflict_free "$(conflicts "$TMP/keep.trace")" = 0
"$BIN/ffsim" --summary /dev/null "$TMP/room.ff" "$TMP/keep.scen" >"$TMP/keep2.trace"
same keep_same_bytes "$TMP/keep.trace" "$TMP/keep2.trace"

# ---- stop: the walkers stand while the new field is made ----
POLICY="goal-change stop" scenario >"$TMP/stop.scen"
"$BIN/ffsim" --summary "$TMP/stop.sum" "$TMP/room.ff" "$TMP/stop.scen" >"$TMP/stop.trace"
set -- $(at "$TMP/stop.trace" 4 1) $(at "$TMP/stop.trace" 5 1) $(at "$TMP/stop.trace" 7 1)
check stop_stands "$1 $2" = "$4 $5" -a "$1 $2" = "$7 $8" -a "$6 $9" = "waiting-field waiting-field"
check stop_moves_once_published "$(at "$TMP/stop.trace" 8 1 | cut -d' ' -f3)" = moving
check stop_stale_ticks "$(key stale_ticks "$TMP/stop.sum")" = 9
check stop_back_at_once \
    "$(grep -c "^# tick 9 field 0 radius 0.3 id $first published\$" "$TMP/stop.trace")" = 1
check stop_conflict_free "$(conflicts "$TMP/stop.trace")" = 0
# Steering agents do the same.
MOVE=steer RESERVE= POLICY="goal-change stop" scenario >"$TMP/steer.scen"
"$BIN/ffsim" --summary /dev/null "$TMP/room.ff" "$TMP/steer.scen" >"$TMP/steer.trace"
set -- $(at "$TMP/steer.trace" 4 1) $(at "$TMP/steer.trace" 6 1)
check steer_stop_stands "$1 $2 $6" = "$4 $5 waiting-field"
MOVE=steer RESERVE= scenario >"$TMP/steerkeep.scen"
"$BIN/ffsim" --summary /dev/null "$TMP/room.ff" "$TMP/steerkeep.scen" >"$TMP/steerkeep.trace"
set -- $(at "$TMP/steerkeep.trace" 4 1) $(at "$TMP/steerkeep.trace" 6 1)
check steer_keep_moves "$1" != "$4" -a "$6" = moving

# ---- an agent's own goal, changed and changed back; arrived stay ----
cat >"$TMP/own.scen" <<'EOT'
ffsim 1
ticks 60
move grid
reserve on
arrived stay
class walker
    radius 0.3
    speed 1
    follow
end
agent 1 walker 3.5,4.5 goal 10,1
agent 2 walker 3.5,5.5
at 4 goal agent 1 1,7
at 8 goal agent 1 10,1
at 30 goal agent 2 1,1
EOT
run own_runs 0 "'$BIN/ffsim' --summary '$TMP/own.sum' '$TMP/room.ff' '$TMP/own.scen' >'$TMP/own.trace'"
check own_change_line "$(grep -c '^# tick 4 goal agent 1 1,7$' "$TMP/own.trace")" = 1
# Toward 1,7 between the changes (west), then back toward 10,1.
set -- $(at "$TMP/own.trace" 4 1) $(at "$TMP/own.trace" 7 1)
check own_heads_west "$(awk -v a="$4" -v b="$1" 'BEGIN { print (a + 0 < b + 0) }')" = 1
check own_back_hit "$(key goal_cache_hits "$TMP/own.sum")" = 1
check own_goal_changes "$(key goal_changes "$TMP/own.sum")" = 3
# The class's field, 10,1's, 1,7's and 1,1's: each built once.
check own_builds "$(key field_builds "$TMP/own.sum")" = 4
check own_ends_at_10_1 "$(tail -n 3 "$TMP/own.trace" | awk '$2 == 1 { print $3, $4, $9 }')" = \
    "10.5000 1.5000 arrived"
# Agent 2 stood arrived at 18,4 before tick 30; then it goes on to 1,1.
check own_stood_arrived "$(at "$TMP/own.trace" 29 2)" = "18.5000 4.5000 arrived"
check own_goes_on "$(at "$TMP/own.trace" 30 2 | cut -d' ' -f3)" = moving
check own_ends_at_1_1 "$(tail -n 3 "$TMP/own.trace" | awk '$2 == 2 { print $3, $4, $9 }')" = \
    "1.5000 1.5000 arrived"
check own_all_on_goals "$(key sum_of_costs "$TMP/own.sum")" != -
check own_conflict_free "$(conflicts "$TMP/own.trace")" = 0

# ---- with map events: repaired fields equal whole builds ----
# A door closes at 3, the goal changes at 5 and back at 9 (the door still
# closed: the field of tick 3 taken from the goal cache), the door opens
# at 11 (the map back to the stream's, whose field the map-event cache
# held with the goals before the change: dropped, built again).
for how in repair full; do
    { scenario; printf 'at 3 close 12,2,12,6\nat 11 open 12,2,12,6\nrebuild %s\n' "$how"; } >"$TMP/door-$how.scen"
    "$BIN/ffsim" --summary "$TMP/door-$how.sum" "$TMP/room.ff" "$TMP/door-$how.scen" >"$TMP/door-$how.trace"
done
same door_repair_is_full "$TMP/door-repair.trace" "$TMP/door-full.trace"
check door_goal_hit "$(key goal_cache_hits "$TMP/door-repair.sum")" = 1
check door_no_map_hit "$(key field_cache_hits "$TMP/door-repair.sum")" = 0
check door_conflict_free "$(conflicts "$TMP/door-repair.trace")" = 0

# ---- memory: the goal cache and the own goals of changes are counted ----
refuse budget_counts_goal_fields \
    "^ffsim: $TMP/own.scen: the run would build 5 fields of 20x9 cells \\(stream 1, profiles 1, own goals 3\\)" \
    "'$BIN/ffsim' --max-memory 1000 '$TMP/room.ff' '$TMP/own.scen'"
refuse budget_counts_goal_cache \
    "^ffsim: $TMP/keep.scen: the run would build 4 fields of 20x9 cells \\(stream 1, profiles 1, caches 2\\)" \
    "'$BIN/ffsim' --max-memory 1000 '$TMP/room.ff' '$TMP/keep.scen'"

finish
