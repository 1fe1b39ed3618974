#!/bin/sh
# The layout of lib/, proved from the sources and the objects, so that an
# include or a call that runs back up a floor fails here, not in review.
#
# The rule.  Each folder of lib/ is a layer of the pipeline (LIB_DIRS in
# the Makefile, lowest first).  A layer may have sub-folders, its parts
# (LIB_SUBDIRS, lowest first within the layer: crowd/geometry,
# crowd/scenario, crowd/fields, crowd/core, crowd/steer, crowd/plan,
# crowd/grid); the
# files at the top of a layer stand above all its parts.  A file uses
# (includes a header of, or calls a function defined in) only files of the
# layers below its own, of the parts of its layer up to its own part, and
# of its own folder: a part never uses the top of its layer (lib/crowd's
# parts never include crowd.h) nor a later part.  Then:
#   - the includes of every file of lib/ follow the rule, and name headers
#     that exist;
#   - the modules' imports make no circle (a module is a .c and its .h; an
#     internal header NAMEint.h beside NAME.h is NAME's inside);
#   - the calls between the objects' files (nm: the symbols each object
#     needs, U, against those each defines) follow the rule and make no
#     circle: not between layers or parts, not between the files of one
#     folder;
#   - no file of lib/ grows past 1,200 lines, and no function of lib/crowd
#     or bin/ffsim.c past 120 (a function: from a line "{" to a line "}",
#     the layout of every function here).
. "$(dirname "$0")/lib.sh"

dirs=$(sed -n 's/^LIB_DIRS = //p' Makefile)
subs=$(sed -n 's/^LIB_SUBDIRS = //p' Makefile)
check "Makefile names the layers" -n "$dirs"

# place FILE: "LAYER SUB" ranks of the folder that holds FILE (a path
# under lib/): SUB is the part's rank within the layer, 99 at its top;
# "-1 -1" for a folder that is neither a layer nor a part.
place() {
    d=${1#lib/}
    d=${d%/*}
    layer=${d%%/*}
    l=-1 i=0
    for x in $dirs; do
        [ "$x" = "$layer" ] && l=$i
        i=$((i + 1))
    done
    if [ "$d" = "$layer" ]; then
        echo "$l 99"
        return
    fi
    s=-1 i=0
    for x in $subs; do
        case $x in "$layer"/*) ;; *) continue ;; esac
        [ "$x" = "$d" ] && s=$i
        i=$((i + 1))
    done
    [ "$s" -ge 0 ] && echo "$l $s" || echo "-1 -1"
}

# below A B: 0 when a file at place A may use one at place B.
below() {
    set -- $1 $2
    [ "$3" -lt "$1" ] || { [ "$3" -eq "$1" ] && [ "$4" -le "$2" ]; }
}

# Every folder of lib/ is a layer or a part, and every layer and part a
# folder; no source lies deeper.
bad=""
for d in $(find lib -mindepth 1 -type d | sort); do
    set -- $(place "$d/x")
    [ "$1" -ge 0 ] || bad="$bad $d"
done
check "every folder of lib/ is a layer or a part of one ($bad)" -z "$bad"
for d in $dirs $subs; do
    check "lib/$d has its folder" -d "lib/$d"
done
check "no source loose in lib/" -z "$(ls lib/*.c lib/*.h 2>/dev/null)"
files=$(find lib -name '*.[ch]' | sort)
# A header is included by its name alone (LIB_INC names every folder),
# and installed into one folder: no two share a name, nor two sources.
dup=$(for f in $files; do echo "${f##*/}"; done | sort | uniq -d | tr '\n' ' ')
check "every file of lib/ has a name of its own ($dup)" -z "$dup"

# The module a file belongs to: its name without the suffix; an internal
# header (LIB_INTERNAL_HDR) named NAMEint.h, beside NAME.h, is the inside
# of module NAME, which NAME's parts share.
internal=$(MAKEFLAGS= make -s print-LIB_INTERNAL_HDR)
module() {
    b=${1##*/}
    m=${b%.*}
    case " $internal " in
    *" $1 "*) [ "${m%int}" != "$m" ] && [ -f "${1%/*}/${m%int}.h" ] && m=${m%int} ;;
    esac
    echo "$m"
}

# Each include of each file: the header's place against the file's.
up=""
missing=""
edges=$TMP/edges
: >"$edges"
for f in $files; do
    me=$(place "$f")
    mod=$(module "$f")
    for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        hf=$(find lib -name "$h" | head -n 1)
        if [ -z "$hf" ]; then
            missing="$missing $f:$h"
            continue
        fi
        below "$me" "$(place "$hf")" || up="$up $f->$hf"
        hmod=$(module "$hf")
        [ "$hmod" = "$mod" ] || echo "$hmod $mod" >>"$edges"
    done
done
check "every include of lib/ names a header of lib/ (missing:$missing)" -z "$missing"
check "no include runs back up a layer or a part ($up)" -z "$up"

# tsort reports a loop in the module graph (x imports y: an edge y -> x).
loops=$(tsort "$edges" 2>&1 >/dev/null | sed -n 's/^tsort: \([^-].*\)/\1/p' | tr '\n' ' ')
check "the modules' imports make no circle ($loops)" -z "$loops"

# The calls between files, from the objects (make builds them first).
objs=$(find lib -name '*.o' | sort)
nobj=$(printf '%s\n' $objs | grep -c .)
check "the objects of lib/ are built (make), one a source" "$nobj" -eq "$(find lib -name '*.c' | grep -c .)"
for o in $objs; do
    nm "$o" | awk -v f="${o%.o}.c" '$1 == "U" { print "U", f, $2 } $2 ~ /^[TDBRCGSV]$/ { print "D", f, $3 }'
done | awk '$1 == "D" { def[$3] = $2 } $1 == "U" { n++; from[n] = $2; sym[n] = $3 }
    END { for (k = 1; k <= n; k++) if ((sym[k] in def) && def[sym[k]] != from[k]) print from[k], def[sym[k]] }' |
    sort -u >"$TMP/calls"
check "the objects call each other (nm found calls)" -s "$TMP/calls"
callup=""
while read -r from to; do
    below "$(place "$from")" "$(place "$to")" || callup="$callup $from->$to"
done <"$TMP/calls"
check "no call runs back up a layer or a part ($callup)" -z "$callup"
# (tsort: an edge callee -> caller; a loop is a circle of calls.)
cloops=$(awk '{ print $2, $1 }' "$TMP/calls" | tsort 2>&1 >/dev/null |
    sed -n 's/^tsort: \([^-].*\)/\1/p' | tr '\n' ' ')
check "the files' calls make no circle ($cloops)" -z "$cloops"

# Sizes: a file holds one concern, and no file of lib/ grows past 1,200
# lines; the crowd's tick (crowd.c) stays an outline, under 900, as do
# its functions and ffsim's, under 120 lines each.
big=""
for f in $files; do
    [ "$(wc -l <"$f")" -le 1200 ] || big="$big $f"
done
check "no file of lib/ over 1,200 lines ($big)" -z "$big"
check "lib/crowd/crowd.c under 900 lines" "$(wc -l <lib/crowd/crowd.c)" -lt 900
long=$(for f in $(find lib/crowd -name '*.c' | sort) bin/ffsim.c; do
    awk -v f="$f" '/^[A-Za-z].*\(/ { head = $0 } /^\{/ { s = FNR; name = head }
        /^\}/ && s { if (FNR - s + 2 > 120) { sub(/\(.*/, "", name); print f ":" name } s = 0 }' "$f"
done)
check "no function of lib/crowd or ffsim over 120 lines ($long)" -z "$long"

finish
