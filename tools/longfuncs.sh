#!/bin/sh
# longfuncs.sh - the functions of the given C files longer than a limit,
# one line each, longest first: lines, file:line, name.  A function is what
# the house style makes it: a signature at column 0 whose first line names
# it (return type and name on one line), a "{" at column 0, and the body up
# to the next "}" at column 0; its length counts from the signature's first
# line to that brace (tests/cli/test_lengths.sh).
#   sh tools/longfuncs.sh [-n LIMIT] FILE...   (LIMIT 120 by default)
limit=120
if [ "$1" = -n ]; then
    limit=$2
    shift 2
fi
awk -v limit="$limit" '
FNR == 1 { sig = 0; start = 0 }
/^[A-Za-z_].*\(/ && start == 0 {
    sig = FNR
    name = $0
    sub(/\(.*/, "", name)
    sub(/.*[ *]/, "", name)
}
/^\{/ && sig { start = sig }
/^\}/ && start {
    n = FNR - start + 1
    if (n > limit)
        printf "%5d %s:%d %s\n", n, FILENAME, start, name
    start = 0
    sig = 0
}
/;[ \t]*$/ && start == 0 && sig == FNR { sig = 0 }
' "$@" | sort -rn
