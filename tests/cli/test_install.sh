#!/bin/sh
# The licence; what make, make install and make check need.  make install
# into a temporary prefix: the programs, the public headers
# only (each complete with what it includes), libff.a and libff.so with
# its soname, fftools.pc; then a C and a C++ program built against the
# installed copy with pkg-config, linked dynamically and statically, run.
. "$(dirname "$0")/lib.sh"
ROOT=$PWD
BT=$TD/batch
P=$TMP/prefix

# The licence, and the README says it.
check "LICENSE is the MIT licence" "$(grep -c '^MIT License$' LICENSE)" = 1
check "LICENSE: the fftools authors" "$(grep -c '^Copyright (c) [0-9]* the fftools authors$' LICENSE)" = 1
check "README names the licence" "$(grep -c 'MIT licence: see LICENSE' README.md)" = 1
# Only make check needs Criterion: deps.sh without an argument does not ask
# for it (CRITERION_H: where deps.sh looks for it), make and make install do
# not run deps.sh check, make check does.
run "deps.sh: the build needs no Criterion" 0 "CRITERION_H=$TMP/none sh tools/deps.sh"
run "make -n install" 0 "make -n -o all FLAGS_STAMP=$TMP/stamp install PREFIX=$TMP/nowhere"
check "make install does not check the test dependencies" "$(printf '%s\n' "$OUT" | grep -c 'deps.sh check')" = 0
run "make -n all" 0 "make -n -B FLAGS_STAMP=$TMP/stamp all"
check "make does not check the test dependencies" "$(printf '%s\n' "$OUT" | grep -c 'deps.sh check')" = 0
run "make -n FLAGS_STAMP=$TMP/stamp check" 0 "make -n FLAGS_STAMP=$TMP/stamp check"
check "make check checks the test dependencies" "$(printf '%s\n' "$OUT" | grep -c 'deps.sh check')" = 1
san=
grep -q fsanitize "$ROOT/.build-flags" 2>/dev/null && san=SAN=1
# -o all: install what is built, rebuild nothing; FLAGS_STAMP: leave the
# tree's own stamp alone.
run "make install PREFIX=" 0 "cd $ROOT && make -s -o all FLAGS_STAMP=$TMP/stamp $san install PREFIX=$P"
version=$("$BIN/ffbuild" --version | awk '{print $NF}')
major=${version%%.*}
for f in lib/libff.a lib/libff.so.$version lib/pkgconfig/fftools.pc include/fftools/stream.h \
    include/fftools/grid.h include/fftools/fieldsel.h include/fftools/batch.h bin/ffbuild \
    share/man/man1/ffbuild.1 share/man/man5/ff.5; do
    check "installed $f" -s "$P/$f"
done
check "libff.so.$major links to libff.so.$version" "$(readlink "$P/lib/libff.so.$major")" = "libff.so.$version"
check "libff.so links to libff.so.$version" "$(readlink "$P/lib/libff.so")" = "libff.so.$version"
check "the soname is libff.so.$major" \
    "$(readelf -d "$P/lib/libff.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')" = "libff.so.$major"
for f in hugepage.h options.h crowdint.h pibt.h gridmove.h lacam.h reserve.h; do
    check "internal header $f not installed" ! -e "$P/include/fftools/$f"
done
# The installed headers are the public ones, and each includes only
# installed headers; each says extern "C" for C++.
internal=$(MAKEFLAGS= make -s -C "$ROOT" print-LIB_INTERNAL_HDR)
want=$(for h in "$ROOT"/lib/*/*.h "$ROOT"/lib/*/*/*.h; do
    case " $internal " in *" ${h#"$ROOT"/} "*) ;; *) basename "$h" ;; esac
done | sort)
got=$(ls "$P/include/fftools" | sort)
check "the installed headers are LIB_PUBLIC_HDR" "$got" = "$want"
dangling=
for h in "$P"/include/fftools/*.h; do
    for inc in $(sed -n 's/^#include "\(.*\)"/\1/p' "$h"); do
        [ -e "$P/include/fftools/$inc" ] || dangling="$dangling $(basename "$h"):$inc"
    done
    grep -q 'extern "C"' "$h" || dangling="$dangling $(basename "$h"):no-extern-C"
done
check "every installed header is complete and has extern \"C\"" -z "$dangling"
check "fftools.pc has the prefix" "$(sed -n 's/^prefix=//p' "$P/lib/pkgconfig/fftools.pc")" = "$P"
export PKG_CONFIG_PATH=$P/lib/pkgconfig
check "fftools.pc has the version" "$(pkg-config --modversion fftools)" = "$version"
flags=$(pkg-config --cflags --libs fftools)
static_flags=$(pkg-config --cflags --libs --static fftools)
check "pkg-config names the installed include folder" "$(printf '%s\n' "$flags" | grep -c -- "-I$P/include")" -eq 1
check "pkg-config --static adds libpng" "$(printf '%s\n' "$static_flags" | grep -c -- "-lpng")" -eq 1
for l in -ljansson -lexpat -lz -lzstd; do
    check "pkg-config --static adds $l (Tiled maps)" "$(printf '%s\n' "$static_flags" | grep -c -- "$l\\b")" -eq 1
done
"$BIN/ffbuild" --goal-sets "$BT/maps/yard.sets" "$BT/maps/yard.map" >"$TMP/yard.ff"

needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' '; }
# try LABEL PROGRAM: the yard's fields through PROGRAM (pick NAME X Y).
try() {
    # yard.map: the set 'west' has goals 1,5 and 1,6; cell 4,5 is 3 steps east.
    run "$1: selects by name" 0 "$2 west 4 5 <$TMP/yard.ff"
    check "$1: the field and its distance" "$OUT" = "west 12x8 3"
    run "$1: 'exit' at 7,1" 0 "$2 exit 7 1 <$TMP/yard.ff"
    check "$1: two steps" "$OUT" = "exit 12x8 2"
    refuse "$1: refuses an ambiguous choice" \
        "^pick: -: the stream holds 3 fields \(exit, west, corners\): choose one with --name$" \
        "$2 '' 1 1 <$TMP/yard.ff"
    refuse "$1: no such name" "^pick: -: no field named 'east' \(names: exit, west, corners\)$" \
        "$2 east 1 1 <$TMP/yard.ff"
}

cat >"$TMP/pick.c" <<'C'
/* Print the name, size and distance at cell X,Y of the field NAME of the
 * stream on stdin. */
#include <stdio.h>
#include <stdlib.h>

#include <fftools/fieldsel.h>

int main(int argc, char **argv)
{
    ff_reader r;
    ff_field f;
    ff_error err;

    if (argc != 4)
        return 2;
    ff_reader_init(&r, stdin, "-");
    if (ff_field_select(&r, argv[1][0] ? argv[1] : NULL, &f, &err) != FF_OK) {
        ff_error_print(stderr, "pick", &err);
        return ff_exit_status(err.status);
    }
    printf("%s %dx%d %g\n", f.name, f.grid.w, f.grid.h,
           f.distance[atoi(argv[3]) * f.grid.w + atoi(argv[2])]);
    ff_field_free(&f);
    return 0;
}
C
# The same in C++, through the headers of several layers at once: the
# distance is recomputed by the library's own search of the field's grid.
cat >"$TMP/pick.cc" <<'CC'
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <fftools/fieldsel.h>
#include <fftools/search.h>
#include <fftools/stream.h>

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    ff_reader r;
    ff_field f;
    ff_error err;
    ff_reader_init(&r, stdin, "-");
    if (ff_field_select(&r, argv[1][0] ? argv[1] : nullptr, &f, &err) != FF_OK) {
        ff_error_print(stderr, "pick", &err);
        return ff_exit_status(err.status);
    }
    std::vector<double> again(static_cast<size_t>(f.grid.w) * f.grid.h);
    if (ff_search(&f.grid, again.data(), &err) != FF_OK) {
        ff_error_print(stderr, "pick", &err);
        return ff_exit_status(err.status);
    }
    size_t at = static_cast<size_t>(std::atoi(argv[3])) * f.grid.w + std::atoi(argv[2]);
    if (again[at] != f.distance[at]) {
        std::cerr << "pick: the search disagrees with the stream\n";
        return 1;
    }
    std::cout << std::string(f.name) << ' ' << f.grid.w << 'x' << f.grid.h << ' ' << again[at] << '\n';
    ff_field_free(&f);
    return 0;
}
CC
# Linked dynamically: libff.so.N is needed at run time, from the prefix.
run "C: build against libff.so" 0 "cc -std=c11 -Wall -Wextra -Wpedantic -Werror $TMP/pick.c $flags -o $TMP/pick-c"
check "C: the program needs libff.so.$major" "$(needed "$TMP/pick-c" | grep -c "libff.so.$major")" -eq 1
run "C: does not start without the library" 127 "$TMP/pick-c west 4 5 <$TMP/yard.ff"
try "C, dynamic" "LD_LIBRARY_PATH=$P/lib $TMP/pick-c"
run "C++: build against libff.so" 0 "g++ -std=c++11 -Wall -Wextra -Wpedantic -Werror $TMP/pick.cc $flags -o $TMP/pick-cc"
check "C++: the program needs libff.so.$major" "$(needed "$TMP/pick-cc" | grep -c "libff.so.$major")" -eq 1
try "C++, dynamic" "LD_LIBRARY_PATH=$P/lib $TMP/pick-cc"
# Linked statically: libff.a inside the program (and under the sanitizers,
# which cannot link a whole program statically, the system's libraries
# still shared).
lff_static=$(printf '%s\n' "$static_flags" | sed 's/-lff /-Wl,-Bstatic -lff -Wl,-Bdynamic /')
run "C++: build against libff.a" 0 "g++ -std=c++11 -Wall -Wextra -Wpedantic -Werror $TMP/pick.cc $lff_static -o $TMP/pick-cc-a"
check "C++ with libff.a needs no libff.so" "$(needed "$TMP/pick-cc-a" | grep -c libff)" -eq 0
try "C++, libff.a" "$TMP/pick-cc-a"
if [ -z "$san" ]; then
    run "C++: build fully static" 0 "g++ -static -std=c++11 -Wall -Wextra -Wpedantic -Werror $TMP/pick.cc $static_flags -o $TMP/pick-cc-static"
    check "C++ static: no shared library at all" -z "$(needed "$TMP/pick-cc-static")"
    try "C++, static" "$TMP/pick-cc-static"
    run "C: build fully static" 0 "cc -static -std=c11 $TMP/pick.c $static_flags -o $TMP/pick-c-static"
    try "C, static" "$TMP/pick-c-static"
else
    echo "# SAN=1: the sanitizers cannot link a program fully statically: that link is skipped"
fi
finish
