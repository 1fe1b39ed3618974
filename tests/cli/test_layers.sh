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

# The module a file belongs to: its name without the suffix; an internal
# header (LIB_INTERNAL_HDR) named NAMEint.h, as crowdint.h, is the inside
# of module NAME, which NAME's parts share: they include it, it includes
# NAME.h.
internal=$(sed -n 's/^LIB_INTERNAL_HDR = //p' Makefile)
module() {
    m=${1%.*}
    for i in $internal; do
        if [ "${i##*/}" = "$1" ] && [ "${m%int}" != "$m" ] && [ -f "${i%/*}/${m%int}.h" ]; then
            m=${m%int}
        fi
    done
    echo "$m"
}

# Each include of each file: the folder that holds the header, its rank.
up=""
missing=""
edges=$TMP/edges
: >"$edges"
for f in lib/*/*.c lib/*/*.h; do
    dir=${f#lib/}
    dir=${dir%%/*}
    me=$(rank "$dir")
    mod=$(module "$(basename "$f")")
    for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        hf=$(ls lib/*/"$h" 2>/dev/null | head -n 1)
        if [ -z "$hf" ]; then
            missing="$missing $f:$h"
            continue
        fi
        hdir=${hf#lib/}
        hdir=${hdir%%/*}
        [ "$(rank "$hdir")" -le "$me" ] || up="$up $f->$hf"
        hmod=$(module "$h")
        [ "$hmod" = "$mod" ] || echo "$hmod $mod" >>"$edges"
    done
done
check "every include of lib/ names a header of lib/ (missing:$missing)" -z "$missing"
check "no include runs back up a layer ($up)" -z "$up"

# tsort reports a loop in the module graph (x imports y: an edge y -> x).
loops=$(tsort "$edges" 2>&1 >/dev/null)
check "the modules' imports make no circle ($loops)" -z "$loops"

# Sizes: a file holds one concern, and no file of lib/ grows past 1,200
# lines; the crowd's tick (crowd.c) stays an outline, under 900.
big=""
for f in lib/*/*.c lib/*/*.h; do
    [ "$(wc -l <"$f")" -le 1200 ] || big="$big $f"
done
check "no file of lib/ over 1,200 lines ($big)" -z "$big"
check "lib/crowd/crowd.c under 900 lines" "$(wc -l <lib/crowd/crowd.c)" -lt 900

finish
