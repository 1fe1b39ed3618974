# Shared by the command-line tests: source it, call the checks, end with
# `finish`.  Each check prints "ok NAME" or "FAIL NAME: why".
#
#   run NAME EXPECTED_STATUS CMD...   run CMD (via sh -c), capture stdout in
#                                     $OUT and stderr in $ERR, check status
#   refuse NAME PATTERN CMD...        expect exit 2, empty stdout, and one
#                                     stderr line matching PATTERN (grep -E)
#   same NAME FILE1 FILE2             the two files are byte-identical
#   check NAME COND...                test(1) style condition
set -u
cd "$(dirname "$0")/../.." || exit 2
BIN=$PWD/bin
TD=$PWD/testdata
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PASS=0
FAILN=0
pass() { PASS=$((PASS + 1)); printf "ok %s\n" "$1"; }
fail() { FAILN=$((FAILN + 1)); printf "FAIL %s: %s\n" "$1" "$2"; }

run() {
    name=$1 want=$2
    shift 2
    sh -c "$*" >"$TMP/out" 2>"$TMP/err"
    got=$?
    OUT=$(cat "$TMP/out")
    ERR=$(cat "$TMP/err")
    if [ "$got" -eq "$want" ]; then pass "$name"; else fail "$name" "exit $got, want $want; stderr: $ERR"; fi
}

refuse() {
    name=$1 pattern=$2
    shift 2
    sh -c "$*" >"$TMP/out" 2>"$TMP/err"
    got=$?
    OUT=$(cat "$TMP/out")
    ERR=$(cat "$TMP/err")
    lines=$(wc -l <"$TMP/err")
    if [ "$got" -ne 2 ]; then fail "$name" "exit $got, want 2; stderr: $ERR"
    elif [ -s "$TMP/out" ]; then fail "$name" "stdout not empty"
    elif [ "$lines" -ne 1 ]; then fail "$name" "want one stderr line, got $lines: $ERR"
    elif ! grep -Eq -- "$pattern" "$TMP/err"; then fail "$name" "stderr '$ERR' does not match '$pattern'"
    else pass "$name"; fi
}

same() {
    if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "$2 and $3 differ"; fi
}

check() {
    name=$1
    shift
    if test "$@"; then pass "$name"; else fail "$name" "condition failed: $*"; fi
}

finish() {
    echo "cli: $PASS passed, $FAILN failed"
    [ "$FAILN" -eq 0 ]
}
