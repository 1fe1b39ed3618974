#!/bin/sh
# Allocation failure never crashes: each program on small inputs, run
# once per allocation it makes, with that one allocation failing
# (tests/fault/failalloc.so, LD_PRELOAD).  Each run must exit 0 (the
# failure absorbed) or 3 with one stderr line `PROG: ...`, never 2 (out of
# memory is no bad input) and never by a signal, and leave in its working
# folder no output but a complete one.  In a SAN=1 build every run is
# also checked by ASan and LeakSanitizer (no leak on any path).  Ends
# with "cli: N passed, N failed"; before it, "fault: ..." counts the runs.
. "$(dirname "$0")/lib.sh"

SHIM=$PWD/tests/fault/failalloc.so
if [ ! -f "$SHIM" ]; then
    fail "setup" "$SHIM is not built (make check builds it)"
    finish
    exit 1
fi
# A SAN=1 build: the sanitizer's allocator comes after the shim, and
# every run is checked by ASan and LSan; as each run is slower there, a
# case tries at most SAN_KS allocations, spread evenly (the plain build,
# as make check-valgrind runs it in CI, tries every one).
PRELOAD=$SHIM
STRIDE_OF=0
if grep -q __asan_init "$BIN/ffbuild" 2>/dev/null; then
    STRIDE_OF=${SAN_KS:-25}
    echo "# fault: a SAN=1 build: at most $STRIDE_OF allocations a case, each under ASan"
    ASAN_LIB=$(ldd "$BIN/ffbuild" | sed -n 's/.*libasan[^ ]* => \([^ ]*\) .*/\1/p')
    PRELOAD="$SHIM${ASAN_LIB:+ $ASAN_LIB}"
    ASAN_OPTIONS="verify_asan_link_order=0:allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
    export ASAN_OPTIONS
    VG=
else
    # No valgrind sample: Debian's valgrind is a shell script and its
    # core allocates through the preloaded shim too, so a failure lands
    # in valgrind or the shell, not in the program (every sampled run
    # exited 2 from sh, or 0 with no failure seen).  Leaks on the
    # failure paths are LeakSanitizer's to find: CI runs this test in
    # the SAN=1 build, every run under ASan and LSan.
    VG=
fi

IN=$TMP/in
W=$TMP/work
mkdir -p "$IN" "$W"
MAP=$TD/gate.ffmap
$BIN/ffbuild "$MAP" >"$IN/gate0.ff" && $BIN/ffdir "$IN/gate0.ff" >"$IN/gate.ff" &&
    $BIN/ffbuild --any-angle "$TD/anyangle/gap.ffmap" >"$IN/gap.ff" &&
    $BIN/ffquery --trace 2,2 "$IN/gate.ff" >"$IN/path.txt" &&
    $BIN/ffbuild --turn-cost 1 "$TD/turn/zigzag.ffmap" | $BIN/ffdir >"$IN/turn.ff" || {
    fail setup "cannot build the inputs"
    finish
    exit 1
}
sed -e 's/^ticks .*/ticks 4/' -e '/^spawn/d' "$TD/gate.scenario" >"$IN/s.scen"
echo 'spawn 3 walker spawns seed 1 tick 0' >>"$IN/s.scen"
$BIN/ffsim --summary /dev/null "$IN/gate.ff" "$IN/s.scen" >"$IN/s.trace" || {
    fail setup "cannot make the trace"
    finish
    exit 1
}
printf '0.5 0.5\n1 0 1 2\n2 0 2 2\n3.5 1.5\n' >"$IN/portals.txt"
printf '2 2\n3 3\n' >"$IN/cells.txt"
printf 'a 2,2\nb 3,3 4,4\n' >"$IN/sets.txt"
printf '2.5 2.5\n' >"$IN/points.txt"
printf 'close 0,0,1,1\n' >"$IN/changes.txt"
# A turn-cost field with grid moves, reservations and congestion.
awk 'BEGIN { print "type octile\nheight 8\nwidth 8\nmap"; for (y = 0; y < 8; y++) {
    s = ""; for (x = 0; x < 8; x++) s = s (y == 4 && x != 4 ? "@" : "."); print s } }' >"$IN/wall.map"
$BIN/ffbuild --turn-cost 1 -g 4,7 "$IN/wall.map" | $BIN/ffdir >"$IN/wall.ff"
printf 'ffsim 1\nticks 12\nmove grid\nreserve on\ncongestion on\nclass c\n radius 0.3\n speed 1\n follow\nend\nagent 1 c 1.5,1.5\nagent 2 c 3.5,1.5\nagent 3 c 5.5,2.5\n' >"$IN/wall.scen"
# A map of 32 x 32 open cells: large enough for threads (-j).
awk 'BEGIN { print "type octile\nheight 32\nwidth 32\nmap"; for (y = 0; y < 32; y++) print "................................" }' >"$IN/open32.map"
# Agents of a Moving AI MAPF scenario.
cp "$TD/movingai/arena.map.scen" "$IN/arena.map.scen"
$BIN/ffbuild -g 10,10 "$TD/movingai/arena.map" | $BIN/ffdir >"$IN/arena.ff"
printf 'ffsim 1\nticks 3\nmove grid\nclass a\n radius 0.3\n speed 1\n follow\nend\nspawn 3 a scen arena.map.scen\n' >"$IN/mapf.scen"

RUNS=0
SAMPLED=0
# fault NAME CMD: CMD (via sh -c, in an empty folder, with $BIN/PROG the
# program under test) once to count its allocations, then once per
# allocation with that one failing.
fault() {
    name=$1 cmd=$2
    prog=$(printf '%s\n' "$cmd" | sed -n 's|^[^ ]*/bin/\(ff[a-z]*\).*|\1|p')
    # Only the program runs with the shim, not the shell around it.
    pcmd=$(printf '%s' "$cmd" | sed "s|$BIN/|env LD_PRELOAD='$PRELOAD' $BIN/|g")
    rm -rf "$W" && mkdir "$W"
    (cd "$W" && FF_FAIL_COUNT=$TMP/count sh -c "$pcmd" >"$TMP/out" 2>"$TMP/err")
    got=$?
    if [ "$got" -ne 0 ] || [ ! -s "$TMP/count" ]; then
        fail "$name" "does not run without a fault: exit $got: $(head -n 2 "$TMP/err")"
        return
    fi
    n=$(cat "$TMP/count")
    rm -f "$TMP/count"
    bad=
    nbad=0
    step=1
    [ "$STRIDE_OF" -gt 0 ] && [ "$n" -gt "$STRIDE_OF" ] && step=$(( (n + STRIDE_OF - 1) / STRIDE_OF ))
    k=1
    while [ "$k" -le "$n" ]; do
        rm -rf "$W" && mkdir "$W"
        (cd "$W" && FF_FAIL_AT=$k sh -c "$pcmd" >"$TMP/out" 2>"$TMP/err")
        got=$?
        RUNS=$((RUNS + 1))
        lines=$(wc -l <"$TMP/err")
        # Complete fields of a --split folder may stay (each is written
        # atomically); nothing else may.
        left=$(cd "$W" && find . -mindepth 1 ! -path ./dir ! -path './dir/*.ff')
        why=
        case $got in
        0) ;;
        3) if [ "$lines" -ne 1 ] || ! grep -q "^$prog: " "$TMP/err"; then why="exit 3 without one '$prog: ' line"; fi
           if [ -n "$left" ]; then why="exit 3 leaving $left"; fi ;;
        *) why="exit $got" ;;
        esac
        if [ -n "$why" ]; then
            nbad=$((nbad + 1))
            [ "$nbad" -le 5 ] && bad="$bad
  k=$k: $why: $(head -n 2 "$TMP/err")"
        fi
        k=$((k + step))
    done
    if [ -z "$bad" ]; then pass "$name ($n allocations)"; else fail "$name ($n allocations)" "$nbad runs wrong:$bad"; fi
    [ -n "$VG" ] || return
    # The sample: a quarter, a half and three quarters in.
    for k in $((n / 4 + 1)) $((n / 2 + 1)) $((3 * n / 4 + 1)); do
        rm -rf "$W" && mkdir "$W"
        vcmd=$(printf '%s' "$cmd" | sed "s|$BIN/|env LD_PRELOAD='$PRELOAD' $VG --log-file=$TMP/vg.%p $BIN/|g")
        rm -f "$TMP"/vg.*
        (cd "$W" && FF_FAIL_AT=$k sh -c "$vcmd" >"$TMP/out" 2>"$TMP/err")
        got=$?
        SAMPLED=$((SAMPLED + 1))
        report=$(cat "$TMP"/vg.* 2>/dev/null)
        if [ -n "$report" ] || [ "$got" -eq 99 ]; then
            fail "$name k=$k under valgrind" "$(printf '%s\n' "$report" | head -n 30)"
        else
            pass "$name k=$k under valgrind (exit $got)"
        fi
    done
}

fault "ffbuild: ffmap" "$BIN/ffbuild $MAP"
fault "ffbuild: Moving AI, -o" "$BIN/ffbuild -g 1,1 -o out.ff $TD/bad/small.map"
fault "ffbuild: Tiled JSON, external tileset" "$BIN/ffbuild $TD/tiled/dungeon.tmj"
fault "ffbuild: Tiled XML, gzip" "$BIN/ffbuild $TD/tiled/hall-gzip.tmx"
fault "ffbuild: Tiled XML, external tileset" "$BIN/ffbuild $TD/tiled/hall-csv.tmx"
fault "ffbuild: Tiled JSON, zstd" "$BIN/ffbuild $TD/tiled/hall-zstd.tmj"
fault "ffbuild: PNG" "$BIN/ffbuild -g 1,1 $TD/png/grey4.png"
fault "ffbuild: --goal-sets -j 1" "$BIN/ffbuild -j 1 --goal-sets $IN/sets.txt $MAP"
# (Not under ASan: its start of a thread allocates through the C library
# and stops the program when that fails.)
[ "$STRIDE_OF" -eq 0 ] && fault "ffbuild: --goal-sets -j 2" "$BIN/ffbuild -j 2 --goal-sets $IN/sets.txt $IN/open32.map"
fault "ffbuild: --goal-sets --split" "$BIN/ffbuild -j 1 --goal-sets $IN/sets.txt --split dir $MAP"
fault "ffbuild: -g, --turn-cost" "$BIN/ffbuild -g 2,2 -g 3,3 --turn-cost 1 $TD/turn/zigzag.ffmap"
fault "ffbuild: --any-angle, -c cut" "$BIN/ffbuild --any-angle -c cut $TD/anyangle/gap.ffmap"
fault "ffbuild: --update" "$BIN/ffbuild --update $IN/changes.txt $IN/gate0.ff"
fault "ffdir" "$BIN/ffdir $IN/gate0.ff"
fault "ffdir: an any-angle field" "$BIN/ffdir $IN/gap.ff"
fault "ffquery: --trace" "$BIN/ffquery --trace 2,2 $IN/gate.ff"
fault "ffquery: --check" "$BIN/ffquery --check $IN/gate.ff <$IN/cells.txt"
fault "ffquery: positions" "$BIN/ffquery $IN/gate.ff <$IN/points.txt"
fault "ffpull" "$BIN/ffpull $IN/gate.ff <$IN/path.txt"
fault "fffunnel" "$BIN/fffunnel $IN/portals.txt"
fault "ffpng: field, path" "$BIN/ffpng --path $IN/path.txt -o out.png $IN/gate.ff"
fault "ffpng: trace" "$BIN/ffpng --trace $IN/s.trace $IN/gate.ff"
# An animation whose map changes: the gate closes at tick 2 (the map and
# its field drawn again).
awk '!done && !/^#/ && $1 == 2 { print "# tick 2 close 15,10,15,10"; done = 1 } 1' "$IN/s.trace" >"$IN/door.trace"
fault "ffpng: --animate, a map event" "$BIN/ffpng -s 2 --animate --trace $IN/door.trace -o out.png $IN/gate.ff"
fault "ffsim: gate" "$BIN/ffsim --summary sum.txt -o trace.txt $IN/gate.ff $IN/s.scen"
fault "ffsim: steered headings" "$BIN/ffsim -o trace.txt $IN/gate.ff $TD/sim/turning.scenario"
fault "ffsim: turn costs, grid moves" "$BIN/ffsim $IN/turn.ff $TD/turn/zigzag.scenario"
fault "ffsim: turn costs, reservations, congestion" "$BIN/ffsim $IN/wall.ff $IN/wall.scen"
fault "ffsim: a MAPF .scen" "$BIN/ffsim $IN/arena.ff $IN/mapf.scen"
fault "ffinfo" "$BIN/ffinfo $IN/gate.ff"
fault "ffexport: npy" "$BIN/ffexport --npy $IN/gate.ff"
$BIN/ffbuild -j 1 --goal-sets "$IN/sets.txt" "$MAP" >"$IN/sets.ff"
fault "ffexport: --all" "$BIN/ffexport --all -o dir $IN/sets.ff"
fault "ffinfo: --json" "$BIN/ffinfo --json $IN/sets.ff"
fault "ffsim: --json" "$BIN/ffsim --json --summary sum.txt -o trace.txt $IN/gate.ff $IN/s.scen"
fault "ffsim: a map for a MAPF .scen" "$BIN/ffsim $TD/movingai/arena.map $IN/mapf.scen"
fault "ffpng: --animate" "$BIN/ffpng --animate --trace $IN/s.trace -o out.png $IN/gate.ff"

# Issue 33, item 8: one external tileset named 50 times more is read and
# stored once.  Counted in allocations (the shim's count, deterministic):
# the 50 more names cost their JSON objects and a copy of a name each,
# 14 allocations a name; reading dungeon.tsj again would cost 169.
cp "$TD/tiled/dungeon.tmj" "$TD/tiled/dungeon.tsj" "$IN/"
extra=$(awk 'BEGIN { for (k = 1; k <= 50; k++) printf ", {\"firstgid\":%d, \"source\":\"dungeon.tsj\"}", 1000 * k }')
sed -e "s|\"source\":\"dungeon.tsj\"|&}$extra|" -e '56s/^        }\],/ ],/' "$IN/dungeon.tmj" >"$IN/many.tmj"
allocations() {
    FF_FAIL_COUNT=$TMP/count LD_PRELOAD=$PRELOAD "$@" >"$TMP/out" 2>"$TMP/err" && cat "$TMP/count"
}
once=$(allocations $BIN/ffbuild "$IN/dungeon.tmj")
cp "$TMP/out" "$TMP/once.ff"
many=$(allocations $BIN/ffbuild "$IN/many.tmj")
same "a tileset named 51 times: the same stream as named once" "$TMP/once.ff" "$TMP/out"
check "a tileset named 51 times: read once ($once allocations named once, $many named 51 times)" \
    "${many:-99999}" -lt "$(( ${once:-0} + 50 * 20 ))"

echo "fault: $RUNS runs with one allocation failing${VG:+, $SAMPLED of them under valgrind}"
finish
