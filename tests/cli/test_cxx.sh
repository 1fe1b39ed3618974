#!/bin/sh
# The public crowd API from C++: tests/cxx/crowd.cc, built with c++
# against the headers make install would install (LIB_PUBLIC_HDR, copied
# into one folder: no internal header is within reach) and lib/libff.a,
# runs the crowds of gate.scenario (steering) and crowd.scenario (cell to
# cell, with reservations); the agents of its last tick (id, position,
# state) and its summary are ffsim's.
. "$(dirname "$0")/lib.sh"

CXX=${CXX:-c++}
if ! command -v "$CXX" >/dev/null 2>&1; then
    echo "# test_cxx: no $CXX: the C++ build is not checked"
    finish
fi
mkdir -p "$TMP/include"
cp $(MAKEFLAGS= make -s print-LIB_PUBLIC_HDR) "$TMP/include/"
# (libff.a built with SAN=1 wants the sanitizers at the link too)
san=
grep -q fsanitize .build-flags 2>/dev/null && san=SAN=1
flags="$(MAKEFLAGS= make -s $san print-SANFLAGS) $(MAKEFLAGS= make -s print-PNG_CFLAGS) $(MAKEFLAGS= make -s print-TILED_CFLAGS) -pthread"
libs="$(MAKEFLAGS= make -s print-LDLIBS)"
run "C++: crowd.cc builds against the public headers" 0 \
    "$CXX -std=c++11 -Wall -Wextra -Wpedantic -Werror $flags -I$TMP/include tests/cxx/crowd.cc lib/libff.a $libs -o $TMP/crowd"
for h in crowdint.h gridmove.h pibt.h lacam.h reserve.h; do
    check "internal header $h not among them" ! -e "$TMP/include/$h"
done

"$BIN/ffbuild" "$TD/gate.ffmap" | "$BIN/ffdir" >"$TMP/gate.ff"
"$BIN/ffbuild" "$TD/crowd.ffmap" | "$BIN/ffdir" >"$TMP/crowdmap.ff"
# compare NAME FIELD SCENARIO
compare() {
    run "C++: $1 runs" 0 "$TMP/crowd $2 $3 >$TMP/$1.agents 2>$TMP/$1.sum"
    "$BIN/ffsim" --summary "$TMP/$1.ffsim.sum" "$2" "$3" >"$TMP/$1.trace" 2>/dev/null
    last=$(grep -v '^#' "$TMP/$1.trace" | tail -n 1 | cut -d ' ' -f 1)
    awk -v t="$last" '$1 == t { printf "%s %s %.4f %.4f %s\n", $1, $2, $3, $4, $9 }' \
        "$TMP/$1.trace" >"$TMP/$1.want"
    check "C++: $1 has agents at its last tick ($last)" -s "$TMP/$1.want"
    same "C++: $1: the last tick's agents are ffsim's" "$TMP/$1.want" "$TMP/$1.agents"
    grep -Ev '^(run_seconds|rebuild_seconds|congestion_seconds|agent_steps_per_second) ' \
        "$TMP/$1.ffsim.sum" >"$TMP/$1.want.sum"
    check "C++: $1: a summary" "$(wc -l <"$TMP/$1.sum")" -gt 20
    same "C++: $1: the summary is ffsim's" "$TMP/$1.want.sum" "$TMP/$1.sum"
}
compare gate "$TMP/gate.ff" "$TD/gate.scenario"
compare reserve "$TMP/crowdmap.ff" "$TD/crowd.scenario"

finish
