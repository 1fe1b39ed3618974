#!/bin/sh
# The error matrix: every program on every error path it has.  Each input
# slot of each program gets a missing file, a folder, an empty input and
# bad input of each kind; each output gets a full device (/dev/full), a
# full small filesystem (a 64 KiB tmpfs, when mount works here), a closed
# pipe (SIGPIPE ignored: a write error; SIGPIPE left alone: death by it),
# an empty name and a folder; the command line gets an unknown option, an
# option without its value and an extra argument.  Every case must exit
# with the status its man page gives (EXIT STATUS: 2 bad input or usage,
# 3 a system failure), print one line on stderr of the form `PROG: FILE: reason`
# (matched against a pattern naming the file and the reason), write
# nothing on stdout and leave nothing behind in its working folder.
#
# Under `make check-valgrind` (FF_VALGRIND set to a valgrind command line)
# every program runs under valgrind, and a report fails the case.
# Ends with "cli: N passed, N failed"; before it, "matrix: ..." counts the
# cases per program.
. "$(dirname "$0")/lib.sh"

FULL=$TMP/full
MOUNTED=0
cleanup() {
    [ "$MOUNTED" = 1 ] && umount "$FULL" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

VG=${FF_VALGRIND:-}
W=$TMP/work      # each case's working folder, empty before and after
IN=$TMP/in       # inputs
mkdir -p "$W" "$IN" "$IN/folder" "$TMP/vg" "$FULL"
: >"$IN/empty"
MISSING=$IN/missing.txt

# ---- inputs, made without valgrind ----
$BIN/ffbuild "$TD/gate.ffmap" >"$IN/gate0.ff" &&
    $BIN/ffdir "$IN/gate0.ff" >"$IN/gate.ff" &&
    $BIN/ffquery --trace 2,2 "$IN/gate.ff" >"$IN/path.txt" || {
    echo "FAIL setup: cannot build the inputs"
    exit 1
}
MAP=$TD/gate.ffmap
FIELD=$IN/gate.ff
$BIN/ffbuild --turn-cost 1 "$TD/turn/zigzag.ffmap" | $BIN/ffdir >"$IN/turn.ff" || {
    echo "FAIL setup: cannot build the turn-cost field"
    exit 1
}
sed -e 's/^ticks .*/ticks 5/' -e '/^spawn/d' "$TD/gate.scenario" >"$IN/s.scen"
echo 'spawn 3 walker spawns seed 1 tick 0' >>"$IN/s.scen"
printf '0.5 0.5\n1 0 1 2\n2 0 2 2\n3.5 1.5\n' >"$IN/portals.txt"
printf '2 2\n' >"$IN/cells.txt"
printf 'a 2,2\n' >"$IN/sets.txt"
printf '2.5 2.5\n' >"$IN/points.txt"
$BIN/ffsim --summary /dev/null "$FIELD" "$IN/s.scen" >"$IN/s.trace" || {
    echo "FAIL setup: cannot make the trace"
    exit 1
}
# A stream of each kind of fault.
printf 'ff 2\n' >"$IN/magic.ff"
head -c 200 "$IN/gate.ff" >"$IN/truncated.ff"
printf 'ff 1\nsize 2 1\nchannel cost f32\nencoding text\nend\n1 x\n' >"$IN/token.ff"
printf 'ff 1\nsize 2 1\nchannel cost f32\nencoding text\nend\n1 nan\n' >"$IN/nan.ff"
printf 'ff 1\nsize 2 1\nchannel cost f32\nencoding text\nend\n1 1\0junk\n' >"$IN/nul.ff"
printf 'ff 1\nsize 99999999 99999999\nchannel cost f32\nencoding binary\nend\n' >"$IN/huge.ff"
cat "$IN/gate.ff" "$IN/gate.ff" >"$IN/two.ff"
cat "$IN/gate.ff" >"$IN/trailing.ff"
printf 'junk\n' >>"$IN/trailing.ff"
$BIN/ffbuild --text "$MAP" | $BIN/ffdir --text >"$IN/gate-text.ff"
# The direction channel is the text stream's last rows: its last value
# edited by hand (the ids left as they were).
sed '$s/[0-9]$/8/' "$IN/gate-text.ff" >"$IN/edited.ff"
cmp -s "$IN/edited.ff" "$IN/gate-text.ff" && sed -i '$s/[0-9]$/7/' "$IN/edited.ff"
# Lines with an escape sequence (ESC ] 0 ; ... BEL retitles a terminal).
ESC=$(printf '\033]0;pwned\007')
printf '1 x%s\n' "$ESC" >"$IN/esc.txt"
printf 'ffsim 1\ntick x%s\n' "$ESC" >"$IN/esc.scen"
printf '1 x\n' >"$IN/bad.txt"
printf '1 1\0junk\n' >"$IN/nul.txt"
printf '# a comment only\n' >"$IN/comments.txt"
printf '99 99\n' >"$IN/outside.txt"
printf 'ffsim 1\ntick zero\n' >"$IN/bad.scen"
printf 'ffsim 1\nticks 5\nclass w\n radius 0.3\n thresold 0.1\n' >"$IN/typo.scen"
printf 'a 1,1\nb 1;1\n' >"$IN/bad.sets"
printf '\211PNG\r\n\032\n' >"$IN/badpng.png"

# ---- the runner ----
NCASES=0
count() {  # count PROG: one more case of PROG
    eval "N_$1=\$((\${N_$1:-0} + 1))"
    NCASES=$((NCASES + 1))
}

# expect NAME STATUS PATTERN CMD: run CMD (sh -c) in the empty working
# folder, every program under $VG when set; PATTERN (grep -E) is matched
# against the one stderr line.  STATUS "pipe" means death by SIGPIPE with
# nothing on stderr.
expect() {
    name=$1 want=$2 pattern=$3
    shift 3
    prog=${name%%:*}
    count "$prog"
    line=$*
    if [ -n "$VG" ]; then
        line=$(printf '%s' "$line" | sed "s|$BIN/|$VG --log-file=$TMP/vg/%p $BIN/|g")
    fi
    rm -f "$TMP"/vg/*
    (cd "$W" && sh -c "$line") >"$TMP/out" 2>"$TMP/err"
    got=$?
    lines=$(wc -l <"$TMP/err")
    err=$(head -c 300 "$TMP/err")
    left=$(ls -A "$W")
    [ -d "$FULL" ] && [ "$MOUNTED" = 1 ] && left="$left$(ls -A "$FULL" | grep -v '^fill$')"
    report=$(cat "$TMP"/vg/* 2>/dev/null | head -n 20)
    if [ -n "$report" ]; then fail "$name" "valgrind: $report"
    elif [ "$want" = pipe ]; then
        if [ "$got" -ne 141 ]; then fail "$name" "exit $got, want death by SIGPIPE (141); stderr: $err"
        elif [ -s "$TMP/err" ]; then fail "$name" "stderr not empty: $err"
        elif [ -n "$left" ]; then fail "$name" "left behind: $left"
        else pass "$name"; fi
    elif [ "$got" -ne "$want" ]; then fail "$name" "exit $got, want $want; stderr: $err"
    elif [ -s "$TMP/out" ]; then fail "$name" "stdout not empty"
    elif [ "$lines" -ne 1 ]; then fail "$name" "want one stderr line, got $lines: $err"
    elif ! grep -Eq -- "$pattern" "$TMP/err"; then fail "$name" "stderr '$err' does not match '$pattern'"
    elif grep -q "$(printf '\033')" "$TMP/err"; then fail "$name" "a raw escape byte on stderr"
    elif [ -n "$left" ]; then fail "$name" "left behind: $left"
    else pass "$name"; fi
    rm -rf "$W" && mkdir -p "$W"
}

# A closed pipe as stdout: its read end closed before the program starts,
# so that the first write fails for sure.  With SIGPIPE ignored the write
# returns EPIPE.
closed_pipe() {  # closed_pipe ignore|default CMD
    how=$1
    shift
    printf '%s' "perl -e 'pipe(R, W) or die; close R; open(STDOUT, \">&W\") or die; close W; \$SIG{PIPE} = \"$(
        [ "$how" = ignore ] && echo IGNORE || echo DEFAULT)\"; exec(\"sh\", \"-c\", \$ARGV[0]) or die' '$*'"
}

fill_full() {  # fill the tmpfs to its last byte
    rm -f "$FULL/fill"
    dd if=/dev/zero of="$FULL/fill" bs=4096 2>/dev/null
    dd if=/dev/zero of="$FULL/fill" bs=1 oflag=append conv=notrunc 2>/dev/null
}
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$FULL" 2>/dev/null; then
    MOUNTED=1
else
    echo "# no tmpfs (not root, or mount refused): the full-filesystem cases are skipped"
fi

# input_cases PROG SLOT CMD: the file-level faults of one input slot; CMD
# has @ where the input's name goes.  EMPTY says whether an empty input is
# refused (yes) or valid (no).
input_cases() {
    prog=$1 slot=$2 empty=$3 cmd=$4
    at() { printf '%s' "$cmd" | sed "s|@|$1|g"; }
    expect "$prog: $slot: a missing file" 2 \
        "^$prog: $MISSING: cannot open: No such file or directory$" "$(at "$MISSING")"
    expect "$prog: $slot: a folder" 2 "^$prog: $IN/folder: is a folder, not a file$" \
        "$(at "$IN/folder")"
    expect "$prog: $slot: an empty name" 2 \
        "^$prog: '': cannot open: an empty name \\(name a file, or - for standard input\\)$" "$(at "''")"
    if [ "$empty" = yes ]; then
        expect "$prog: $slot: an empty file" 2 "^$prog: $IN/empty(:[0-9:]+)?: .*(empty|no )" \
            "$(at "$IN/empty")"
    fi
}

# stdin_cases PROG SLOT CMD: standard input from a folder.
stdin_cases() {
    expect "$1: $2: standard input is a folder" 2 "^$1: -: is a folder, not a file$" "$3 <$IN/folder"
}

# output_cases PROG CMD [OPT]: the output faults of a good command CMD;
# OPT (default -o) is the option naming its output file.
output_cases() {
    prog=$1 cmd=$2 opt=${3:--o}
    if [ "$opt" = -o ]; then
        expect "$prog: stdout on /dev/full" 3 "^$prog: -: write error: No space left on device$" \
            "$cmd >/dev/full"
        expect "$prog: stdout a closed pipe, SIGPIPE ignored" 3 "^$prog: -: write error: Broken pipe$" \
            "$(closed_pipe ignore "$cmd")"
        expect "$prog: stdout a closed pipe, SIGPIPE default" pipe "" "$(closed_pipe default "$cmd")"
    fi
    expect "$prog: $opt /dev/full" 3 "^$prog: /dev/full: write error: No space left on device$" \
        "$cmd $opt /dev/full"
    if [ "$MOUNTED" = 1 ]; then
        fill_full
        expect "$prog: $opt on a full filesystem" 3 \
            "^$prog: $FULL/out: write error: No space left on device$" "$cmd $opt $FULL/out"
    fi
    expect "$prog: $opt ''" 2 "^$prog: $opt '': an empty name \\(see $prog --help\\)$" "$cmd $opt ''"
    expect "$prog: $opt a folder" 2 "^$prog: $IN/folder: is a folder: name a file to write$" \
        "$cmd $opt $IN/folder"
}

# usage_cases PROG GOOD: an unknown option, an option without its value,
# one argument too many.
usage_cases() {
    prog=$1 cmd=$2 extra=${3:-}
    expect "$prog: an unknown option" 2 "^$prog: --bogus: unknown option \\(see $prog --help\\)$" \
        "$BIN/$prog --bogus"
    expect "$prog: an option without its value" 2 "^$prog: (-o|--output): needs a value \\(see $prog --help\\)$" \
        "$cmd -o"
    [ -n "$extra" ] && expect "$prog: one argument too many" 2 \
        "^$prog: '$IN/extra': one [a-zA-Z ]+ (at most|only) \\(see $prog --help\\)$" "$cmd $IN/extra"
}

# bad PROG NAME PATTERN CMD: bad input, exit 2.
bad() {
    expect "$1: $2" 2 "$3" "$4"
}

# ---- ffbuild ----
P=$BIN/ffbuild
input_cases ffbuild map yes "$P @"
stdin_cases ffbuild map "$P"
input_cases ffbuild "--goals" yes "$P --goals @ $MAP"
input_cases ffbuild "--goal-sets" yes "$P --goal-sets @ $MAP"
bad ffbuild "a ragged map" "^ffbuild: $TD/bad/ragged.map:[0-9]+(:[0-9]+)?: " "$P $TD/bad/ragged.map"
bad ffbuild "an unknown format" "^ffbuild: $IN/bad.txt:1:1: unknown map format" "$P $IN/bad.txt"
bad ffbuild "a broken PNG" "^ffbuild: $IN/badpng.png: " "$P $IN/badpng.png"
bad ffbuild "a bad stream as the map" "^ffbuild: $IN/magic.ff:1:1: bad magic" "$P $IN/magic.ff"
bad ffbuild "--goals: not numbers" "^ffbuild: $IN/bad.txt:1:3: 'x' is not a number" "$P --goals $IN/bad.txt $MAP"
bad ffbuild "--goals: a NUL byte" "^ffbuild: $IN/nul.txt:1:" "$P --goals $IN/nul.txt $MAP"
bad ffbuild "--goals: comments only" "^ffbuild: $IN/comments.txt: no goal in the file" \
    "$P --goals $IN/comments.txt $MAP"
bad ffbuild "--goals: no goal" "^ffbuild: $IN/comments.txt: no goal in the file" "$P --goals $IN/comments.txt $MAP"
bad ffbuild "--goals: outside the map" "^ffbuild: $IN/outside.txt:1: .*outside" "$P --goals $IN/outside.txt $MAP"
bad ffbuild "--goals: an escape sequence" "^ffbuild: $IN/esc.txt:1:3: .*\\\\x1b" "$P --goals $IN/esc.txt $MAP"
bad ffbuild "--goal-sets: a bad goal" "^ffbuild: $IN/bad.sets:2:" "$P --goal-sets $IN/bad.sets $MAP"
bad ffbuild "-g: outside the map" "^ffbuild: -g: goal 99,99 is outside the" "$P -g 99,99 $MAP"
bad ffbuild "--max-cells: too small" "^ffbuild: $MAP: " "$P --max-cells 4 $MAP"
printf 'close 0,0,1,1\n' >"$IN/changes.txt"
printf 'close x\n' >"$IN/bad.changes"
input_cases ffbuild "--update changes" no "$P --update @ $IN/gate0.ff"
input_cases ffbuild "--update field" yes "$P --update $IN/changes.txt @"
bad ffbuild "--update: a bad change" "^ffbuild: $IN/bad.changes:1:7: bad rectangle 'x'" \
    "$P --update $IN/bad.changes $IN/gate0.ff"
bad ffbuild "--update: bad magic" "^ffbuild: $IN/magic.ff:1:1: bad magic" "$P --update $IN/changes.txt $IN/magic.ff"
AA=$TD/anyangle
bad ffbuild "--any-angle: several open costs" \
    "^ffbuild: $AA/weighted.ffmap: --any-angle: open cells cost 1 and 2; the weighted case is not supported yet" \
    "$P --any-angle $AA/weighted.ffmap"
bad ffbuild "--any-angle: one-way cells" "^ffbuild: $TD/demo/demo.ffmap: --any-angle: the map has one-way cells" \
    "$P --any-angle $TD/demo/demo.ffmap"
bad ffbuild "--any-angle: terrain classes" "^ffbuild: $TD/movingai/arena.map: --any-angle: the map has several terrain classes" \
    "$P --any-angle -g 20,20 $TD/movingai/arena.map"
bad ffbuild "--any-angle: goal sets on one-way cells" "^ffbuild: $TD/demo/demo.ffmap: --any-angle: the map has one-way" \
    "$P --any-angle --goal-sets $TD/demo/demo.sets $TD/demo/demo.ffmap"
bad ffbuild "--any-angle with --turn-cost" "^ffbuild: --any-angle: it does not go with --turn-cost" \
    "$P --any-angle --turn-cost 1 $AA/gap.ffmap"
bad ffbuild "--any-angle with -m 4" "^ffbuild: --any-angle: it does not go with -m 4" \
    "$P --any-angle -m 4 $AA/gap.ffmap"
$P --any-angle "$AA/gap.ffmap" >"$IN/anyangle.ff"
bad ffbuild "--update: an any-angle field" \
    "^ffbuild: $IN/anyangle.ff: field 1 is an any-angle field: --update repairs 8-move and 4-move fields only" \
    "$P --update $IN/changes.txt $IN/anyangle.ff"
output_cases ffbuild "$P --any-angle $AA/gap.ffmap"
$P --any-angle "$AA/gap.ffmap" | $BIN/ffdir >"$IN/anyangle-vec.ff"
bad ffquery "--trace outside an any-angle field" "^ffquery: $IN/anyangle-vec.ff: cell 30,2 is outside the map" \
    "$BIN/ffquery --trace 30,2 $IN/anyangle-vec.ff"
bad ffquery "an any-angle field without vectors" \
    "^ffquery: $IN/anyangle.ff: the any-angle field has no vector channel: run ffdir" \
    "echo 0.5 0.5 | $BIN/ffquery $IN/anyangle.ff"
printf 'ffsim 1\ntick 0.1\nticks 5\nclass walker\n    radius 0.3\n    speed 1.4\n    accel 4\n    follow priority 0 weight 1\nend\nagent 1 walker 0.5,0.5\n' >"$IN/aa.scenario"
bad ffsim "an any-angle field without vectors" \
    "^ffsim: $IN/anyangle.ff: an any-angle field without its vector channel: run ffdir first" \
    "$BIN/ffsim $IN/anyangle.ff $IN/aa.scenario"
sed 's/^ticks 5$/ticks 5\nmove grid/' "$IN/aa.scenario" >"$IN/aa-grid.scenario"
bad ffsim "an any-angle field, cell-to-cell moves" \
    "^ffsim: $IN/aa-grid.scenario: on an any-angle field, cell-to-cell moves step by direction codes: build the field without --any-angle" \
    "$BIN/ffsim $IN/anyangle-vec.ff $IN/aa-grid.scenario"
printf 'at 2 close 0,0,1,1\n' | cat "$IN/aa.scenario" - >"$IN/aa-event.scenario"
bad ffsim "an any-angle field, map events" \
    "^ffsim: $IN/aa-event.scenario: on an any-angle field, its map events would rebuild the field" \
    "$BIN/ffsim $IN/anyangle-vec.ff $IN/aa-event.scenario"
printf 'at 2 goal walker 7,5\n' | cat "$IN/aa.scenario" - >"$IN/aa-goal.scenario"
bad ffsim "an any-angle field, goal changes" \
    "^ffsim: $IN/aa-goal.scenario: on an any-angle field, its goal changes would build fields of their own" \
    "$BIN/ffsim $IN/anyangle-vec.ff $IN/aa-goal.scenario"
sed 's/^agent 1 walker 0.5,0.5$/agent 1 walker 0.5,0.5 goal 7,5/' "$IN/aa.scenario" >"$IN/aa-own.scenario"
bad ffsim "an any-angle field, an agent's own goal" \
    "^ffsim: $IN/aa-own.scenario: on an any-angle field, an agent with a goal of its own" \
    "$BIN/ffsim $IN/anyangle-vec.ff $IN/aa-own.scenario"
output_cases ffbuild "$P $MAP"
output_cases ffbuild "$P --update $IN/changes.txt $IN/gate0.ff"
expect "ffbuild: --split ''" 2 "^ffbuild: --split '': an empty name" "$P --goal-sets $IN/sets.txt --split '' $MAP"
usage_cases ffbuild "$P $MAP" extra

# ---- ffdir ----
P=$BIN/ffdir
input_cases ffdir stream yes "$P @"
stdin_cases ffdir stream "$P"
bad ffdir "bad magic" "^ffdir: $IN/magic.ff:1:1: bad magic" "$P $IN/magic.ff"
bad ffdir "a truncated payload" "^ffdir: $IN/truncated.ff: .*truncated" "$P $IN/truncated.ff"
bad ffdir "a token that is no number" "^ffdir: $IN/token.ff:6:3: channel 'cost': 'x' is not a f32 value" "$P $IN/token.ff"
bad ffdir "NaN" "^ffdir: $IN/nan.ff:6:3: .*nan" "$P $IN/nan.ff"
bad ffdir "a NUL byte in a token" "^ffdir: $IN/nul.ff:6:4: channel 'cost': a NUL byte inside a value" "$P $IN/nul.ff"
bad ffdir "a size over the cell limit" "^ffdir: $IN/huge.ff:2: .*cell" "$P $IN/huge.ff"
bad ffdir "a hand-edited direction" "^ffdir: $IN/edited.ff: the direction channel does not match" "$P $IN/edited.ff"
# On stdout the fields before a bad one have gone out (a stream is
# streamed); with -o nothing is left.
bad ffdir "trailing junk" "^ffdir: $IN/trailing.ff:[0-9]+:1: bad magic" "$P -o out.ff $IN/trailing.ff"
bad ffdir "no distance" "^ffdir: $IN/token.ff" "$P $IN/token.ff"
output_cases ffdir "$P $IN/gate0.ff"
usage_cases ffdir "$P $IN/gate0.ff" extra

# ---- ffquery ----
P=$BIN/ffquery
input_cases ffquery field yes "$P --trace 2,2 @"
input_cases ffquery "--map" yes "$P --trace 2,2 --map @ $FIELD"
input_cases ffquery "--list" yes "$P --list @"
stdin_cases ffquery positions "$P $FIELD"
stdin_cases ffquery "--check cells" "$P --check $FIELD"
bad ffquery "bad magic" "^ffquery: $IN/magic.ff:1:1: bad magic" "$P --trace 2,2 $IN/magic.ff"
bad ffquery "--list: bad magic" "^ffquery: $IN/magic.ff:1:1: bad magic" "$P --list $IN/magic.ff"
bad ffquery "a hand-edited direction" "^ffquery: $IN/edited.ff: the direction channel does not match" \
    "$P --trace 2,2 $IN/edited.ff"
bad ffquery "two fields" "^ffquery: $IN/two.ff: the stream holds 2 fields" "$P --trace 2,2 $IN/two.ff"
bad ffquery "no direction" "^ffquery: $IN/gate0.ff: the field has no direction channel" "$P --trace 2,2 $IN/gate0.ff"
bad ffquery "--heading: a field without turn costs" \
    "^ffquery: $FIELD: --heading: the field has no headings \\(build it with ffbuild --turn-cost\\)$" \
    "$P --trace 2,2 --heading 2 $FIELD"
bad ffquery "--heading: not a heading" "^ffquery: --heading '9': not a heading " \
    "$P --trace 2,2 --heading 9 $IN/turn.ff"
bad ffquery "another map" "^ffquery: $FIELD: map id" "$P --trace 2,2 --map $TD/demo/tiny.ffmap $FIELD"
bad ffquery "positions: not numbers" "^ffquery: -:1:3: " "$P $FIELD <$IN/bad.txt"
bad ffquery "positions: a NUL byte" "^ffquery: -:1:" "$P $FIELD <$IN/nul.txt"
bad ffquery "positions: an escape sequence" "^ffquery: -:1:3: .*\\\\x1b" "$P $FIELD <$IN/esc.txt"
bad ffquery "--check: not cells" "^ffquery: -:1:" "$P --check $FIELD <$IN/bad.txt"
bad ffquery "--trace outside" "^ffquery: .*outside" "$P --trace 99,99 $FIELD"
output_cases_q() {
    cmd=$1
    expect "ffquery: stdout on /dev/full" 3 "^ffquery: -: write error: No space left on device$" "$cmd >/dev/full"
    expect "ffquery: stdout a closed pipe, SIGPIPE ignored" 3 "^ffquery: -: write error: Broken pipe$" \
        "$(closed_pipe ignore "$cmd")"
    expect "ffquery: stdout a closed pipe, SIGPIPE default" pipe "" "$(closed_pipe default "$cmd")"
}
output_cases_q "$P --trace 2,2 $FIELD"
expect "ffquery: --list: stdout on /dev/full" 3 "^ffquery: -: write error: No space left on device$" \
    "$P --list $FIELD >/dev/full"
expect "ffquery: --check: stdout on /dev/full" 3 "^ffquery: -: write error: No space left on device$" \
    "printf '0 0\\n' | $P --check $FIELD >/dev/full"
expect "ffquery: positions: stdout on /dev/full" 3 "^ffquery: -: write error: No space left on device$" \
    "$P $FIELD <$IN/points.txt >/dev/full"
expect "ffquery: positions: -o /dev/full" 3 "^ffquery: /dev/full: write error: No space left on device$" \
    "$P -o /dev/full $FIELD <$IN/points.txt"
expect "ffquery: --check: -o /dev/full" 3 "^ffquery: /dev/full: write error: No space left on device$" \
    "printf '0 0\\n' | $P --check -o /dev/full $FIELD"
expect "ffquery: --trace: -o /dev/full" 3 "^ffquery: /dev/full: write error: No space left on device$" \
    "$P --trace 2,2 -o /dev/full $FIELD"
expect "ffquery: an unknown option" 2 "^ffquery: --bogus: unknown option \\(see ffquery --help\\)$" "$P --bogus"
expect "ffquery: an option without its value" 2 "^ffquery: --trace: needs a value \\(see ffquery --help\\)$" "$P --trace"
expect "ffquery: one argument too many" 2 "^ffquery: '$IN/extra': one field at most \\(see ffquery --help\\)$" \
    "$P --trace 2,2 $FIELD $IN/extra"

# ---- ffpull ----
P=$BIN/ffpull
input_cases ffpull field yes "$P @ <$IN/path.txt"
stdin_cases ffpull path "$P $FIELD"
bad ffpull "bad magic" "^ffpull: $IN/magic.ff:1:1: bad magic" "$P $IN/magic.ff <$IN/path.txt"
bad ffpull "a hand-edited direction" "^ffpull: $IN/edited.ff: the direction channel does not match" \
    "$P $IN/edited.ff <$IN/path.txt"
bad ffpull "path: not numbers" "^ffpull: -:1:3: " "$P $FIELD <$IN/bad.txt"
bad ffpull "path: a NUL byte" "^ffpull: -:1:" "$P $FIELD <$IN/nul.txt"
bad ffpull "path: an escape sequence" "^ffpull: -:1:3: .*\\\\x1b" "$P $FIELD <$IN/esc.txt"
bad ffpull "path: outside the map" "^ffpull: -:1: " "$P $FIELD <$IN/outside.txt"
output_cases ffpull "$P $FIELD <$IN/path.txt"
usage_cases ffpull "$P $FIELD $IN/path.txt" extra

# ---- fffunnel ----
P=$BIN/fffunnel
input_cases fffunnel corridor yes "$P @"
input_cases fffunnel "--cells" yes "$P --cells @ <$IN/path.txt"
stdin_cases fffunnel corridor "$P"
bad fffunnel "corridor: not numbers" "^fffunnel: $IN/bad.txt:1:3: " "$P $IN/bad.txt"
bad fffunnel "corridor: a NUL byte" "^fffunnel: $IN/nul.txt:1:" "$P $IN/nul.txt"
bad fffunnel "corridor: an escape sequence" "^fffunnel: $IN/esc.txt:1:3: .*\\\\x1b" "$P $IN/esc.txt"
bad fffunnel "--cells: bad magic" "^fffunnel: $IN/magic.ff:1:1: bad magic" "$P --cells $IN/magic.ff <$IN/path.txt"
bad fffunnel "--cells: a hand-edited direction" "^fffunnel: $IN/edited.ff: the direction channel does not match" \
    "$P --cells $IN/edited.ff <$IN/path.txt"
bad fffunnel "--cells: path not numbers" "^fffunnel: -:1:3: " "$P --cells $FIELD <$IN/bad.txt"
output_cases fffunnel "$P $IN/portals.txt"
usage_cases fffunnel "$P $IN/portals.txt" extra

# ---- ffpng ----
P=$BIN/ffpng
input_cases ffpng stream yes "$P @"
input_cases ffpng "--path" no "$P --path @ $FIELD"
input_cases ffpng "--trace" no "$P --trace @ $FIELD"
input_cases ffpng "--points" no "$P --points @ $FIELD"
stdin_cases ffpng stream "$P"
bad ffpng "bad magic" "^ffpng: $IN/magic.ff:1:1: bad magic" "$P $IN/magic.ff"
bad ffpng "a hand-edited direction" "^ffpng: $IN/edited.ff: the direction channel does not match" "$P $IN/edited.ff"
bad ffpng "two fields" "^ffpng: $IN/two.ff: the stream holds 2 fields" "$P $IN/two.ff"
bad ffpng "--path: not numbers" "^ffpng: $IN/bad.txt:1:3: " "$P --path $IN/bad.txt $FIELD"
bad ffpng "--path: a NUL byte" "^ffpng: $IN/nul.txt:1:" "$P --path $IN/nul.txt $FIELD"
bad ffpng "--points: an escape sequence" "^ffpng: $IN/esc.txt:1:3: .*\\\\x1b" "$P --points $IN/esc.txt $FIELD"
bad ffpng "--trace: not a trace" "^ffpng: $IN/bad.txt:1" "$P --trace $IN/bad.txt $FIELD"
output_cases ffpng "$P $FIELD"
output_cases ffpng "$P --animate --trace $IN/s.trace $FIELD"
bad ffpng "--heading: a field without turn costs" \
    "^ffpng: $FIELD: --heading: the field has no headings \\(build it with ffbuild --turn-cost\\)$" \
    "$P --heading 2 $FIELD"
bad ffpng "--heading: not a heading" \
    "^ffpng: --heading '8': not a heading \\(0 to 7, or N E S W NE SE SW NW\\) \\(see ffpng --help\\)$" \
    "$P --heading 8 $IN/turn.ff"
bad ffpng "--heading: not a heading's name" "^ffpng: --heading 'NNE': not a heading " \
    "$P --heading NNE $IN/turn.ff"
bad ffpng "--heading: a layer without headings" \
    "^ffpng: --heading: the cost layer is the same for every heading " \
    "$P -l cost --heading N $IN/turn.ff"
expect "ffpng: --list: stdout on /dev/full" 3 "^ffpng: -: write error: No space left on device$" \
    "$P --list $FIELD >/dev/full"
usage_cases ffpng "$P $FIELD" extra

# ---- ffinfo ----
P=$BIN/ffinfo
input_cases ffinfo stream yes "$P @"
stdin_cases ffinfo stream "$P"
input_cases ffinfo "--list stream" yes "$P --list @"
bad ffinfo "bad magic" "^ffinfo: $IN/magic.ff:1:1: bad magic" "$P $IN/magic.ff"
bad ffinfo "a truncated payload" "^ffinfo: $IN/truncated.ff: .*truncated" "$P $IN/truncated.ff"
bad ffinfo "a token that is no number" "^ffinfo: $IN/token.ff:6:3: channel 'cost': 'x' is not a f32 value" "$P $IN/token.ff"
bad ffinfo "NaN" "^ffinfo: $IN/nan.ff:6:3: .*nan" "$P $IN/nan.ff"
bad ffinfo "a size over the cell limit" "^ffinfo: $IN/huge.ff:2: .*cell" "$P $IN/huge.ff"
bad ffinfo "a hand-edited direction" "^ffinfo: $IN/edited.ff: the direction channel does not match" "$P $IN/edited.ff"
bad ffinfo "trailing junk" "^ffinfo: $IN/trailing.ff:[0-9]+:1: bad magic" "$P -o out.txt $IN/trailing.ff"
bad ffinfo "--name: no such field" "^ffinfo: $IN/two.ff: no field named 'x'" "$P --name x $IN/two.ff"
bad ffinfo "--max-cells: too small" "^ffinfo: $IN/gate0.ff:[0-9]+: .*cell" "$P --max-cells 4 $IN/gate0.ff"
output_cases ffinfo "$P $IN/gate0.ff"
output_cases ffinfo "$P --list $IN/gate0.ff"
usage_cases ffinfo "$P $IN/gate0.ff" extra

# ---- ffexport ----
P=$BIN/ffexport
input_cases ffexport stream yes "$P @"
stdin_cases ffexport stream "$P"
input_cases ffexport "--list stream" yes "$P --list @"
bad ffexport "bad magic" "^ffexport: $IN/magic.ff:1:1: bad magic" "$P $IN/magic.ff"
bad ffexport "a truncated payload" "^ffexport: $IN/truncated.ff: .*truncated" "$P $IN/truncated.ff"
bad ffexport "a token that is no number" "^ffexport: $IN/token.ff:6:3: channel 'cost': 'x' is not a f32 value" "$P $IN/token.ff"
bad ffexport "NaN" "^ffexport: $IN/nan.ff:6:3: .*nan" "$P $IN/nan.ff"
bad ffexport "a size over the cell limit" "^ffexport: $IN/huge.ff:2: .*cell" "$P $IN/huge.ff"
bad ffexport "a hand-edited direction" "^ffexport: $IN/edited.ff: the direction channel does not match" "$P -c direction $IN/edited.ff"
bad ffexport "trailing junk" "^ffexport: $IN/trailing.ff:[0-9]+:1: bad magic" "$P -o out.npy $IN/trailing.ff"
bad ffexport "two fields" "^ffexport: $IN/two.ff: the stream holds 2 fields" "$P -o out.npy $IN/two.ff"
bad ffexport "--name: no such field" "^ffexport: $IN/two.ff: no field named 'x'" "$P --name x $IN/two.ff"
bad ffexport "no such channel" "^ffexport: $IN/gate0.ff: no channel 'x' \\(channels: " "$P -c x -o out.csv $IN/gate0.ff"
bad ffexport "no distance channel" "^ffexport: $IN/token.ff" "$P $IN/token.ff"
expect "ffexport: -o with no format's extension" 2 "^ffexport: -o 'out.txt': the name ends in none of .npy, .csv, .raw" "$P -o out.txt $IN/gate0.ff"
expect "ffexport: two formats" 2 "^ffexport: --csv, --raw: give one format \\(see ffexport --help\\)$" "$P --csv --raw $IN/gate0.ff"
output_cases ffexport "$P --npy $IN/gate0.ff"
output_cases ffexport "$P --csv $IN/gate0.ff"
output_cases ffexport "$P --raw -c cost $IN/gate0.ff"
output_cases ffexport "$P --list $IN/gate0.ff"
usage_cases ffexport "$P $IN/gate0.ff" extra

# ---- ffsim ----
P=$BIN/ffsim
S="--summary sum.txt"
input_cases ffsim field yes "$P $S @ $IN/s.scen"
input_cases ffsim scenario yes "$P $S $FIELD @"
stdin_cases ffsim scenario "$P $S $FIELD -"
bad ffsim "bad magic" "^ffsim: $IN/magic.ff:1:1: bad magic" "$P $S $IN/magic.ff $IN/s.scen"
bad ffsim "a hand-edited direction" "^ffsim: $IN/edited.ff: the direction channel does not match" \
    "$P $S $IN/edited.ff $IN/s.scen"
bad ffsim "two fields" "^ffsim: $IN/two.ff: the stream holds 2 fields" "$P $S $IN/two.ff $IN/s.scen"
bad ffsim "trailing junk" "^ffsim: $IN/trailing.ff:[0-9]+:1: bad magic" "$P $S $IN/trailing.ff $IN/s.scen"
bad ffsim "no direction" "^ffsim: $IN/gate0.ff: the stream has no direction channel" "$P $S $IN/gate0.ff $IN/s.scen"
bad ffsim "scenario: a bad value" "^ffsim: $IN/bad.scen:2:6: " "$P $S $FIELD $IN/bad.scen"
bad ffsim "scenario: a misspelt keyword" \
    "^ffsim: $IN/typo.scen:5:2: unknown behaviour 'thresold' \\(did you mean 'threshold'\\?\\)$" \
    "$P $S $FIELD $IN/typo.scen"
bad ffsim "scenario: an escape sequence" "^ffsim: $IN/esc.scen:2:6: .*\\\\x1b" "$P $S $FIELD $IN/esc.scen"
printf 'ffsim 1\nstuck-after 0\n' >"$IN/stuck0.scen"
printf 'ffsim 1\nstuck-after -2\n' >"$IN/stuckneg.scen"
printf 'ffsim 1\nstuck-after soon\n' >"$IN/stuckword.scen"
printf 'ffsim 1\nstuck-after 5\nstuck-after 6\n' >"$IN/stucktwice.scen"
bad ffsim "scenario: stuck-after 0" "^ffsim: $IN/stuck0.scen:2:13: stuck-after " "$P $S $FIELD $IN/stuck0.scen"
bad ffsim "scenario: stuck-after below 0" "^ffsim: $IN/stuckneg.scen:2:13: stuck-after " "$P $S $FIELD $IN/stuckneg.scen"
bad ffsim "scenario: stuck-after not a number" "^ffsim: $IN/stuckword.scen:2:13: stuck-after " \
    "$P $S $FIELD $IN/stuckword.scen"
bad ffsim "scenario: stuck-after twice" "^ffsim: $IN/stucktwice.scen:3:1: 'stuck-after' given twice" "$P $S $FIELD $IN/stucktwice.scen"
bad ffsim "scenario: a NUL byte" "^ffsim: $IN/nul.txt:1:" "$P $S $FIELD $IN/nul.txt"
# Goal changes (at T goal): each refusal at its line and column.
for c in 'nobody 20,10' 'agent 99 20,10' 'walker 15,1' 'walker 40,10' 'walker 20,10 20,10' \
         'agent 0 20,10 21,10' 'walker 20'; do
    printf 'at 3 goal %s\n' "$c" | cat "$IN/s.scen" - >"$IN/goal-$(printf '%s' "$c" | tr ' ,' '__').scen"
done
L=$(($(wc -l <"$IN/s.scen") + 1))
bad ffsim "scenario: a goal change of an unknown class" \
    "^ffsim: $IN/goal-nobody_20_10.scen:$L:11: unknown class 'nobody'$" "$P $S $FIELD $IN/goal-nobody_20_10.scen"
bad ffsim "scenario: a goal change of an unknown agent" \
    "^ffsim: $IN/goal-agent_99_20_10.scen:$L:17: unknown agent 99$" "$P $S $FIELD $IN/goal-agent_99_20_10.scen"
bad ffsim "scenario: a goal change onto a wall" \
    "^ffsim: $IN/goal-walker_15_1.scen:$L:18: goal 15,1 is on a wall$" "$P $S $FIELD $IN/goal-walker_15_1.scen"
bad ffsim "scenario: a goal change outside the map" \
    "^ffsim: $IN/goal-walker_40_10.scen:$L:18: goal 40,10 is outside the map \\(32x21 cells\\)$" \
    "$P $S $FIELD $IN/goal-walker_40_10.scen"
bad ffsim "scenario: a goal change's cell twice" \
    "^ffsim: $IN/goal-walker_20_10_20_10.scen:$L:24: goal 20,10 given twice$" \
    "$P $S $FIELD $IN/goal-walker_20_10_20_10.scen"
bad ffsim "scenario: two goals of one agent" \
    "^ffsim: $IN/goal-agent_0_20_10_21_10.scen:$L:25: an agent has one goal cell$" \
    "$P $S $FIELD $IN/goal-agent_0_20_10_21_10.scen"
bad ffsim "scenario: a goal change's cell not X,Y" \
    "^ffsim: $IN/goal-walker_20.scen:$L:18: goal '20' is not one cell X,Y \\(whole numbers\\)$" \
    "$P $S $FIELD $IN/goal-walker_20.scen"
for t in 0 100000001 soon; do
    printf 'at %s goal walker 20,10\n' "$t" | cat "$IN/s.scen" - >"$IN/goal-tick-$t.scen"
    bad ffsim "scenario: a goal change at tick $t" \
        "^ffsim: $IN/goal-tick-$t.scen:$L:4: event tick '$t' is not an integer in 1..100000000$" \
        "$P $S $FIELD $IN/goal-tick-$t.scen"
done
printf 'goal-change wait\n' | cat "$IN/s.scen" - >"$IN/goal-change.scen"
bad ffsim "scenario: goal-change with another word" \
    "^ffsim: $IN/goal-change.scen:$L:13: goal-change 'wait' \\(keep or stop\\)$" "$P $S $FIELD $IN/goal-change.scen"
# Angular steering (issue 31): angular-accel over 0, face a point in the map.
cls='ffsim 1\nticks 1\nclass a\nradius 0.3\nspeed 1\n'
printf "${cls}angular-accel 0\n" >"$IN/aa0.scen"
printf "${cls}angular-accel -90\n" >"$IN/aaneg.scen"
printf "${cls}angular-accel fast\n" >"$IN/aaword.scen"
printf "${cls}face\n" >"$IN/facenone.scen"
printf "${cls}face priority 1\n" >"$IN/faceword.scen"
printf "${cls}face 99,5\n" >"$IN/faceout.scen"
printf "${cls}face 5 -0.5\n" >"$IN/faceneg.scen"
bad ffsim "scenario: angular-accel 0" \
    "^ffsim: $IN/aa0.scen:6:15: angular-accel 0 must be a number from 0 \\(excluded\\) to 1e12$" "$P $S $FIELD $IN/aa0.scen"
bad ffsim "scenario: angular-accel below 0" "^ffsim: $IN/aaneg.scen:6:15: angular-accel -90 must be " \
    "$P $S $FIELD $IN/aaneg.scen"
bad ffsim "scenario: angular-accel not a number" "^ffsim: $IN/aaword.scen:6:15: angular-accel 'fast' " \
    "$P $S $FIELD $IN/aaword.scen"
bad ffsim "scenario: face without a point" "^ffsim: $IN/facenone.scen:6:1: face needs a point X,Y or X Y \\(world units\\)$" \
    "$P $S $FIELD $IN/facenone.scen"
bad ffsim "scenario: face with a word for a point" "^ffsim: $IN/faceword.scen:6:6: face needs a point" \
    "$P $S $FIELD $IN/faceword.scen"
bad ffsim "scenario: face outside the map" "^ffsim: $IN/faceout.scen:6:6: face 99,5 is outside the map \\(0,0 to [0-9]+,[0-9]+\\)$" \
    "$P $S $FIELD $IN/faceout.scen"
bad ffsim "scenario: face above the map" "^ffsim: $IN/faceneg.scen:6:6: face 5 -0.5 is outside the map" \
    "$P $S $FIELD $IN/faceneg.scen"
bad ffsim "fields over --max-memory" \
    "^ffsim: $IN/s.scen: the run would build [0-9]+ fields of [0-9]+x[0-9]+ cells \\(stream 1, profiles [0-9]+\\): [0-9]+ cells, [0-9]+ bytes \\(23 a cell\\), over --max-memory 1000$" \
    "$P $S --max-memory 1000 $FIELD $IN/s.scen"
bad ffsim "a stream over --max-cells" "^ffsim: $FIELD:2: size [0-9]+ x [0-9]+ is more than 10 cells$" "$P $S --max-cells 10 $FIELD $IN/s.scen"
expect "ffsim: --max-cells 0" 2 "^ffsim: --max-cells '0': not a whole number 1 to 4294967295 \\(see ffsim --help\\)$" \
    "$P --max-cells 0 $FIELD $IN/s.scen"
output_cases ffsim "$P $S $FIELD $IN/s.scen"
output_cases ffsim "$P -o trace.txt $FIELD $IN/s.scen" --summary
expect "ffsim: an unknown option" 2 "^ffsim: --bogus: unknown option \\(see ffsim --help\\)$" "$P --bogus"
expect "ffsim: an option without its value" 2 "^ffsim: --summary: needs a value \\(see ffsim --help\\)$" \
    "$P $FIELD $IN/s.scen --summary"
expect "ffsim: one argument too many" 2 "^ffsim: FIELD SCENARIO: want the two" "$P $FIELD $IN/s.scen $IN/extra"

# issue 33, part A
# An output in a folder that does not exist is bad input, as a missing
# input is (item 15).
NOFOLDER=$IN/nofolder
for c in "ffbuild|$BIN/ffbuild -o $NOFOLDER/o $MAP" "ffdir|$BIN/ffdir -o $NOFOLDER/o $IN/gate0.ff" \
    "ffquery|$BIN/ffquery --trace 2,2 -o $NOFOLDER/o $FIELD" "ffpull|$BIN/ffpull -o $NOFOLDER/o $FIELD <$IN/path.txt" \
    "fffunnel|$BIN/fffunnel -o $NOFOLDER/o $IN/portals.txt" "ffpng|$BIN/ffpng -o $NOFOLDER/o $FIELD" \
    "ffsim|$BIN/ffsim -o $NOFOLDER/o --summary sum.txt $FIELD $IN/s.scen" \
    "ffsim|$BIN/ffsim -o trace.txt --summary $NOFOLDER/o $FIELD $IN/s.scen" \
    "ffinfo|$BIN/ffinfo -o $NOFOLDER/o $FIELD" "ffexport|$BIN/ffexport -o $NOFOLDER/o.npy $FIELD"; do
    prog=${c%%|*}
    expect "$prog: an output in a missing folder" 2 \
        "^$prog: $NOFOLDER/o(\\.npy)?: cannot create a file beside it: No such file or directory$" "${c#*|}"
done
# -o and --summary naming one file: the same name, another path to it, a
# hard link (item 19).  Nothing is written.
expect "ffsim: -o and --summary the same name" 2 "^ffsim: --summary 'out.txt': the file -o writes the trace to " \
    "$BIN/ffsim -o out.txt --summary out.txt $FIELD $IN/s.scen"
expect "ffsim: -o and --summary one file by two paths" 2 "^ffsim: --summary '\\./out.txt': the file -o writes the trace to " \
    "$BIN/ffsim -o out.txt --summary ./out.txt $FIELD $IN/s.scen"
echo old >"$IN/linked.txt"
ln -f "$IN/linked.txt" "$IN/link2.txt"
expect "ffsim: -o and --summary two links of one file" 2 "^ffsim: --summary '$IN/link2.txt': the file -o writes the trace to " \
    "$BIN/ffsim -o $IN/linked.txt --summary $IN/link2.txt $FIELD $IN/s.scen"
check "ffsim: -o and --summary two links of one file: the file untouched" "$(cat "$IN/linked.txt")" = old
rm -f "$IN/linked.txt" "$IN/link2.txt"
# A tileset read from a file takes no tiles in the map (its tiles may be
# those of other names of the file, item 8).
cp "$TD/tiled/hall.tsx" "$IN/"
sed 's|<tileset firstgid="1" source="hall.tsx"/>|<tileset firstgid="1" source="hall.tsx"><tile id="1"/></tileset>|' \
    "$TD/tiled/hall-csv.tmx" >"$IN/inline.tmx"
bad ffbuild "a tile in the map for an external tileset" \
    "^ffbuild: $IN/inline.tmx:3: tile 1 in the map for tileset 'hall', which is read from a file$" "$BIN/ffbuild $IN/inline.tmx"
# A legal name of 250 bytes is written (its temporary name would be 258).
LONG=$(printf '%0250d' 0)
for c in "ffbuild|$BIN/ffbuild -o $LONG $MAP" "ffsim|$BIN/ffsim -o $LONG --summary /dev/null $FIELD $IN/s.scen"; do
    prog=${c%%|*}
    count "$prog"
    (cd "$W" && sh -c "${c#*|}") >"$TMP/out" 2>"$TMP/err"
    got=$?
    check "$prog: -o a name of 250 bytes (exit $got: $(head -c 200 "$TMP/err"))" "$got" -eq 0 -a -s "$W/$LONG" \
        -a "$(ls -A "$W" | wc -l)" -eq 1
    rm -rf "$W" && mkdir -p "$W"
done

# issue 33, part B
# Special files: each input slot named as a FIFO (with no writer: it must
# not hang), a device and a /proc file is refused, exit 2, unread.
mkfifo "$IN/fifo"
special_cases() {  # special_cases PROG SLOT CMD (@ where the input's name goes)
    prog=$1 slot=$2 cmd=$3
    for what in "fifo|a FIFO" "/dev/zero|a device" "/proc/self/status|a /proc or /sys file"; do
        file=${what%%|*} kind=${what#*|}
        [ "$file" = fifo ] && file=$IN/fifo
        expect "$prog: $slot: $kind" 2 "^$prog: $file: not a regular file \\($kind\\)$" \
            "timeout 60 $(printf '%s' "$cmd" | sed "s|@|$file|g")"
    done
}
special_cases ffbuild map "$BIN/ffbuild @"
special_cases ffbuild "--goals" "$BIN/ffbuild --goals @ $MAP"
special_cases ffbuild "--goal-sets" "$BIN/ffbuild --goal-sets @ $MAP"
special_cases ffbuild "--update changes" "$BIN/ffbuild --update @ $IN/gate0.ff"
special_cases ffbuild "--update field" "$BIN/ffbuild --update $IN/changes.txt @"
special_cases ffdir stream "$BIN/ffdir @"
special_cases ffquery field "$BIN/ffquery --trace 2,2 @"
special_cases ffquery "--map" "$BIN/ffquery --trace 2,2 --map @ $FIELD"
special_cases ffpull field "$BIN/ffpull @ <$IN/path.txt"
special_cases fffunnel corridor "$BIN/fffunnel @"
special_cases fffunnel "--cells" "$BIN/fffunnel --cells @ <$IN/path.txt"
special_cases ffpng stream "$BIN/ffpng @"
special_cases ffpng "--trace" "$BIN/ffpng --trace @ $FIELD"
special_cases ffinfo stream "$BIN/ffinfo @"
special_cases ffexport stream "$BIN/ffexport @"
special_cases ffsim field "$BIN/ffsim --summary sum.txt @ $IN/s.scen"
special_cases ffsim scenario "$BIN/ffsim --summary sum.txt $FIELD @"
# Named by a map or a scenario: an external tileset, a MAPF .scen file.
sed 's|"hall.tsj"|"fifo"|' "$TD/tiled/hall-zlib.tmj" >"$IN/fifo.tmj"
sed 's|"hall.tsj"|"/proc/self/status"|' "$TD/tiled/hall-zlib.tmj" >"$IN/proc.tmj"
bad ffbuild "a FIFO as a tileset" \
    "^ffbuild: $IN/fifo.tmj(:[0-9]+)?: external tileset 'fifo': $IN/fifo: not a regular file \\(a FIFO\\)$" \
    "timeout 60 $BIN/ffbuild $IN/fifo.tmj"
bad ffbuild "a /proc file as a tileset" \
    "^ffbuild: $IN/proc.tmj(:[0-9]+)?: external tileset '/proc/self/status': /proc/self/status: not a regular file" \
    "timeout 60 $BIN/ffbuild $IN/proc.tmj"
printf 'ffsim 1\nticks 5\nclass w\n radius 0.3\n speed 1\n follow\nend\nspawn 2 w scen fifo\n' >"$IN/fifo.scen"
bad ffsim "a FIFO as a .scen file" \
    "^ffsim: $IN/fifo.scen:8:[0-9]+: $IN/fifo: not a regular file \\(a FIFO\\)$" \
    "timeout 60 $BIN/ffsim --summary sum.txt $FIELD $IN/fifo.scen"

# Reads bounded before they are parsed: a map larger than any map could be
# is refused by its size, unread (a 4 GB sparse file); bytes that begin no
# map format stop the read (a pipe of zeros); header lines are refused
# whole when longer than the cap or holding a NUL; goal-set lines capped.
truncate -s 4G "$IN/sparse.map" 2>/dev/null &&
    bad ffbuild "a 4 GB sparse map" \
        "^ffbuild: $IN/sparse.map: 4294967296 bytes, refused unread: larger than any map" \
        "timeout 10 $BIN/ffbuild $IN/sparse.map"
rm -f "$IN/sparse.map"
bad ffbuild "a pipe of zeros as the map" "^ffbuild: -:1:1: unknown map format" \
    "head -c 1000000000 /dev/zero | timeout 10 $BIN/ffbuild"
printf 'type octile\nheight 1\0junk\nwidth 1\nmap\n.\n' >"$IN/nul-height.map"
printf 'type octile\nheight 1\nwidth 1\nmap\0junk\n.\n' >"$IN/nul-map.map"
printf 'type octile\nwidth 3%130s garbage\nheight 1\nmap\n...\n' '' >"$IN/long-header.map"
bad ffbuild "a NUL in 'height'" "^ffbuild: $IN/nul-height.map:2:9: NUL byte in a header line$" \
    "$BIN/ffbuild -g 0,0 $IN/nul-height.map"
bad ffbuild "a NUL in 'map'" "^ffbuild: $IN/nul-map.map:4:4: NUL byte in a header line$" \
    "$BIN/ffbuild -g 0,0 $IN/nul-map.map"
bad ffbuild "a header line over 127 bytes" \
    "^ffbuild: $IN/long-header.map:2:128: header line longer than 127 bytes$" \
    "$BIN/ffbuild -g 0,0 $IN/long-header.map"
awk 'BEGIN { s = "a"; for (i = 0; i < 1100; i++) s = s " 1,1"; print s }' >"$IN/long.sets"
bad ffbuild "--goal-sets: a line over 4,095 bytes" \
    "^ffbuild: $IN/long.sets:1: line longer than 4095 bytes$" "$BIN/ffbuild --goal-sets $IN/long.sets $MAP"
bad ffbuild "--goal-sets: a pipe of zeros" "^ffbuild: -:1: line longer than 4095 bytes$" \
    "head -c 1000000000 /dev/zero | timeout 10 $BIN/ffbuild --goal-sets - $MAP"
# Every text reader stops at 4,095 bytes a line, a pipe of zeros included.
for what in "ffpull|$BIN/ffpull $FIELD" "fffunnel|$BIN/fffunnel" "ffquery|$BIN/ffquery $FIELD" \
    "ffbuild --goals|$BIN/ffbuild --goals - $MAP" "ffbuild --update|$BIN/ffbuild --update - $IN/gate0.ff" \
    "ffsim scenario|$BIN/ffsim --summary sum.txt $FIELD -"; do
    prog=${what%%|*}
    bad "${prog%% *}" "$prog: a pipe of zeros" "^${prog%% *}: -:1(:[0-9]+)?: line longer than 4095 bytes$" \
        "head -c 1000000000 /dev/zero | timeout 10 ${what#*|}"
done

# A radius far larger than its map: every box a change walks is clipped to
# the map (it walked (2 reach + 1)^2 cells, 4e12 steps).
printf 'ff 1\nsize 3 1\nradius 1e6\ngoal 0 0\nchannel cost f32\nencoding text\nend\n1 1 1\n' |
    $BIN/ffbuild >"$IN/wide.ff"
printf 'close 2,0,2,0\n' >"$IN/close20.txt"
bad ffbuild "--update: a radius of 1e6 on 3 x 1 cells" \
    "^ffbuild: $IN/close20.txt:1:7: the change closes goal 0,0 \\(by the clearance radius\\)$" \
    "timeout 10 $BIN/ffbuild --update $IN/close20.txt $IN/wide.ff"

# One spawn line 10,000 times is one spawn cell: the crowding cap holds.
s=$(grep -m1 '^spawn' "$IN/gate-text.ff")
awk -v s="$s" '/^spawn/ && !done { for (i = 0; i < 10000; i++) print s; done = 1; next }
               /^spawn/ { next } { print }' "$IN/gate-text.ff" >"$IN/dupspawn.ff"
printf 'ffsim 1\ntick 0.1\nticks 10\nclass w\n radius 0.3\n speed 1\n follow\nend\nspawn 10000 w spawns seed 1 tick 0\n' \
    >"$IN/dupspawn.scen"
bad ffsim "10,000 repeats of one spawn line" \
    "^ffsim: $IN/dupspawn.scen:9:7: 10000 agents of radius 0.3 cannot fit in the spawn cells \\(1 square units hold 12 at most\\)$" \
    "timeout 10 $BIN/ffsim --summary sum.txt $IN/dupspawn.ff $IN/dupspawn.scen"

# Ranges (ranges.h, ff(5) and ffsim(5) LIMITS): the Tiled map property
# 'cell', a scenario's tick, --png-scale (scale x grey 255 a float), a
# stream's radius and turn cost.
for v in 1e-320 1e300; do
    sed "/\"name\": *\"cell\"/,/value/ s/\"value\": *[0-9.e+-]*/\"value\": $v/" \
        "$TD/tiled/classes.tmj" >"$IN/cell$v.tmj"
    bad ffbuild "Tiled property cell $v" \
        "^ffbuild: $IN/cell$v.tmj: map property 'cell' \\(world units per cell\\) must be a number from 1e-6 to 1e6$" \
        "$BIN/ffbuild $IN/cell$v.tmj"
done
cp "$TD/tiled/hall.tsx" "$IN/"
awk '/<map / && !done { print; print " <properties>\n  <property name=\"cell\" type=\"float\" value=\"1e-320\"/>\n </properties>"; done = 1; next }
     { print }' "$TD/tiled/hall-csv.tmx" >"$IN/cell.tmx"
bad ffbuild "Tiled property cell 1e-320 (XML)" \
    "^ffbuild: $IN/cell.tmx:4: map property 'cell' \\(world units per cell\\) must be a number from 1e-6 to 1e6$" \
    "$BIN/ffbuild $IN/cell.tmx"
printf 'ffsim 1\ntick 1e300\nticks 2\nclass w\n radius 0.3\n speed 1\n follow\nend\n' >"$IN/tick.scen"
bad ffsim "--realtime, tick 1e300" \
    "^ffsim: $IN/tick.scen:2:6: tick 1e300 must be a number from 0 \\(excluded\\) to 3600$" \
    "timeout 10 $BIN/ffsim --realtime --summary sum.txt $FIELD $IN/tick.scen"
expect "ffbuild: --png-scale 1e37" 2 \
    "^ffbuild: --png-scale '1e37': not a number from 0 \\(excluded\\) to 1e36 \\(see ffbuild --help\\)$" \
    "$BIN/ffbuild --png-scale 1e37 -g 0,0 $TD/png/randpath.png"
expect "ffbuild: -r 1e13" 2 "^ffbuild: --radius '1e13': not a number from 0 to 1e12 \\(see ffbuild --help\\)$" \
    "$BIN/ffbuild -r 1e13 $MAP"
expect "fffunnel: -r 1e300" 2 "^fffunnel: -r '1e300': not a number from 0 to 1e150 \\(see fffunnel --help\\)$" \
    "$BIN/fffunnel -r 1e300 $IN/portals.txt"
sed 's/^radius .*/radius 1e13/' "$IN/gate-text.ff" >"$IN/radius.ff"
bad ffdir "a stream's radius 1e13" "^ffdir: $IN/radius.ff:7: 'radius' wants one number from 0 to 1e12, not '1e13'$" \
    "$BIN/ffdir $IN/radius.ff"

# --help and --version write to stdout too.
for prog in ffbuild ffdir ffquery ffpull fffunnel ffpng ffsim ffinfo ffexport; do
    for opt in --help --version; do
        expect "$prog: $opt: stdout on /dev/full" 3 "^$prog: -: write error: No space left on device$" \
            "$BIN/$prog $opt >/dev/full"
        expect "$prog: $opt: stdout a closed pipe, SIGPIPE ignored" 3 "^$prog: -: write error: Broken pipe$" \
            "$(closed_pipe ignore "$BIN/$prog $opt")"
    done
done

[ "$MOUNTED" = 1 ] && umount "$FULL" && MOUNTED=0
echo "matrix: $NCASES cases: ffbuild ${N_ffbuild:-0}, ffdir ${N_ffdir:-0}, ffquery ${N_ffquery:-0}," \
    "ffpull ${N_ffpull:-0}, fffunnel ${N_fffunnel:-0}, ffpng ${N_ffpng:-0}, ffsim ${N_ffsim:-0}, ffinfo ${N_ffinfo:-0}, ffexport ${N_ffexport:-0}${VG:+ (under valgrind)}"
finish
