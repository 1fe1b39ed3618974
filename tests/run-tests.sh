#!/bin/sh
# Run every Criterion suite given as an argument, then every command-line
# test script in tests/cli/, and close with one "N passed, N failed" line.
passed=0
failed=0
# Under SAN=1: Criterion leaks a little of its own; fftools' leaks still count.
LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
for t in "$@"; do
    out=$("./$t" --jobs 2 2>&1)
    code=$?
    line=$(printf '%s\n' "$out" | grep 'Synthesis:' | tail -n 1)
    p=$(printf '%s\n' "$line" | sed -n 's/.*Passing: \([0-9]*\).*/\1/p')
    f=$(printf '%s\n' "$line" | sed -n 's/.*Failing: \([0-9]*\).*Crashing: \([0-9]*\).*/\1 \2/p')
    p=${p:-0}
    set -- $f
    f=$(( ${1:-0} + ${2:-0} ))
    if [ $code -ne 0 ] && [ $f -eq 0 ]; then f=1; fi
    if [ $f -ne 0 ]; then
        printf '%s\n' "$out" | grep -v '^\[----\]' | tail -n 40
    fi
    echo "$t: $p passed, $f failed"
    passed=$((passed + p))
    failed=$((failed + f))
done
for s in tests/cli/test_*.sh; do
    [ -e "$s" ] || continue
    out=$(sh "$s" 2>&1)
    code=$?
    p=$(printf '%s\n' "$out" | sed -n 's/^cli: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' | tail -n 1)
    f=$(printf '%s\n' "$out" | sed -n 's/^cli: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' | tail -n 1)
    p=${p:-0}
    f=${f:-1}
    if [ $code -ne 0 ] && [ $f -eq 0 ]; then f=1; fi
    [ $f -ne 0 ] && printf '%s\n' "$out" | grep -v '^ok ' | tail -n 40
    # A check skipped for lack of a tool says so in a '# ' line: keep it.
    [ $f -eq 0 ] && printf '%s\n' "$out" | grep '^# '
    echo "$s: $p passed, $f failed"
    passed=$((passed + p))
    failed=$((failed + f))
done
echo "Tests: $passed passed, $failed failed"
[ $failed -eq 0 ]
