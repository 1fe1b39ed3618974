# best.sh - sourced by the benchmarks: best NAME CMD... ($TMP must be set;
# BEST_WIDTH the name column, default 34).
# best NAME CMD...: run CMD (via sh -c) 3 times; print the best wall time
# and the peak memory of that run.
best() {
    name=$1
    shift
    min=""
    mem="?"
    for k in 1 2 3; do
        start=$(date +%s%N)
        if [ -x /usr/bin/time ]; then
            /usr/bin/time -f '%M' -o "$TMP/mem" sh -c "$*" || exit 1
        else
            sh -c "$*" || exit 1
        fi
        end=$(date +%s%N)
        ms=$(( (end - start) / 1000000 ))
        if [ -z "$min" ] || [ "$ms" -lt "$min" ]; then
            min=$ms
            [ -f "$TMP/mem" ] && mem="$(( $(cat "$TMP/mem") / 1024 )) MiB"
        fi
    done
    printf "  %-${BEST_WIDTH:-34}s %6d ms  peak %s\n" "$name" "$min" "$mem"
}

