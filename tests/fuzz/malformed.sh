#!/bin/sh
# The table of malformed inputs (issue 8): each class of bad input, given
# to each program, and what the program answered: its exit status and the
# first words of its message.  Prints a Markdown table; fails when any
# program crashed (killed by a signal), refused without a message, wrote
# more than one line of error, or wrote to stdout while refusing.
#
#   tests/fuzz/malformed.sh [--verbose]     (after make)
#
# Text inputs with CRLF line ends, and without the last newline, must be
# accepted (exit 0).
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
TD=$PWD/testdata
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
VERBOSE=${1:-}
BAD=0

# Good inputs each malformed one departs from.
$BIN/ffbuild "$TD/gate.ffmap" >"$TMP/gate0.ff" &&
    $BIN/ffdir "$TMP/gate0.ff" >"$TMP/gate.ff" &&
    $BIN/ffdir --text "$TMP/gate0.ff" >"$TMP/gate_text.ff" &&
    $BIN/ffquery --trace 2,2 "$TMP/gate.ff" >"$TMP/path.txt" || {
    echo "malformed: cannot build the inputs (run make first)" >&2
    exit 2
}
sed -e 's/^ticks .*/ticks 5/' -e '/^spawn/d' "$TD/gate.scenario" >"$TMP/good.scen"
echo 'agent 1 walker 2.5,2.5' >>"$TMP/good.scen"
printf '0.5 0.5\n1 0 1 2\n2 0 2 2\n3.5 1.5\n' >"$TMP/portals.txt"
garbage() {
    LC_ALL=C awk 'BEGIN { srand(8); for (i = 0; i < 600; i++) printf "%c", int(rand() * 256) }'
}
crlf() { sed 's/$/\r/' "$1"; }
nul() { printf '%s' "$1" | tr '@' '\000'; }

# make_input PROG CLASS: write the malformed input of PROG for CLASS to
# $TMP/in (for ffquery, ffpull and fffunnel: what they read on stdin,
# except for the classes about the field file, which go to $TMP/field).
make_input() {
    cp "$TMP/gate.ff" "$TMP/field"
    in=$TMP/in
    case $1 in
    ffbuild)
        case $2 in
        truncated) printf 'type octile\nheight 3\nwidth 3\nmap\n...\n..' ;;
        oversized) printf 'type octile\nheight 100000\nwidth 100000\nmap\n' ;;
        magic) printf 'type hexagonal\nheight 2\nwidth 2\nmap\n..\n..\n' ;;
        nonnumeric) printf 'type octile\nheight three\nwidth 1\nmap\n.\n' ;;
        nan) printf 'ffmap 1\nlegend . nan\nlegend G goal inf\nmap\n.G\n' ;;
        negative) printf 'type octile\nheight -3\nwidth 2\nmap\n' ;;
        overflow) printf 'type octile\nheight 4294967296\nwidth 4294967296\nmap\n' ;;
        nul) nul 'ffmap 1\nmap\n.@G\n' | sed 's/\\n/\n/g' ;;
        crlf) crlf "$TD/gate.ffmap" ;;
        nonewline) printf 'type octile\nheight 2\nwidth 2\nmap\n..\n..' ;;
        bom) printf '\357\273\277ffmap 1\nmap\n.G\n' ;;
        empty) : ;;
        garbage) garbage ;;
        esac >"$in" ;;
    ffdir | ffpng)
        case $2 in
        truncated) head -c $(($(wc -c <"$TMP/gate0.ff") - 100)) "$TMP/gate0.ff" ;;
        oversized) printf 'ff 1\nsize 100000 100000\nchannel cost f32\nencoding binary\nend\n' ;;
        magic) printf 'ff 2\nsize 1 1\nend\n' ;;
        nonnumeric) sed 's/^size .*/size ten 10/' "$TMP/gate_text.ff" ;;
        nan) printf 'ff 1\nsize 2 1\nchannel cost f32\nencoding text\nend\nnan inf\n' ;;
        negative) sed 's/^size .*/size -30 20/' "$TMP/gate_text.ff" ;;
        overflow) sed 's/^size .*/size 4294967296 4294967296/' "$TMP/gate_text.ff" ;;
        nul) sed 's/^moves 8$/moves 8@/' "$TMP/gate_text.ff" | tr '@' '\000' ;;
        crlf) crlf "$TMP/gate_text.ff" ;;
        nonewline) printf '%s' "$(cat "$TMP/gate_text.ff")" ;;
        bom) printf '\357\273\277'; cat "$TMP/gate_text.ff" ;;
        empty) : ;;
        garbage) garbage ;;
        esac >"$in" ;;
    ffquery | ffpull | fffunnel)
        good=$TMP/path.txt
        [ "$1" = fffunnel ] && good=$TMP/portals.txt
        case $2 in
        truncated) head -c 9 "$good" ;;
        oversized) LC_ALL=C awk 'BEGIN { for (i = 0; i < 3000; i++) printf "1 "; print "" }' ;;
        magic) cat "$good"; printf 'ff 2\n' >"$TMP/field" ;;
        nonnumeric) printf 'two three\n' ;;
        nan) printf 'nan 1.5\ninf 2\n' ;;
        negative) sed 's/^/-/' "$good" ;;
        overflow) printf '1e308 1e308\n1e308 -1e308\n' ;;
        nul) nul '2.5 2.5@\n' | sed 's/\\n/\n/g' ;;
        crlf) crlf "$good" ;;
        nonewline) printf '%s' "$(cat "$good")" ;;
        bom) printf '\357\273\277'; cat "$good" ;;
        empty) : ;;
        garbage) garbage ;;
        esac >"$in" ;;
    ffsim)
        case $2 in
        truncated) head -n 12 "$TMP/good.scen" ;;
        oversized) sed 's/^agent .*/spawn 100000000 walker spawns/' "$TMP/good.scen" ;;
        magic) sed 's/^ffsim 1/ffsim 9/' "$TMP/good.scen" ;;
        nonnumeric) sed 's/^tick .*/tick fast/' "$TMP/good.scen" ;;
        nan) sed 's/^tick .*/tick nan/' "$TMP/good.scen" ;;
        negative) sed 's/^ticks .*/ticks -5/' "$TMP/good.scen" ;;
        overflow) sed 's/^agent 1 /agent 99999999999999999999 /' "$TMP/good.scen" ;;
        nul) sed 's/^ticks 5$/ticks 5@/' "$TMP/good.scen" | tr '@' '\000' ;;
        crlf) crlf "$TMP/good.scen" ;;
        nonewline) printf '%s' "$(cat "$TMP/good.scen")" ;;
        bom) printf '\357\273\277'; cat "$TMP/good.scen" ;;
        empty) : ;;
        garbage) garbage ;;
        esac >"$in" ;;
    esac
}

run_prog() {
    case $1 in
    ffbuild) $BIN/ffbuild -g 1,1 "$TMP/in" ;;
    ffdir) $BIN/ffdir "$TMP/in" ;;
    ffpng) $BIN/ffpng -o "$TMP/out.png" "$TMP/in" ;;
    ffquery) $BIN/ffquery "$TMP/field" <"$TMP/in" ;;
    ffpull) $BIN/ffpull "$TMP/field" <"$TMP/in" ;;
    fffunnel) $BIN/fffunnel <"$TMP/in" ;;
    ffsim) $BIN/ffsim "$TMP/gate.ff" "$TMP/in" ;;
    esac
}

PROGS=""
for p in ffbuild ffdir ffquery ffpull fffunnel ffpng ffsim; do
    [ -x "$BIN/$p" ] && PROGS="$PROGS $p"
done
CLASSES="truncated oversized magic nonnumeric nan negative overflow nul crlf nonewline bom empty garbage"

label() {
    case $1 in
    truncated) echo "truncated" ;; oversized) echo "oversized (10^10 cells, 6 kB line, 10^8 agents)" ;;
    magic) echo "wrong magic" ;; nonnumeric) echo "non-numeric" ;; nan) echo "NaN and infinities" ;;
    negative) echo "negative sizes / values" ;; overflow) echo "overflowing products (2^64 cells, 1e308)" ;;
    nul) echo "embedded NUL" ;; crlf) echo "CRLF line ends" ;; nonewline) echo "no final newline" ;;
    bom) echo "UTF-8 byte-order mark" ;; empty) echo "empty input" ;; garbage) echo "binary garbage" ;;
    esac
}

printf '| input |'
for p in $PROGS; do printf ' %s |' "$p"; done
printf '\n|---|'
for p in $PROGS; do printf -- '---|'; done
printf '\n'
for c in $CLASSES; do
    printf '| %s |' "$(label $c)"
    for p in $PROGS; do
        make_input $p $c
        run_prog $p >"$TMP/stdout" 2>"$TMP/stderr"
        code=$?
        lines=$(wc -l <"$TMP/stderr")
        words=$(head -n 1 "$TMP/stderr" | sed -e "s|$TMP/||g" | tr -d '\000' |
            awk '{ s = ""; for (i = 2; i <= NF && i <= 9; i++) s = s (i > 2 ? " " : "") $i; print s }')
        cell="$code"
        [ $code -ne 0 ] && [ -n "$words" ] && cell="$code: $words"
        [ $p = fffunnel ] && [ $c = magic ] && cell="n/a (no magic)"
        why=""
        if [ $code -ge 128 ]; then why="killed by a signal"
        elif [ $code -ne 0 ] && [ ! -s "$TMP/stderr" ]; then why="refused without a message"
        elif [ $code -ge 2 ] && [ "$lines" -ne 1 ]; then why="$lines lines on stderr"
        elif [ $code -ge 2 ] && [ -s "$TMP/stdout" ]; then why="wrote $(wc -l <"$TMP/stdout") lines to stdout before refusing"
        elif [ $c = crlf ] || [ $c = nonewline ]; then [ $code -eq 0 ] || why="a valid text input refused"
        fi
        if [ -n "$why" ]; then
            BAD=$((BAD + 1))
            cell="$cell (**$why**)"
        fi
        printf ' %s |' "$(printf '%s' "$cell" | sed 's/|/\\|/g')"
        [ -n "$VERBOSE" ] && [ -n "$why" ] && { echo; cat "$TMP/stderr"; }
    done
    printf '\n'
done
echo
echo "malformed: $BAD bad answers"
[ "$BAD" -eq 0 ]
