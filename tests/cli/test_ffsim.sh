#!/bin/sh
# ffsim: the trace against a stored one, the gate bottleneck (everyone
# arrives, no wall penetration measured here from the trace, smoothing
# lowers heading jitter), byte-for-byte determinism with 1,000 agents,
# --every, -o and --summary, and refused input.
. "$(dirname "$0")/lib.sh"
SD=$TD/sim

"$BIN/ffbuild" "$SD/room.ffmap" | "$BIN/ffdir" >"$TMP/room.ff"
"$BIN/ffbuild" "$TD/gate.ffmap" | "$BIN/ffdir" >"$TMP/gate.ff"

run help 0 "$BIN/ffsim --help"
check help_usage "$(printf '%s\n' "$OUT" | head -n 1 | cut -c1-12)" = "usage: ffsim"
run version 0 "$BIN/ffsim --version"
run no_args 2 "$BIN/ffsim"

# The seeds' priority example, stored.
run pass 0 "$BIN/ffsim --every 25 $TMP/room.ff $SD/pass.scenario >$TMP/pass.trace"
same pass_trace "$TMP/pass.trace" "$SD/pass.trace"

# The gate, both ways.
run gate_smooth 0 "$BIN/ffsim -o $TMP/gs.trace --summary $TMP/gs.sum $TMP/gate.ff $TD/gate.scenario"
run gate_raw 0 "$BIN/ffsim --direction raw -o $TMP/gr.trace --summary $TMP/gr.sum $TMP/gate.ff $TD/gate.scenario"
key() { sed -n "s/^$1 //p" "$2"; }
check gate_smooth_all_arrive "$(key arrived "$TMP/gs.sum")" = 300
check gate_raw_all_arrive "$(key arrived "$TMP/gr.sum")" = 300
check gate_smooth_no_penetration "$(key wall_penetrations "$TMP/gs.sum")" = 0
check gate_raw_no_penetration "$(key wall_penetrations "$TMP/gr.sum")" = 0
check gate_jitter_lower "$(awk -v s="$(key heading_jitter "$TMP/gs.sum")" -v r="$(key heading_jitter "$TMP/gr.sum")" \
    'BEGIN { print (s < 0.75 * r) ? "yes" : "no " s " vs " r }')" = yes
check gate_overlap_bound "$(awk -v o="$(key max_overlap "$TMP/gs.sum")" 'BEGIN { print (o < 0.3) ? "yes" : "no" }')" = yes

# Wall penetrations measured from the trace alone: every position against
# every wall cell of the map (the trace has 4 decimals: tolerance 1e-4).
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
         END { print (n > 0 ? bad + 0 : "no positions") }' "$TD/gate.ffmap" "$1"
}
check gate_smooth_trace_clear "$(penetrations "$TMP/gs.trace")" = 0
check gate_raw_trace_clear "$(penetrations "$TMP/gr.trace")" = 0

# Determinism: 1,000 agents through the gate, twice, identical bytes.
sed -e 's/^spawn .*//' -e 's/^ticks .*/ticks 150/' "$TD/gate.scenario" >"$TMP/crowd.scenario"
echo 'spawn 1000 walker rect 1,1,15,20 seed 3' >>"$TMP/crowd.scenario"
run crowd_1 0 "$BIN/ffsim $TMP/gate.ff $TMP/crowd.scenario >$TMP/c1.trace 2>$TMP/c1.sum"
run crowd_2 0 "$BIN/ffsim $TMP/gate.ff $TMP/crowd.scenario >$TMP/c2.trace 2>$TMP/c2.sum"
same crowd_deterministic "$TMP/c1.trace" "$TMP/c2.trace"
check crowd_lines "$(grep -vc '^#' "$TMP/c1.trace")" -gt 100000
grep -v '^agent_steps_per_second' "$TMP/c1.sum" >"$TMP/c1.s"
grep -v '^agent_steps_per_second' "$TMP/c2.sum" >"$TMP/c2.s"
same crowd_summary_deterministic "$TMP/c1.s" "$TMP/c2.s"
check crowd_no_penetration "$(key wall_penetrations "$TMP/c1.sum")" = 0

# --every N keeps exactly the ticks that are multiples of N.
run every 0 "$BIN/ffsim --every 10 $TMP/gate.ff $TMP/crowd.scenario >$TMP/e.trace 2>/dev/null"
awk '/^#/ || $1 % 10 == 0' "$TMP/c1.trace" >"$TMP/e.want"
same every_subset "$TMP/e.trace" "$TMP/e.want"

# The summary file holds what stderr would.
run summary_file 0 "$BIN/ffsim --summary $TMP/s.sum $TMP/gate.ff $TMP/crowd.scenario >/dev/null"
grep -v '^agent_steps_per_second' "$TMP/s.sum" >"$TMP/s.s"
same summary_file_same "$TMP/s.s" "$TMP/c1.s"
check summary_file_keys "$(cut -d' ' -f1 "$TMP/s.sum" | tr '\n' ' ')" = \
    "agents spawned arrived arrival_tick_median arrival_tick_p95 stuck remaining unreachable wall_penetrations max_overlap heading_jitter group_fallbacks escapes field_builds field_bytes stale_ticks fallbacks reservation_waits deadlocks deadlocked tick_overruns ticks agent_steps agent_steps_per_second "

# Refused input: one line naming file, line and column; exit 2; no output.
bad() {
    printf 'ffsim 1\nticks 10\nclass w\n    radius %s\n    speed 1\n    follow\nend\n%s\n' "$1" "$2" >"$TMP/$3.scenario"
}
refuse unknown_behaviour "^ffsim: .*/sim/bad.scenario:7:5: unknown behaviour 'wander'" \
    "$BIN/ffsim $TMP/room.ff $SD/bad.scenario"
bad -0.3 "" negative
refuse negative_radius "^ffsim: .*/negative.scenario:4:12: radius -0.3 must be > 0$" \
    "$BIN/ffsim $TMP/room.ff $TMP/negative.scenario"
bad 0.3 "agent 1 w 0.5,4.5" onwall
refuse agent_on_wall "^ffsim: .*/onwall.scenario:8:11: agent 1 at 0.5,4.5 is on a wall$" \
    "$BIN/ffsim $TMP/room.ff $TMP/onwall.scenario"
bad 0.3 "agent 1 w 25,4.5" outside
refuse agent_outside "^ffsim: .*/outside.scenario:8:11: agent 1 at 25,4.5 is outside the map$" \
    "$BIN/ffsim $TMP/room.ff $TMP/outside.scenario"
bad 0.3 "agent 4 w 2.5,4.5
agent 4 w 3.5,4.5" dup
refuse duplicate_id "^ffsim: .*/dup.scenario:9:7: duplicate agent id 4 \\(first given at line 8\\)$" \
    "$BIN/ffsim $TMP/room.ff $TMP/dup.scenario"
refuse scenario_on_stdin "^ffsim: -:7:5: unknown behaviour" "$BIN/ffsim $TMP/room.ff - <$SD/bad.scenario"
"$BIN/ffbuild" "$SD/room.ffmap" >"$TMP/nodir.ff"
refuse no_direction "no direction channel" "$BIN/ffsim $TMP/nodir.ff $SD/pass.scenario"
refuse no_scenario "cannot open" "$BIN/ffsim $TMP/room.ff $TMP/missing.scenario"
refuse bad_direction "bad --direction" "$BIN/ffsim --direction sideways $TMP/room.ff $SD/pass.scenario 2>&1 | head -n 1 >&2; exit 2"
run failed_run_leaves_no_file 2 "$BIN/ffsim -o $TMP/never.trace $TMP/room.ff $SD/bad.scenario"
check no_partial_output ! -e "$TMP/never.trace"
# The EXAMPLES of man 1 ffsim run as written and print what the page
# shows; both pages are clean under mandoc -Tlint.
SAND=$TMP/sand
mkdir -p "$SAND"
ln -s "$TD" "$SAND/testdata"
awk -v dir="$TMP" '
    /^\.Sh / { inex = ($0 == ".Sh EXAMPLES"); next }
    inex && /^\.Bd -literal/ { lit = 1; next }
    inex && /^\.Ed/ { lit = 0; next }
    !lit { next }
    { gsub(/\\&/, ""); gsub(/\\-/, "-"); gsub(/\\e/, "\\") }
    /^\$ / { print substr($0, 3) >> (dir "/ex.sh"); next }
    { print >> (dir "/ex.want") }' man/man1/ffsim.1
(cd "$SAND" && PATH="$BIN:$PATH" sh "$TMP/ex.sh" >"$TMP/ex.got" 2>&1)
same man_examples "$TMP/ex.got" "$TMP/ex.want"
if command -v mandoc >/dev/null; then
    run mandoc_lint 0 "test -z \"\$(mandoc -Tlint -Wwarning man/man1/ffsim.1 man/man5/ffsim.5 2>&1)\""
fi
finish
