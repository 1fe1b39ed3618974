# keep.sh - sourced by the benchmarks that keep the best of several runs of
# a driver printing "KEY VALUE ..." lines (ffsearch, mcp.py, ...).

# field LINE KEY: the word after KEY in LINE.
field() { echo "$1" | awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }'; }

# keep NAME LINE [KEY]: remember LINE as NAME's result (in line_NAME, its
# KEY in best_NAME) if its KEY (default seconds) is the least so far;
# fail (the sourcing script's) when LINE has no KEY.
keep() {
    k=${3:-seconds}
    s=$(field "$2" "$k")
    [ -n "$s" ] || fail "$1 printed no $k: $2"
    eval "old=\${best_$1:-}"
    if [ -z "$old" ] || awk -v a="$s" -v b="$old" 'BEGIN { exit !(a < b) }'; then
        eval "best_$1=\$s; line_$1=\$2"
    fi
}
