#!/bin/sh
# make check-valgrind: each program once on good input and once on bad
# input under valgrind's memcheck, then the error matrix of
# tests/cli/test_errors.sh with every program under it, and
# tests/cli/test_fault.sh (every allocation failed in turn, a sample under
# valgrind).  A run passes when valgrind finds no
# invalid read or write, no use of an uninitialised value and no leak
# (definite, indirect or possible; "still reachable" is allowed), and the
# program exits as it does without valgrind.  Build without SAN=1: the
# sanitizers and valgrind do not mix.  Ends with "valgrind: N passed, N
# failed".
set -u
cd "$(dirname "$0")/.." || exit 2
BIN=$PWD/bin
TD=$PWD/testdata
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PASS=0
FAILN=0

if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind: not installed (Debian: apt-get install valgrind)" >&2
    exit 2
fi
if grep -q __asan_init "$BIN/ffbuild" 2>/dev/null; then
    echo "valgrind: bin/ is built with SAN=1; run 'make clean && make' first" >&2
    exit 2
fi

VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible --track-origins=yes"

# vg NAME WANT_STATUS CMD: run CMD (via sh -c) with every program under
# valgrind; WANT_STATUS is the exit status the program must give.
vg() {
    name=$1 want=$2
    shift 2
    line=$(printf '%s' "$*" | sed "s|$BIN/|$VG --log-file=$TMP/vg.%p $BIN/|g")
    rm -f "$TMP"/vg.*
    sh -c "$line" >"$TMP/out" 2>"$TMP/err"
    got=$?
    report=$(cat "$TMP"/vg.* 2>/dev/null)
    if [ -n "$report" ] || [ "$got" -eq 99 ]; then
        FAILN=$((FAILN + 1))
        echo "FAIL $name: valgrind:"
        printf '%s\n' "$report" | head -n 30
    elif [ "$got" -ne "$want" ]; then
        FAILN=$((FAILN + 1))
        echo "FAIL $name: exit $got, want $want: $(head -n 3 "$TMP/err")"
    else
        PASS=$((PASS + 1))
        echo "ok $name"
    fi
}

# Inputs, made without valgrind.
$BIN/ffbuild "$TD/gate.ffmap" >"$TMP/gate0.ff" &&
    $BIN/ffdir "$TMP/gate0.ff" >"$TMP/gate.ff" &&
    $BIN/ffquery --trace 2,2 "$TMP/gate.ff" >"$TMP/path.txt" || {
    echo "valgrind: cannot build the inputs" >&2
    exit 2
}
sed -e 's/^ticks .*/ticks 20/' -e '/^spawn/d' "$TD/gate.scenario" >"$TMP/s.scen"
echo 'spawn 5 walker spawns seed 1 tick 0' >>"$TMP/s.scen"
printf '0.5 0.5\n1 0 1 2\n2 0 2 2\n3.5 1.5\n' >"$TMP/portals.txt"
printf 'ff 1\nsize 2 1\nchannel cost f32\nencoding text\nend\n1 x\n' >"$TMP/bad.ff"
printf '1 x\n' >"$TMP/bad.txt"

[ -x "$BIN/ffbuild" ] && {
    vg "ffbuild: Moving AI map" 0 "$BIN/ffbuild -g 10,10 -r 0.5 $TD/movingai/arena.map -o $TMP/arena.ff"
    vg "ffbuild: ffmap, text" 0 "$BIN/ffbuild --text $TD/demo/tiny.ffmap"
    vg "ffbuild: PNG map" 0 "$BIN/ffbuild -g 1,0 $PWD/tests/fuzz/corpus/png/grey_3x3.png"
    vg "ffbuild: goals file" 0 "printf '4 0\n' >$TMP/g.txt; $BIN/ffbuild --goals $TMP/g.txt $TD/demo/tiny.ffmap"
    vg "ffbuild: ragged map" 2 "$BIN/ffbuild $TD/bad/ragged.map"
    vg "ffbuild: bad goals file" 2 "$BIN/ffbuild --goals $TMP/bad.txt $TD/demo/tiny.ffmap"
}
[ -x "$BIN/ffdir" ] && {
    vg "ffdir: two fields" 0 "cat $TMP/gate0.ff $TMP/gate0.ff | $BIN/ffdir --text"
    vg "ffdir: bad stream" 2 "$BIN/ffdir $TMP/bad.ff"
}
[ -x "$BIN/ffquery" ] && {
    vg "ffquery: smoothed directions" 0 "printf '3.2 4.7\n10 10\n' | $BIN/ffquery -d $TMP/gate.ff"
    vg "ffquery: trace" 0 "$BIN/ffquery --trace 2,2 $TMP/gate.ff"
    vg "ffquery: check" 0 "printf '2 2\n' | $BIN/ffquery --check $TMP/gate.ff"
    vg "ffquery: bad position" 2 "$BIN/ffquery $TMP/gate.ff <$TMP/bad.txt"
}
[ -x "$BIN/ffpull" ] && {
    vg "ffpull: a traced path" 0 "$BIN/ffpull $TMP/gate.ff <$TMP/path.txt"
    vg "ffpull: bad path" 2 "$BIN/ffpull $TMP/gate.ff <$TMP/bad.txt"
}
[ -x "$BIN/fffunnel" ] && {
    vg "fffunnel: portals" 0 "$BIN/fffunnel -r 0.1 <$TMP/portals.txt"
    vg "fffunnel: a cell path" 0 "$BIN/fffunnel --cells $TMP/gate.ff <$TMP/path.txt"
    vg "fffunnel: bad portals" 2 "$BIN/fffunnel <$TMP/bad.txt"
}
[ -x "$BIN/ffpng" ] && {
    vg "ffpng: a field with a path" 0 "$BIN/ffpng --legend --path $TMP/path.txt -o $TMP/g.png $TMP/gate.ff"
    vg "ffpng: bad stream" 2 "$BIN/ffpng -o $TMP/g.png $TMP/bad.ff"
}
[ -x "$BIN/ffsim" ] && {
    vg "ffsim: a short scenario" 0 "$BIN/ffsim --summary $TMP/sum.txt -o $TMP/trace.txt $TMP/gate.ff $TMP/s.scen"
    vg "ffsim: bad scenario" 2 "printf 'ffsim 1\ntick zero\n' >$TMP/b.scen; $BIN/ffsim $TMP/gate.ff $TMP/b.scen"
    # Issue 33, item 3: a turn-cost field, grid moves, reservations and
    # congestion (the congestion costs were read before the first refresh
    # had set them).
    awk 'BEGIN { print "type octile\nheight 16\nwidth 16\nmap"; for (y = 0; y < 16; y++) {
        s = ""; for (x = 0; x < 16; x++) s = s (y == 8 && x != 8 ? "@" : "."); print s } }' >"$TMP/wall.map"
    "$BIN/ffbuild" --turn-cost 1 -g 8,15 "$TMP/wall.map" | "$BIN/ffdir" >"$TMP/wall.ff"
    printf 'ffsim 1\nticks 30\nmove grid\nreserve on\ncongestion on\nclass c\n radius 0.3\n speed 1\n follow\nend\nagent 1 c 2.5,1.5\nagent 2 c 4.5,1.5\nagent 3 c 6.5,2.5\nagent 4 c 8.5,2.5\n' >"$TMP/wall.scen"
    vg "ffsim: turn costs, grid moves, reservations, congestion" 0 \
        "$BIN/ffsim --summary $TMP/sum.txt -o $TMP/trace.txt $TMP/wall.ff $TMP/wall.scen"
}

# The error matrix (tests/cli/test_errors.sh) with every program under
# valgrind: the error paths are where an uninitialised free or a double
# close hides, which AddressSanitizer does not see.
out=$(FF_VALGRIND="$VG" sh tests/cli/test_errors.sh 2>&1)
printf '%s\n' "$out" | grep -v '^ok '
mp=$(printf '%s\n' "$out" | sed -n 's/^cli: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
mf=$(printf '%s\n' "$out" | sed -n 's/^cli: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
PASS=$((PASS + ${mp:-0}))
FAILN=$((FAILN + ${mf:-1}))

# Every allocation of each program failed in turn, a sample of the runs
# under valgrind (tests/cli/test_fault.sh): under SAN=1, make check tries
# only some of them.
out=$(sh tests/cli/test_fault.sh 2>&1)
printf '%s\n' "$out" | grep -v '^ok '
fp=$(printf '%s\n' "$out" | sed -n 's/^cli: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
ff=$(printf '%s\n' "$out" | sed -n 's/^cli: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
PASS=$((PASS + ${fp:-0}))
FAILN=$((FAILN + ${ff:-1}))

echo "valgrind: $PASS passed, $FAILN failed"
[ "$FAILN" -eq 0 ]
