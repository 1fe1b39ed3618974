#!/bin/sh
# The reservation crowd as a multi-agent path finder (move grid, reserve
# on, arrived stay, own goals): the seed's cases (a head-on pair with a
# niche, agents round a ring, a head-on pair in a one-cell corridor, a
# wide agent before a one-cell corridor, own paths after waits, sweep
# failures, deadlock reports), each trace checked by an independent
# checker for conflicts, and the run's end.
. "$(dirname "$0")/lib.sh"

key() { sed -n "s/^$1 //p" "$2"; }

# The conflicts a trace must never show (footprints sharing a cell,
# swaps, corner crossings, a wide agent's diagonal sides, jumps): the
# tests' independent checker, conflicts.awk.  Prints the count.
conflicts() { awk -f "$(dirname "$0")/conflicts.awk" "$1"; }

# The checker finds each kind when there is one.
printf '1 1 1.5 1.5 0 0 0 0.3 moving\n1 2 1.5 1.5 0 0 0 0.3 moving\n' >"$TMP/b1.trace"
check checker_finds_shared "$(conflicts "$TMP/b1.trace" 2>/dev/null)" = 1
printf '1 1 1.5 1.5 0 0 0 0.3 moving\n1 2 2.5 1.5 0 0 0 0.3 moving\n2 1 2.5 1.5 0 0 0 0.3 moving\n2 2 1.5 1.5 0 0 0 0.3 moving\n' >"$TMP/b2.trace"
check checker_finds_swap "$(conflicts "$TMP/b2.trace" 2>/dev/null)" = 1
printf '1 1 1.5 1.5 0 0 0 0.3 moving\n1 2 2.5 1.5 0 0 0 0.3 moving\n2 1 2.5 2.5 0 0 0 0.3 moving\n2 2 1.5 2.5 0 0 0 0.3 moving\n' >"$TMP/b3.trace"
check checker_finds_crossing "$(conflicts "$TMP/b3.trace" 2>/dev/null)" = 1
printf '1 1 2.5 2.5 0 0 0 0.9 moving\n1 2 4.5 1.5 0 0 0 0.3 moving\n2 1 3.5 3.5 0 0 0 0.9 moving\n2 2 4.5 1.5 0 0 0 0.3 moving\n' >"$TMP/b4.trace"
check checker_finds_wide_side "$(conflicts "$TMP/b4.trace" 2>/dev/null)" = 1
printf '1 1 2.5 2.5 0 0 0 0.3 moving\n2 1 4.5 2.5 0 0 0 0.3 moving\n' >"$TMP/b5.trace"
check checker_finds_jump "$(conflicts "$TMP/b5.trace" 2>/dev/null)" = 1

field() { printf 'ffmap 1\nlegend # wall\nlegend . 1\nlegend G goal 1\nmap\n%s\n' "$2" >"$TMP/$1.ffmap"
          "$BIN/ffbuild" "$TMP/$1.ffmap" | "$BIN/ffdir" >"$TMP/$1.ff"; }
# (ARRIVED: the arrival mode, stay unless set)
scen() { printf 'ffsim 1\nticks %s\nmove grid\nreserve on\narrived %s\nclass a\n    radius %s\n    speed 1\n    follow\nend\n%s\n' \
    "$2" "${ARRIVED:-stay}" "$3" "$4" >"$TMP/$1.scenario"; }

# A head-on pair in a corridor with a free niche: one steps aside, both
# arrive, and the run is over once they have.
field niche "$(printf '#######\n#G....#\n###.###\n#######')"
scen niche 100 0.4 "$(printf 'agent 1 a 1.5,1.5 goal 5,1\nagent 2 a 5.5,1.5 goal 1,1')"
run niche 0 "$BIN/ffsim -o $TMP/niche.trace --summary $TMP/niche.sum $TMP/niche.ff $TMP/niche.scenario 2>$TMP/niche.err"
check niche_both_arrive "$(key arrived "$TMP/niche.sum") $(key deadlocks "$TMP/niche.sum")" = "2 0"
check niche_makespan "$(key makespan "$TMP/niche.sum")" -ge 4
check niche_over "$(key over "$TMP/niche.sum")" = "$(key makespan "$TMP/niche.sum")"
check niche_niche_used "$(awk '$4 == "2.5000"' "$TMP/niche.trace" | wc -l)" -gt 0
check niche_clean "$(conflicts "$TMP/niche.trace")" = 0

# Whether agents step aside must not depend on what they do at their
# goals: in both arrival modes, a head-on pair in a 12-cell corridor with
# one free niche, at every place along it (x 2 to 11), both arrive, with
# no deadlock and a clean trace; and a retreat: with the niche behind
# agent 1 (x 2, agent 1 at x 4, agent 2 at x 8 heading for x 1), agent 2
# cannot reach the niche past agent 1, so any solution has agent 1 back
# away from its goal into it.
for mode in stay leave; do
    bad=
    for nx in 2 3 4 5 6 7 8 9 10 11; do
        field nichex "$(printf '##############\n#G...........#\n' && awk -v n="$nx" 'BEGIN { s = "##############"; print substr(s, 1, n) "." substr(s, n + 2) }' && printf '##############')"
        ARRIVED=$mode scen nichex 200 0.4 "$(printf 'agent 1 a 1.5,1.5 goal 12,1\nagent 2 a 12.5,1.5 goal 1,1')"
        "$BIN/ffsim" -o "$TMP/nichex.trace" --summary "$TMP/nichex.sum" "$TMP/nichex.ff" "$TMP/nichex.scenario" 2>"$TMP/nichex.err" ||
            bad="$bad $nx:status"
        [ "$(key arrived "$TMP/nichex.sum") $(key deadlocks "$TMP/nichex.sum")" = "2 0" ] || bad="$bad $nx:arrived"
        [ "$(awk -v n="$nx" '!/^#/ && $3 == n + 0.5 && $4 == "2.5000"' "$TMP/nichex.trace" | wc -l)" -gt 0 ] || bad="$bad $nx:niche-unused"
        [ "$(conflicts "$TMP/nichex.trace")" = 0 ] || bad="$bad $nx:conflict"
    done
    check "niche_every_place_$mode" "${bad:-none}" = none
    field retreat "$(printf '###########\n#G........#\n##.########\n###########')"
    ARRIVED=$mode scen retreat 200 0.4 "$(printf 'agent 1 a 4.5,1.5 goal 9,1\nagent 2 a 8.5,1.5 goal 1,1')"
    run "retreat_$mode" 0 "$BIN/ffsim -o $TMP/retreat.trace --summary $TMP/retreat.sum $TMP/retreat.ff $TMP/retreat.scenario"
    check "retreat_${mode}_both_arrive" "$(key arrived "$TMP/retreat.sum") $(key deadlocks "$TMP/retreat.sum")" = "2 0"
    check "retreat_${mode}_backs_up" "$(awk '!/^#/ && $2 == 1 && $3 < 4.5' "$TMP/retreat.trace" | wc -l)" -gt 0
    check "retreat_${mode}_clean" "$(conflicts "$TMP/retreat.trace")" = 0
done

# wait-limit: agent 1 (following the field, no goal of its own) is
# behind agent 2, which cannot move (its goal is walled off); after
# wait-limit waits in a row it plans its own path round it (12 steps by
# the north corridor), walks it and arrives: exactly wait-limit waits,
# one fallback, a clean trace, in both arrival modes.
field round "$(printf '###########\n#.........#\n#.#######.#\n#........G#\n###########\n#.#########\n###########')"
for mode in stay leave; do
    for limit in 3 5; do
        ARRIVED=$mode scen round 100 0.4 "$(printf 'wait-limit %s\nagent 1 a 1.5,3.5\nagent 2 a 3.5,3.5 goal 1,5' "$limit")"
        run "round_${mode}_$limit" 0 "$BIN/ffsim -o $TMP/round.trace --summary $TMP/round.sum $TMP/round.ff $TMP/round.scenario"
        check "round_${mode}_${limit}_arrives" "$(key arrived "$TMP/round.sum") $(key fallbacks "$TMP/round.sum") $(key reservation_waits "$TMP/round.sum")" = "1 1 $limit"
        check "round_${mode}_${limit}_north" "$(awk '!/^#/ && $2 == 1 && $4 == "1.5000"' "$TMP/round.trace" | wc -l)" -ge 9
        check "round_${mode}_${limit}_clean" "$(conflicts "$TMP/round.trace")" = 0
    done
done

# The same with a goal of its own for agent 1 (7,3: behind agent 2, as
# in a MAPF crowd): it waits wait-limit times on agent 2, which has
# stopped (stuck), plans its own path to its own goal round it by the
# north corridor and arrives there.
for mode in stay leave; do
    for limit in 3 5; do
        ARRIVED=$mode scen ownround 100 0.4 "$(printf 'wait-limit %s\nagent 1 a 1.5,3.5 goal 7,3\nagent 2 a 3.5,3.5 goal 1,5' "$limit")"
        run "ownround_${mode}_$limit" 0 "$BIN/ffsim -o $TMP/ownround.trace --summary $TMP/ownround.sum $TMP/round.ff $TMP/ownround.scenario"
        check "ownround_${mode}_${limit}_arrives" "$(key arrived "$TMP/ownround.sum") $(key fallbacks "$TMP/ownround.sum") $(key reservation_waits "$TMP/ownround.sum")" = "1 1 $limit"
        check "ownround_${mode}_${limit}_at_its_goal" "$(awk '!/^#/ && $2 == 1 && $9 == "arrived" { print $3, $4; exit }' "$TMP/ownround.trace")" = "7.5000 3.5000"
        check "ownround_${mode}_${limit}_north" "$(awk '!/^#/ && $2 == 1 && $4 == "1.5000"' "$TMP/ownround.trace" | wc -l)" -ge 9
        check "ownround_${mode}_${limit}_clean" "$(conflicts "$TMP/ownround.trace")" = 0
    done
done

# A sweep failure with another tight step (4 moves: east and south tie
# from 2,2 to the goal at 6,6; east would sweep the disk of radius 0.8
# over the wall at 4,1): the agent takes south at once, no wait, no own
# path, and arrives in the 8 steps of the field.
printf 'ffmap 1\nlegend # wall\nlegend . 1\nlegend G goal 1\nmap\n%s\n' "$(printf '##########\n#...#....#\n#........#\n#........#\n#........#\n#........#\n#.....G..#\n#........#\n##########')" >"$TMP/tie.ffmap"
"$BIN/ffbuild" -m 4 "$TMP/tie.ffmap" | "$BIN/ffdir" >"$TMP/tie.ff"
for res in on off; do
    printf 'ffsim 1\nticks 100\nmove grid\nreserve %s\nprofiles off\nclass a\n    radius 0.8\n    speed 1\n    follow\nend\nagent 1 a 2.5,2.5\n' "$res" >"$TMP/tie.scenario"
    run "sweep_tie_$res" 0 "$BIN/ffsim -o $TMP/tie.trace --summary $TMP/tie.sum $TMP/tie.ff $TMP/tie.scenario"
    check "sweep_tie_${res}_south" "$(awk '!/^#/ && $1 == 1 { print $3, $4 }' "$TMP/tie.trace")" = "2.5000 3.5000"
    check "sweep_tie_${res}_no_wait" "$(key arrived "$TMP/tie.sum") $(key makespan "$TMP/tie.sum") $(key queue_wait "$TMP/tie.sum") $(key fallbacks "$TMP/tie.sum") $(key wall_penetrations "$TMP/tie.sum")" = "1 8 0 0 0"
    check "sweep_tie_${res}_refused" "$(key sweep_failures "$TMP/tie.sum")" -gt 0
    check "sweep_tie_${res}_clean" "$(conflicts "$TMP/tie.trace")" = 0
done

# A sweep failure (profiles off: a radius 0.8 agent follows the radius 0
# field into a one-cell corridor it does not fit): it waits wait-limit
# times, plans its own path whose every step's sweep is clear, by the
# wide way south, and arrives, never nearer a wall than its radius; with
# or without reservations.
field wide "$(printf '#############\n#...#####...#\n#.........G.#\n#...#####...#\n#...#####...#\n#...........#\n#...........#\n#...........#\n#############')"
for res in on off; do
    printf 'ffsim 1\nticks 200\nmove grid\nreserve %s\nprofiles off\nclass a\n    radius 0.8\n    speed 1\n    follow\nend\nagent 1 a 2.5,2.5\n' "$res" >"$TMP/wide.scenario"
    run "sweep_round_$res" 0 "$BIN/ffsim --check -o $TMP/wide.trace --summary $TMP/wide.sum $TMP/wide.ff $TMP/wide.scenario"
    check "sweep_round_${res}_arrives" "$(key arrived "$TMP/wide.sum") $(key fallbacks "$TMP/wide.sum") $(key queue_wait "$TMP/wide.sum")" = "1 1 3"
    check "sweep_round_${res}_refused" "$(key sweep_failures "$TMP/wide.sum")" -gt 0
    check "sweep_round_${res}_south" "$(awk '!/^#/ && $4 == "6.5000"' "$TMP/wide.trace" | wc -l)" -ge 7
    check "sweep_round_${res}_no_penetration" "$(key wall_penetrations "$TMP/wide.sum")" = 0
    check "sweep_round_${res}_over" "$(key over "$TMP/wide.sum")" = "$(key makespan "$TMP/wide.sum")"
    check "sweep_round_${res}_clean" "$(conflicts "$TMP/wide.trace")" = 0
done

# Two agents of radius 0.5 (3x3 footprints on cells of 0.5) for the one
# goal cell of testdata/doors.ffmap, staying there: one arrives, the
# other is pushed against it and each waits on the other.  Over 3000
# ticks the cycle is reported once, naming both, never an agent alone;
# and nobody plans an own path whose footprint would cover the other's.
# With arrived leave both arrive and nothing is reported.  (Traces in
# cells for the checker: coordinates and radii over the cell size.)
"$BIN/ffbuild" "$TD/doors.ffmap" | "$BIN/ffdir" >"$TMP/doors.ff"
for mode in stay leave; do
    printf 'ffsim 1\nticks 3000\nmove grid\nreserve on\nwait-limit 1\narrived %s\nclass big\n    radius 0.5\n    speed 1\n    follow\nend\nspawn 2 big rect 1.2,1.5,7.5,13 seed 2\n' "$mode" >"$TMP/dl.scenario"
    run "doors_deadlock_$mode" 0 "$BIN/ffsim -o $TMP/dl.trace --summary $TMP/dl.sum $TMP/doors.ff $TMP/dl.scenario 2>$TMP/dl.err"
    awk '/^#/ { print; next } { $3 *= 2; $4 *= 2; $8 *= 2; print }' "$TMP/dl.trace" >"$TMP/dlc.trace"
    check "doors_deadlock_${mode}_clean" "$(conflicts "$TMP/dlc.trace")" = 0
    check "doors_deadlock_${mode}_never_alone" "$(awk '/deadlock: agents/ { n = 0; for (i = 1; i <= NF; i++) if ($i == "agents") { for (j = i + 1; $j != "wait"; j++) seen[$j] = 1; for (k in seen) n++; delete seen } if (n < 2) print }' "$TMP/dl.err" | wc -l)" = 0
done
check doors_deadlock_leave_arrive "$(key arrived "$TMP/dl.sum") $(key deadlocks "$TMP/dl.sum") $(wc -l <"$TMP/dl.err")" = "2 0 0"
printf 'ffsim 1\nticks 3000\nmove grid\nreserve on\nwait-limit 1\narrived stay\nclass big\n    radius 0.5\n    speed 1\n    follow\nend\nspawn 2 big rect 1.2,1.5,7.5,13 seed 2\n' >"$TMP/dl.scenario"
"$BIN/ffsim" -o "$TMP/dl.trace" --summary "$TMP/dl.sum" "$TMP/doors.ff" "$TMP/dl.scenario" 2>"$TMP/dl.err"
check doors_deadlock_stay_once "$(grep -c 'deadlock: agents 0 1 wait on each other$' "$TMP/dl.err") $(wc -l <"$TMP/dl.err") $(key deadlocks "$TMP/dl.sum")" = "1 1 1"
check doors_deadlock_stay_no_plan_through "$(key fallbacks "$TMP/dl.sum") $(key arrived "$TMP/dl.sum") $(key ticks "$TMP/dl.sum")" = "0 1 3000"

# A deadlock of two wide agents (3x3 footprints, head-on in a corridor
# three cells high) lasts through two map events in a room beside it
# (their fields stale for 3 ticks each, the agents waiting for them,
# then deadlocked again where they stood): one cycle, reported once.
field wroom "$(printf '################\n#..............#\n#.G..........G.#\n#..............#\n#...############\n#.......########\n#.......########\n#.......########\n#.......########\n################')"
printf 'ffsim 1\nticks 300\nmove grid\nreserve on\nrebuild-ticks 3\nat 30 close 6,8,6,8\nat 60 open 6,8,6,8\nclass e\n    radius 0.8\n    speed 1\n    follow\n    goal 13,2\nend\nclass w\n    radius 0.8\n    speed 1\n    follow\n    goal 2,2\nend\nagent 1 e 4.5,2.5\nagent 2 w 12.5,2.5\n' >"$TMP/wroom.scenario"
run wide_deadlock 0 "$BIN/ffsim -o $TMP/wroom.trace --summary $TMP/wroom.sum $TMP/wroom.ff $TMP/wroom.scenario 2>$TMP/wroom.err"
check wide_deadlock_waited "$(key stale_ticks "$TMP/wroom.sum")" -gt 0
check wide_deadlock_once "$(grep -c 'deadlock: agents 1 2 wait on each other$' "$TMP/wroom.err") $(wc -l <"$TMP/wroom.err") $(key deadlocks "$TMP/wroom.sum") $(key deadlocked "$TMP/wroom.sum")" = "1 1 1 2"
check wide_deadlock_clean "$(conflicts "$TMP/wroom.trace")" = 0

# Four agents swapping round a ring (each to the opposite side, round a
# block of wall): all arrive.
field ring "$(printf '#####\n#G..#\n#.#.#\n#...#\n#####')"
scen ring 100 0.4 "$(printf 'agent 1 a 1.5,1.5 goal 3,3\nagent 2 a 3.5,1.5 goal 1,3\nagent 3 a 3.5,3.5 goal 1,1\nagent 4 a 1.5,3.5 goal 3,1')"
run ring 0 "$BIN/ffsim -o $TMP/ring.trace --summary $TMP/ring.sum $TMP/ring.ff $TMP/ring.scenario"
check ring_all_arrive "$(key arrived "$TMP/ring.sum") $(key makespan "$TMP/ring.sum" | tr -d 0-9)" = "4 "
check ring_clean "$(conflicts "$TMP/ring.trace")" = 0
# And a full ring of four cells, where only a rotation does.
field ring4 "$(printf '####\n#G.#\n#..#\n####')"
scen ring4 100 0.4 "$(printf 'agent 1 a 1.5,1.5 goal 2,1\nagent 2 a 2.5,1.5 goal 2,2\nagent 3 a 2.5,2.5 goal 1,2\nagent 4 a 1.5,2.5 goal 1,1')"
run ring4 0 "$BIN/ffsim -o $TMP/ring4.trace --summary $TMP/ring4.sum $TMP/ring4.ff $TMP/ring4.scenario"
check ring4_rotates "$(key makespan "$TMP/ring4.sum") $(key over "$TMP/ring4.sum")" = "1 1"
check ring4_clean "$(conflicts "$TMP/ring4.trace")" = 0

# A head-on pair in a one-cell corridor, each goal beyond the other: no
# sequence of moves solves it.  The wait-for cycle is reported, the
# complement's search proves it unsolvable, and the run ends there.
field corr "$(printf '##########\n#G......G#\n##########')"
scen corr 1000 0.4 "$(printf 'agent 1 a 2.5,1.5 goal 8,1\nagent 2 a 7.5,1.5 goal 1,1')"
run corr 0 "$BIN/ffsim -o $TMP/corr.trace --summary $TMP/corr.sum $TMP/corr.ff $TMP/corr.scenario 2>$TMP/corr.err"
check corr_reported "$(grep -c 'deadlock: agents 1 2 wait on each other' "$TMP/corr.err")" = 1
check corr_deadlocked "$(key deadlocks "$TMP/corr.sum") $(key makespan "$TMP/corr.sum")" = "1 -1"
check corr_searched "$(key complement_searches "$TMP/corr.sum") $(key complement_failures "$TMP/corr.sum")" = "1 0"
check corr_ends_early "$(key over "$TMP/corr.sum")" -lt 100
check corr_ticks_is_over "$(key ticks "$TMP/corr.sum")" = "$(key over "$TMP/corr.sum")"
check corr_last_line "$(tail -n 1 "$TMP/corr.trace")" = \
    "# tick $(key over "$TMP/corr.sum") over: no sequence of moves brings the agents away to their goals"
check corr_clean "$(conflicts "$TMP/corr.trace")" = 0
# The same with arrived leave: reported once, both named, the run ends.
ARRIVED=leave scen corrl 1000 0.4 "$(printf 'agent 1 a 2.5,1.5 goal 8,1\nagent 2 a 7.5,1.5 goal 1,1')"
run corr_leave 0 "$BIN/ffsim -o $TMP/corrl.trace --summary $TMP/corrl.sum $TMP/corr.ff $TMP/corrl.scenario 2>$TMP/corrl.err"
check corr_leave_reported "$(grep -c 'deadlock: agents 1 2 wait on each other' "$TMP/corrl.err") $(wc -l <"$TMP/corrl.err")" = "1 1"
check corr_leave_deadlocked "$(key deadlocks "$TMP/corrl.sum") $(key arrived "$TMP/corrl.sum")" = "1 0"
check corr_leave_ends_early "$(key over "$TMP/corrl.sum")" -lt 100
check corr_leave_last_line "$(tail -n 1 "$TMP/corrl.trace")" = \
    "# tick $(key over "$TMP/corrl.sum") over: no sequence of moves brings the agents away to their goals"
check corr_leave_clean "$(conflicts "$TMP/corrl.trace")" = 0

# A radius 0.8 agent (a 3x3 footprint) before a one-cell corridor: its
# field has no way through, it is reported unable to reach its goal,
# never enters the corridor nor a wall, and the run is over once the
# small agent in the corridor has walked through.
field gap "$(printf '###########\n#...###...#\n#.......G.#\n#...###...#\n###########')"
scen gap 200 0.8 "$(printf 'agent 1 a 2.5,2.5 goal 8,2')"
printf 'class s\n    radius 0.3\n    speed 1\n    follow\nend\nagent 2 s 4.5,2.5 goal 9,3\n' >>"$TMP/gap.scenario"
run gap 1 "$BIN/ffsim --check -o $TMP/gap.trace --summary $TMP/gap.sum $TMP/gap.ff $TMP/gap.scenario 2>$TMP/gap.err"
check gap_reported "$(cat "$TMP/gap.err")" = "ffsim: agent 1 did not arrive: unreachable (no way to a goal from where it stands)"
check gap_unreachable "$(key unreachable "$TMP/gap.sum") $(key arrived "$TMP/gap.sum") $(key stuck "$TMP/gap.sum")" = "1 1 1"
check gap_no_penetration "$(key wall_penetrations "$TMP/gap.sum")" = 0
check gap_never_in "$(awk '/^#/ { next } $2 == 1 && $3 >= 3.5' "$TMP/gap.trace" | wc -l)" = 0
check gap_over "$(key over "$TMP/gap.sum")" -lt 200
check gap_last_line "$(tail -n 1 "$TMP/gap.trace" | cut -d" " -f5-)" = "every agent arrived or has no way to a goal"
check gap_clean "$(conflicts "$TMP/gap.trace")" = 0
# With profiles off it follows the radius-0 field: the sweep refuses the
# steps that would touch a wall, it never enters the corridor; after
# wait-limit waits it finds no own path round the walls either: it is
# stuck, reported so, and the run is over once the small agent arrived.
sed 's/^reserve on/reserve on\nprofiles off/' "$TMP/gap.scenario" >"$TMP/gapoff.scenario"
run gap_off 1 "$BIN/ffsim --check -o $TMP/gapoff.trace --summary $TMP/gapoff.sum $TMP/gap.ff $TMP/gapoff.scenario 2>$TMP/gapoff.err"
check gap_off_refused "$(key sweep_failures "$TMP/gapoff.sum")" -gt 0
check gap_off_stuck "$(key stuck "$TMP/gapoff.sum") $(key arrived "$TMP/gapoff.sum") $(key fallbacks "$TMP/gapoff.sum")" = "1 1 0"
check gap_off_reported "$(cat "$TMP/gapoff.err")" = "ffsim: agent 1 did not arrive: unreachable (no way to a goal from where it stands)"
check gap_off_over "$(key over "$TMP/gapoff.sum")" -lt 200
check gap_off_last_line "$(tail -n 1 "$TMP/gapoff.trace" | cut -d" " -f5-)" = "every agent arrived or has no way to a goal"
sed 's/^reserve on/reserve off\nprofiles off/' "$TMP/gap.scenario" >"$TMP/gapoffr.scenario"
run gap_off_unreserved 0 "$BIN/ffsim -o /dev/null --summary $TMP/gapoffr.sum $TMP/gap.ff $TMP/gapoffr.scenario"
check gap_off_unreserved_stuck "$(key stuck "$TMP/gapoffr.sum") $(key arrived "$TMP/gapoffr.sum") $(key over "$TMP/gapoffr.sum")" = "1 1 $(key over "$TMP/gapoff.sum")"
check gap_off_no_penetration "$(key wall_penetrations "$TMP/gapoff.sum")" = 0
check gap_off_never_in "$(awk '/^#/ { next } $2 == 1 && $3 >= 3.5' "$TMP/gapoff.trace" | wc -l)" = 0
check gap_off_clean "$(conflicts "$TMP/gapoff.trace")" = 0

# Wide footprints among others in a room, with reservations: no conflict.
"$BIN/ffbuild" "$TD/sim/room.ffmap" | "$BIN/ffdir" >"$TMP/room.ff"
run footprint 0 "$BIN/ffsim -o $TMP/fp.trace --summary $TMP/fp.sum $TMP/room.ff $TD/sim/footprint.scenario"
check footprint_clean "$(conflicts "$TMP/fp.trace")" = 0
# The seed's crowd with reservations (8 moves, diagonals): no conflict.
"$BIN/ffbuild" "$TD/crowd.ffmap" | "$BIN/ffdir" >"$TMP/crowd.ff" 2>/dev/null &&
    run crowd 0 "$BIN/ffsim -o $TMP/crowd.trace --summary $TMP/crowd.sum $TMP/crowd.ff $TD/crowd.scenario 2>/dev/null" &&
    check crowd_clean "$(conflicts "$TMP/crowd.trace")" = 0

# A MAPF benchmark instance of the shared test data, when it is there:
# solved, no conflict.
MAPF=$PWD/../shared/testdata/mapf
if [ -f "$MAPF/room-32-32-4-50-1.scen" ]; then
    "$BIN/ffbuild" -m 4 -g 1,1 "$MAPF/room-32-32-4.map" | "$BIN/ffdir" >"$TMP/mroom.ff"
    scen mroom 2000 0.4 "spawn 50 a scen $MAPF/room-32-32-4-50-1.scen"
    run mroom 0 "$BIN/ffsim -o $TMP/mroom.trace --summary $TMP/mroom.sum $TMP/mroom.ff $TMP/mroom.scenario"
    check mroom_solved "$(key makespan "$TMP/mroom.sum" | tr -d 0-9)" = ""
    check mroom_clean "$(conflicts "$TMP/mroom.trace")" = 0
fi

# ---- a map in place of a stream ----
# Every agent has its own goal (a MAPF .scen): ffsim reads the map itself
# (-m 4: MAPF's moves), and the trace is byte for byte the one on a field
# built from it with 4 moves (and a made-up goal, which nobody follows);
# the summary too but for the made-up goal's group.  Solved, no conflict.
# A map with goal cells serves classes without goals as ffbuild's field
# of it would.  A map event makes the unfollowed field (of no goal on the
# map): the same agents' lines.  Refused: a map without goals for a class
# without goals, pointing to ffbuild; -m with a stream; a map where
# another program wants a stream, pointing to ffbuild.
AM=$TD/mapf/random-32-32-10.map
AS=$TD/mapf/random-32-32-10.scenario
run map_mapf 0 "$BIN/ffsim -m 4 -o $TMP/am.trace --summary $TMP/am.sum $AM $AS"
"$BIN/ffbuild" -m 4 -g 1,1 "$AM" | "$BIN/ffdir" >"$TMP/r32.ff"
run map_mapf_stream 0 "$BIN/ffsim -o $TMP/as.trace --summary $TMP/as.sum $TMP/r32.ff $AS"
same map_mapf_same_trace "$TMP/am.trace" "$TMP/as.trace"
check map_mapf_solved "$(key arrived "$TMP/am.sum") $(key makespan "$TMP/am.sum" | tr -d 0-9)" = "100 "
check map_mapf_clean "$(conflicts "$TMP/am.trace")" = 0
check map_mapf_same_summary "$(grep -v -e second -e '^goal_arrivals 1,1,1,1 ' "$TMP/as.sum")" = \
    "$(grep -v second "$TMP/am.sum")"
run map_mapf_stdin 0 "$BIN/ffsim -m 4 -o $TMP/ai.trace --summary /dev/null - $AS <$AM"
same map_mapf_stdin_same_trace "$TMP/am.trace" "$TMP/ai.trace"
run map_mapf_8_moves 0 "$BIN/ffsim -o $TMP/a8.trace --summary /dev/null $AM $AS"
check map_mapf_8_moves_differ "$(cmp -s "$TMP/am.trace" "$TMP/a8.trace" && echo same)" = ""
cp "$TD/mapf/random-32-32-10-100-1.scen" "$TMP/"
sed 's/^move grid/move grid\nat 5 close 10,10,12,12/' "$AS" >"$TMP/event.scenario"
run map_event 0 "$BIN/ffsim -m 4 -o $TMP/ame.trace --summary /dev/null $AM $TMP/event.scenario"
run map_event_stream 0 "$BIN/ffsim -o $TMP/ase.trace --summary /dev/null $TMP/r32.ff $TMP/event.scenario"
grep -v '^#' "$TMP/ame.trace" >"$TMP/ame.lines"
grep -v '^#' "$TMP/ase.trace" >"$TMP/ase.lines"
same map_event_same_agents "$TMP/ame.lines" "$TMP/ase.lines"
check map_event_field_published "$(grep -c '^# tick 5 field 0 ' "$TMP/ame.trace")" = 1
"$BIN/ffbuild" "$TD/doors.ffmap" | "$BIN/ffdir" >"$TMP/doors.ff"
run map_goals 0 "$BIN/ffsim -o $TMP/dm.trace --summary $TMP/dm.sum $TD/doors.ffmap $TD/doors.scenario"
run map_goals_stream 0 "$BIN/ffsim -o $TMP/ds.trace --summary $TMP/ds.sum $TMP/doors.ff $TD/doors.scenario"
same map_goals_same_trace "$TMP/dm.trace" "$TMP/ds.trace"
printf 'ffsim 1\nticks 5\nclass c\n  radius 0.3\n  speed 1\n  follow\nend\nagent 7 c 1.5,1.5\n' >"$TMP/nogoal.scen"
refuse map_no_goal "^ffsim: $AM: a map without goals, and class c has none, nor agent 7 a goal of its own: give them goals \\(ffsim\\(5\\)\\), or build a field with ffbuild -g X,Y and ffdir\$" \
    "$BIN/ffsim $AM $TMP/nogoal.scen"
refuse map_moves_with_stream "^ffsim: -m: the stream's field has its moves: give -m with a map" \
    "$BIN/ffsim -m 4 $TMP/r32.ff $AS"
refuse map_moves_bad "^ffsim: --moves '6': not 4 or 8" "$BIN/ffsim -m 6 $AM $AS"
for prog in ffdir ffinfo ffexport ffpng; do
    refuse "$prog: a map, not a stream" "^$prog: $AM:1:1: a Moving AI map, not an ff stream: build a field of it with ffbuild -g X,Y\$" \
        "$BIN/$prog -o $TMP/x.npy $AM"
done
refuse "ffquery: an ffmap, not a stream" "^ffquery: $TD/demo/small.ffmap:1:1: an ffmap, not an ff stream: build a field of it with ffbuild -g X,Y\$" \
    "$BIN/ffquery $TD/demo/small.ffmap </dev/null"
refuse "ffdir: a Tiled map, not a stream" "^ffdir: -:1:1: a Tiled map, not an ff stream" "$BIN/ffdir <$TD/tiled/dungeon.tmj"

finish
