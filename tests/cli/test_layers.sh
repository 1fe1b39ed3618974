#!/bin/sh
# The layout of lib/: each folder is a layer of the pipeline (LIB_DIRS in
# the Makefile, lowest first) and uses only its own and the folders before
# it; the modules' imports make no circle; every quoted include names a
# header that exists.  Proves the layering from the sources, so that a new include
# that runs back up a floor fails here, not in review.
. "$(dirname "$0")/lib.sh"

dirs=$(sed -n 's/^LIB_DIRS = //p' Makefile)
check "Makefile names the layers" -n "$dirs"

rank() {
    i=0
    for d in $dirs; do
        [ "$d" = "$1" ] && { echo $i; return; }
        i=$((i + 1))
    done
    echo -1
}

# Every folder of lib/ is a layer, and every layer a folder.
for d in lib/*/; do
    d=${d%/}
    d=${d#lib/}
    check "lib/$d is a layer of LIB_DIRS" "$(rank "$d")" -ge 0
done
for d in $dirs; do
    check "layer $d has its folder" -d "lib/$d"
done
check "no source loose in lib/" -z "$(ls lib/*.c lib/*.h 2>/dev/null)"

# Each include of each file: the folder that holds the header, its rank.
up=""
missing=""
edges=$TMP/edges
: >"$edges"
for f in lib/*/*.c lib/*/*.h; do
    dir=${f#lib/}
    dir=${dir%%/*}
    me=$(rank "$dir")
    mod=$(basename "$f")
    mod=${mod%.*}
    for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        hf=$(ls lib/*/"$h" 2>/dev/null | head -n 1)
        if [ -z "$hf" ]; then
            missing="$missing $f:$h"
            continue
        fi
        hdir=${hf#lib/}
        hdir=${hdir%%/*}
        [ "$(rank "$hdir")" -le "$me" ] || up="$up $f->$hf"
        hmod=${h%.h}
        [ "$hmod" = "$mod" ] || echo "$hmod $mod" >>"$edges"
    done
done
check "every include of lib/ names a header of lib/ (missing:$missing)" -z "$missing"
check "no include runs back up a layer ($up)" -z "$up"

# tsort reports a loop in the module graph (x imports y: an edge y -> x).
loops=$(tsort "$edges" 2>&1 >/dev/null)
check "the modules' imports make no circle ($loops)" -z "$loops"

finish
