# mapfrun.sh - sourced by the MAPF benches (bench_mapf.sh, bench_plans.sh,
# bench_ownfield.sh): one Moving AI .scen instance made ready for ffsim.
#
#   mapf_field SCEN MAP OUT       the field of MAP (4 moves), its goal the
#                                 first agent's (any goal serves: every
#                                 agent has its own), into OUT
#   mapf_scenario TICKS AGENTS SCEN [EFFORT] > FILE
#                                 the MAPF convention: cell-to-cell moves
#                                 with reservations, 'arrived stay', the
#                                 first AGENTS agents of SCEN with their
#                                 own goals; plan-effort EFFORT when given
# Both need BIN, the folder of the programs.

mapf_field() {
    _goal=$(sed -n '2p' "$1" | awk -F'\t' '{ print $7 "," $8 }')
    "$BIN/ffbuild" -m 4 -g "$_goal" "$2" | "$BIN/ffdir" >"$3"
}

mapf_scenario() {
    printf 'ffsim 1\nticks %s\nmove grid\nreserve on\narrived stay\n' "$1"
    [ -n "${4:-}" ] && printf 'plan-effort %s\n' "$4"
    printf 'class a\n    radius 0.4\n    speed 1\n    follow\nend\nspawn %s a scen %s\n' "$2" "$3"
}
