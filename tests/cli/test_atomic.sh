#!/bin/sh
# Atomic outputs (each program's -o in its man page): -o FILE is written
# beside FILE and renamed into place only after a whole write.  For every
# program with -o: bad input, a full disk (a 64 KiB tmpfs when we may mount
# one, else a file-size limit) and a kill in the middle must leave an
# earlier FILE whole and no temporary file; a full standard output
# (/dev/full) is exit 3 with one line.
. "$(dirname "$0")/lib.sh"

FULL=$TMP/full
MOUNTED=0
cleanup() {
    [ "$MOUNTED" = 1 ] && umount "$FULL" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

OLD="the previous output, which must survive"

# Inputs: a direction field of gate.ffmap, a short scenario on it, a cell
# path, a corridor of portals, and a bad input for each program.
$BIN/ffbuild "$TD/gate.ffmap" >"$TMP/gate0.ff" &&
    $BIN/ffdir "$TMP/gate0.ff" >"$TMP/gate.ff" &&
    $BIN/ffquery --trace 2,2 "$TMP/gate.ff" >"$TMP/path.txt" || {
    echo "FAIL setup: cannot build the inputs"
    exit 1
}
sed -e 's/^ticks .*/ticks 20/' -e '/^spawn/d' "$TD/gate.scenario" >"$TMP/s.scen"
echo 'spawn 5 walker spawns seed 1 tick 0' >>"$TMP/s.scen"
printf '0.5 0.5\n1 0 1 2\n2 0 2 2\n3.5 1.5\n' >"$TMP/portals.txt"
printf 'ff 2\n' >"$TMP/bad.ff"
printf 'ffsim 1\ntick zero\n' >"$TMP/bad.scen"
printf '1 x\n' >"$TMP/bad.txt"

# cmd PROG OUTPUT [bad]: the command line of PROG writing to OUTPUT (a
# file, or "-" for stdout), on good input or, with "bad", on bad input.
cmd() {
    o=$2
    case $1 in
    ffbuild) [ "${3:-}" = bad ] && echo "$BIN/ffbuild -o $o $TD/bad/ragged.map" ||
        echo "$BIN/ffbuild -o $o $TD/gate.ffmap" ;;
    ffdir) [ "${3:-}" = bad ] && echo "$BIN/ffdir -o $o $TMP/bad.ff" ||
        echo "$BIN/ffdir -o $o $TMP/gate0.ff" ;;
    ffpng) [ "${3:-}" = bad ] && echo "$BIN/ffpng -o $o $TMP/bad.ff" ||
        echo "$BIN/ffpng -o $o $TMP/gate.ff" ;;
    ffpull) [ "${3:-}" = bad ] && echo "$BIN/ffpull -o $o $TMP/gate.ff <$TMP/bad.txt" ||
        echo "$BIN/ffpull -o $o $TMP/gate.ff <$TMP/path.txt" ;;
    fffunnel) [ "${3:-}" = bad ] && echo "$BIN/fffunnel -o $o <$TMP/bad.txt" ||
        echo "$BIN/fffunnel -o $o <$TMP/portals.txt" ;;
    ffsim) [ "${3:-}" = bad ] && echo "$BIN/ffsim -o $o $TMP/gate.ff $TMP/bad.scen" ||
        echo "$BIN/ffsim --summary $TMP/summary.txt -o $o $TMP/gate.ff $TMP/s.scen" ;;
    esac
}

# no_temp NAME DIR: no temporary file (.NAME.XXXXXX) is left in DIR.
no_temp() {
    left=$(ls -A "$2" | grep -v -e '^old$' -e '^fill$' -e '^new$' -e '^ref$')
    if [ -z "$left" ]; then pass "$1"; else fail "$1" "left behind in $2: $left"; fi
}

# The programs that exist (fffunnel, ffsim, ... may come later).
PROGS=""
for p in ffbuild ffdir ffpng ffpull fffunnel ffsim; do
    [ -x "$BIN/$p" ] && PROGS="$PROGS $p"
done

for p in $PROGS; do
    d=$TMP/$p
    mkdir -p "$d"

    # A good run: the file is the same as standard output, and nothing
    # else is left beside it.
    run "$p: -o on good input" 0 "$(cmd $p "$d/new")"
    sh -c "$(cmd $p -)" >"$d/ref" 2>/dev/null
    same "$p: -o writes what stdout gets" "$d/new" "$d/ref"
    check "$p: the output is not empty" -s "$d/new"

    # A FIFO or a device is written in place, never replaced by a file
    # (as root, a rename over -o /dev/null would replace the device).
    mkfifo "$d/fifo"
    cat "$d/fifo" >"$d/fromfifo" &
    reader=$!
    run "$p: -o into a FIFO" 0 "$(cmd $p "$d/fifo")"
    exec 4<>"$d/fifo"   # lets the reader go if nothing opened the FIFO
    exec 4<&-
    wait $reader
    check "$p: the FIFO is still a FIFO" -p "$d/fifo"
    same "$p: the FIFO's reader got the output" "$d/fromfifo" "$d/ref"
    if [ "$(id -u)" = 0 ] && mknod "$d/null" c 1 3 2>/dev/null; then
        run "$p: -o to a character device" 0 "$(cmd $p "$d/null")"
        check "$p: the device is still a device" -c "$d/null"
    fi
    rm -f "$d/fifo" "$d/fromfifo" "$d/null"

    # Bad input over an earlier file: exit 2, the file whole, no temporary.
    echo "$OLD" >"$d/old"
    refuse "$p: bad input with -o" "^$p: " "$(cmd $p "$d/old" bad)"
    check "$p: bad input leaves the old file" "$(cat "$d/old")" = "$OLD"
    no_temp "$p: bad input leaves no temporary file" "$d"

    # Good input replaces the earlier file whole, keeping its permissions
    # (a private file stays private).
    chmod 600 "$d/old"
    run "$p: -o over an old file" 0 "$(cmd $p "$d/old")"
    same "$p: the old file is replaced whole" "$d/old" "$d/ref"
    check "$p: the replaced file keeps its mode 0600" "$(stat -c %a "$d/old")" = 600
    no_temp "$p: success leaves no temporary file" "$d"
    rm -f "$d/fresh"
    (umask 027 && sh -c "$(cmd $p "$d/fresh")" 2>/dev/null)
    check "$p: a new file gets 0666 less the umask" "$(stat -c %a "$d/fresh")" = 640
    rm -f "$d/fresh"

    # A full standard output is a write error: exit 3, one line.
    run "$p: stdout on /dev/full" 3 "$(cmd $p -) >/dev/full"
    check "$p: /dev/full: one line" "$(printf '%s\n' "$ERR" | wc -l)" -eq 1
    case $ERR in
    "$p: "*) pass "$p: /dev/full: the message names the program" ;;
    *) fail "$p: /dev/full: the message names the program" "$ERR" ;;
    esac
    rm -f "$d/new" "$d/ref" "$d/old"
done

# ffquery writes to stdout only.
run "ffquery: stdout on /dev/full" 3 "$BIN/ffquery --trace 2,2 $TMP/gate.ff >/dev/full"
check "ffquery: /dev/full: one line" "$(printf '%s\n' "$ERR" | wc -l)" -eq 1

# A full disk: a 64 KiB tmpfs, filled to the last block after the old
# file is written.
mkdir -p "$FULL"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$FULL" 2>/dev/null; then
    MOUNTED=1
    for p in $PROGS; do
        rm -f "$FULL/fill"
        echo "$OLD" >"$FULL/old"
        dd if=/dev/zero of="$FULL/fill" bs=4096 2>/dev/null
        dd if=/dev/zero of="$FULL/fill" bs=1 oflag=append conv=notrunc 2>/dev/null
        run "$p: -o on a full disk fails" 3 "$(cmd $p "$FULL/old")"
        check "$p: full disk: one line" "$(printf '%s\n' "$ERR" | wc -l)" -eq 1
        check "$p: full disk: the old file is whole" "$(cat "$FULL/old")" = "$OLD"
        no_temp "$p: full disk: no temporary file" "$FULL"
    done
    umount "$FULL" && MOUNTED=0
else
    echo "# no tmpfs (not root, or mount refused): the full disk is tested by ulimit -f only"
fi

# A file-size limit: every write past 0 bytes fails with EFBIG (SIGXFSZ is
# ignored, so the write returns the error).  Standard error goes through a
# pipe, which the limit does not touch.
for p in $PROGS; do
    d=$TMP/$p
    echo "$OLD" >"$d/old"
    res=$( (trap '' XFSZ; ulimit -f 0; sh -c "$(cmd $p "$d/old")"; echo "exit $?") 2>&1 | cat)
    case $res in
    *"exit 3") pass "$p: -o past the file-size limit fails with exit 3" ;;
    *) fail "$p: -o past the file-size limit fails with exit 3" "$res" ;;
    esac
    check "$p: file-size limit: the old file is whole" "$(cat "$d/old")" = "$OLD"
    no_temp "$p: file-size limit: no temporary file" "$d"
done

# Killed in the middle.  ffdir reads a two-field stream from a FIFO (its
# standard input; a FIFO named as an input is refused): after
# the first field it has its temporary file open and waits for the second;
# then it is killed.  ffbuild is killed while it reads its map.
for sig in TERM KILL; do
    d=$TMP/kill-$sig
    mkdir -p "$d"
    echo "$OLD" >"$d/old"
    mkfifo "$d/fifo"
    $BIN/ffdir -o "$d/old" <"$d/fifo" 2>/dev/null &
    pid=$!
    exec 3>"$d/fifo"
    cat "$TMP/gate0.ff" >&3
    # Wait (5 s at most) for the temporary file: the write has begun.
    i=0
    while [ $i -lt 50 ] && [ -z "$(ls -A "$d" | grep '^\.old\.')" ]; do
        sleep 0.1
        i=$((i + 1))
    done
    check "ffdir: killed by SIG$sig: it had begun its output" $i -lt 50
    kill -$sig $pid
    { wait $pid; } 2>/dev/null
    got=$?
    exec 3>&-
    check "ffdir: killed by SIG$sig: died by the signal" $got -gt 128
    check "ffdir: killed by SIG$sig in the middle: the old file is whole" "$(cat "$d/old")" = "$OLD"
    if [ $sig = TERM ]; then
        # A signal it can catch: it removes its temporary file first.
        check "ffdir: killed by SIG$sig: no temporary file" "$(ls -A "$d" | grep -c '^\.old\.')" = 0
    fi
    rm -f "$d/fifo" "$d"/.old.*

    mkfifo "$d/fifo"
    $BIN/ffbuild -o "$d/old" <"$d/fifo" 2>/dev/null &
    pid=$!
    exec 3>"$d/fifo"
    head -n 5 "$TD/gate.ffmap" >&3
    sleep 0.2
    kill -$sig $pid
    { wait $pid; } 2>/dev/null
    got=$?
    exec 3>&-
    check "ffbuild: killed by SIG$sig while reading: died by the signal" $got -gt 128
    check "ffbuild: killed by SIG$sig while reading: the old file is whole" "$(cat "$d/old")" = "$OLD"
    rm -f "$d/fifo"
done

finish
