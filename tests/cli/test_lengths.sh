#!/bin/sh
# Orchestration reads as an outline: no function in lib/ or bin/ longer
# than 120 lines, as tools/longfuncs.sh measures them (the signature's first
# line to the closing brace).  The measure itself is checked first on
# functions of known length.
. "$(dirname "$0")/lib.sh"

# A function of n lines: signature, brace, n - 3 statements, brace.
function_of() {  # NAME N
    printf 'static int %s(int a)\n{\n' "$1"
    k=3
    while [ "$k" -lt "$2" ]; do
        echo '    a++;'
        k=$((k + 1))
    done
    printf '}\n\n'
}
{
    echo '/* a declaration is no function */'
    echo 'static int declared(int a);'
    function_of brief 120
    function_of lengthy 121
    echo 'int main(void)'
    echo '{'
    echo '    return lengthy(brief(0));'
    echo '}'
} >"$TMP/lengths.c"
run "longfuncs: the measure" 0 "sh tools/longfuncs.sh $TMP/lengths.c"
check "longfuncs: 121 lines reported, 120 not" "$(printf '%s\n' "$OUT" | awk '{ print $1, $3 }')" = "121 lengthy"
run "longfuncs: -n 3" 0 "sh tools/longfuncs.sh -n 3 $TMP/lengths.c"
check "longfuncs: -n 3 reports all three, longest first" \
    "$(printf '%s\n' "$OUT" | awk '{ print $3 }' | tr '\n' ' ')" = "lengthy brief main "
run "the sample is C" 0 "cc -std=c11 -fsyntax-only $TMP/lengths.c"

files=$(find lib bin -name '*.c' | sort | tr '\n' ' ')
run "longfuncs: the tree" 0 "sh tools/longfuncs.sh $files"
check "no function over 120 lines in lib/ and bin/: $OUT" -z "$OUT"
finish
