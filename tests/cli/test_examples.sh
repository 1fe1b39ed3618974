#!/bin/sh
# For library users: make install into a DESTDIR staging folder puts the
# man3 pages (lint-clean) and the bash completions where they belong; the
# C and C++ programs of examples/ build against the staged libff through
# pkg-config and answer what the programs answer; make uninstall removes
# exactly what make install put.
. "$(dirname "$0")/lib.sh"
ROOT=$PWD
STAGE=$TMP/stage
PREFIX=/opt/fftools
P=$STAGE$PREFIX
san=
grep -q fsanitize "$ROOT/.build-flags" 2>/dev/null && san=SAN=1
# -o all: install what is built, rebuild nothing; FLAGS_STAMP: leave the
# tree's own stamp alone.
mkdir -p "$P/bin" "$P/share/man/man1"
: >"$P/bin/other-tool"
: >"$P/share/man/man1/other-tool.1"
run "make install DESTDIR=" 0 "make -s -o all FLAGS_STAMP=$TMP/stamp $san install DESTDIR=$STAGE PREFIX=$PREFIX"
find "$STAGE" \( -type f -o -type l \) | sed "s|^$P/||" | sort >"$TMP/installed"

# ---- man3 pages: each installed, lint-clean, naming what it documents
for page in man/man3/*.3; do
    page_name=$(basename "$page")
    check "installed share/man/man3/$page_name" -s "$P/share/man/man3/$page_name"
    if command -v mandoc >/dev/null 2>&1; then
        run "mandoc -Tlint -Wwarning $page is silent" 0 "mandoc -Tlint -Wwarning $page"
        check "mandoc -Tlint -Wwarning $page: no output" -z "$OUT$ERR"
    fi
    # Every function a page names in its SYNOPSIS is declared in the
    # header it includes there.
    missing=$(awk '/^\.Sh / { syn = $2 == "SYNOPSIS" } syn && /^\.In / { h = $2 }
        syn && /^\.Fn / { print h, $2 }' "$page" | while read -r h fn; do
        grep -q "\\b$fn(" "$P/include/$h" || echo "$fn not in $h"
    done)
    check "$page_name: each function is in its header" -z "$missing"
done
[ -n "$(command -v mandoc)" ] || echo "# no mandoc: man3 pages not linted"

# ---- the completions
for prog in ffbuild ffdir ffexport fffunnel ffinfo ffpng ffpull ffquery ffsim; do
    check "installed the completion of $prog" -s "$P/share/bash-completion/completions/$prog"
    check "$prog's completion completes $prog" \
        "$(grep -c "^complete .* $prog\$" "$P/share/bash-completion/completions/$prog")" = 1
done

# ---- the examples, built against the staged library
export PKG_CONFIG_PATH=$P/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$STAGE
cp -R "$ROOT/examples" "$TMP/examples"
run "make -C examples" 0 "make -C $TMP/examples"
check "route and steer built" -x "$TMP/examples/route"
check "steer built" -x "$TMP/examples/steer"
export LD_LIBRARY_PATH=$P/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# route (C): what ffbuild | ffdir | ffquery --trace | ffpull write, on a
# Moving AI map, an ffmap with cells of 2 and a Tiled map.
for c in "$TD/movingai/arena.map 5,5 40,40" "$TD/movingai/den312d.map 13,14 10,3" \
    "$TD/query/maze.ffmap 3,3 1,3" "$TD/tiled/dungeon.tmj 7,2 1,5" "$TD/query/maze.ffmap 3,3 3,3"; do
    set -- $c
    "$BIN/ffbuild" -g "$2" "$1" | "$BIN/ffdir" >"$TMP/f.ff"
    "$BIN/ffquery" --trace "$3" "$TMP/f.ff" >"$TMP/trace.txt"
    if [ "$(wc -l <"$TMP/trace.txt")" -ge 2 ]; then
        "$BIN/ffpull" "$TMP/f.ff" <"$TMP/trace.txt" >"$TMP/want.txt"
    else
        cp "$TMP/trace.txt" "$TMP/want.txt"
    fi
    run "route $(basename "$1") $2 $3" 0 "$TMP/examples/route $1 $2 $3 > $TMP/got.txt"
    same "route $(basename "$1") $2 $3: as the programs" "$TMP/got.txt" "$TMP/want.txt"
done
refuse "route: a goal in a wall" "^route: GX,GY: " "$TMP/examples/route $TD/query/maze.ffmap 0,0 1,3"
# steer (C++): what ffquery -d answers, on a multi-field stream by name.
"$BIN/ffbuild" --goal-sets "$TD/batch/maps/yard.sets" "$TD/batch/maps/yard.map" | "$BIN/ffdir" >"$TMP/yard.ff"
awk 'BEGIN { s = 7; for (i = 0; i < 200; i++) { s = (s * 69069 + 1) % 4294967296
    x = s / 4294967296 * 14 - 1; s = (s * 69069 + 1) % 4294967296; y = s / 4294967296 * 10 - 1
    printf "%.3f %.3f\n", x, y } }' >"$TMP/positions.txt"
"$BIN/ffquery" -d --name west "$TMP/yard.ff" <"$TMP/positions.txt" >"$TMP/want.txt"
run "steer west" 0 "$TMP/examples/steer $TMP/yard.ff west < $TMP/positions.txt > $TMP/got.txt"
same "steer: as ffquery -d" "$TMP/got.txt" "$TMP/want.txt"
refuse "steer: an ambiguous stream" "^steer: .*the stream holds 3 fields" \
    "$TMP/examples/steer $TMP/yard.ff < $TMP/positions.txt"

# ---- make uninstall: what install put goes, the rest stays
run "make uninstall" 0 "make -s -o all FLAGS_STAMP=$TMP/stamp $san uninstall DESTDIR=$STAGE PREFIX=$PREFIX"
left=$(find "$STAGE" \( -type f -o -type l \) | sed "s|^$P/||" | sort | tr '\n' ' ')
check "uninstall leaves only the other package's files" "$left" = "bin/other-tool share/man/man1/other-tool.1 "
check "uninstall removes include/fftools" ! -e "$P/include/fftools"
# Everything install put is listed, so uninstall removed it all.
check "install put more than the other package's files" "$(wc -l <"$TMP/installed")" -gt 90
run "make uninstall again" 0 "make -s -o all FLAGS_STAMP=$TMP/stamp $san uninstall DESTDIR=$STAGE PREFIX=$PREFIX"
finish
