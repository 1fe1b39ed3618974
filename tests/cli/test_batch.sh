#!/bin/sh
# Batch preprocessing: ffbuild --goal-sets against separate runs, -j, --split,
# --list, refusals; the README's "Batch and CI" recipes (make -j, GNU
# parallel, parallel --sshlogin on this machine, the spawn check).
# make install and programs built against it: tests/cli/test_install.sh.
. "$(dirname "$0")/lib.sh"
ROOT=$PWD
BT=$TD/batch
MAP=$TD/movingai/den312d.map
SETS=$BT/maps/den312d.sets

# ---- 20 sets in one run = 20 separate runs, byte for byte ----

# The sets, one "name goal goal ..." a line, comments and blanks dropped.
sed 's/#.*//' "$SETS" | awk 'NF' >"$TMP/sets.list"
check "20 sets in the test file" "$(wc -l <"$TMP/sets.list")" -eq 20
mkdir -p "$TMP/sep" "$TMP/plain"
: >"$TMP/sep.all"
while read -r name goals; do
    gopts=$(printf '%s\n' $goals | sed 's/^/-g /' | tr '\n' ' ')
    "$BIN/ffbuild" --name "$name" $gopts "$MAP" >"$TMP/sep/$name.ff"
    "$BIN/ffbuild" $gopts "$MAP" >"$TMP/plain/$name.ff"
    cat "$TMP/sep/$name.ff" >>"$TMP/sep.all"
done <"$TMP/sets.list"

for j in 1 2 3; do
    run "--goal-sets -j $j" 0 "$BIN/ffbuild --goal-sets $SETS -j $j $MAP >$TMP/multi$j.ff"
    same "-j $j: the 20 fields of 20 separate runs" "$TMP/multi$j.ff" "$TMP/sep.all"
done
run "--goal-sets, default -j" 0 "$BIN/ffbuild --goal-sets $SETS $MAP >$TMP/multid.ff"
same "default -j: the same bytes" "$TMP/multid.ff" "$TMP/sep.all"

# A run without --name differs from a named field only by the name line.
n=0
while read -r name goals; do
    skip=$((12 + ${#name}))  # "ff 1\n" + "name NAME\n", then the rest
    { head -c 5 "$TMP/sep/$name.ff"; tail -c +"$skip" "$TMP/sep/$name.ff"; } >"$TMP/stripped"
    cmp -s "$TMP/stripped" "$TMP/plain/$name.ff" && n=$((n + 1))
done <"$TMP/sets.list"
check "unnamed separate runs = the fields without their name line" "$n" -eq 20
check "the name is the field's second line" \
    "$(head -n 2 "$TMP/sep/cap_03.ff" | tail -n 1)" = "name cap_03"

# --split: one file per set, the same bytes as the named separate run.
run "--split" 0 "$BIN/ffbuild --goal-sets $SETS --split $TMP/split -j 2 $MAP"
check "--split writes nothing on stdout" -z "$OUT"
n=0
while read -r name goals; do
    cmp -s "$TMP/split/$name.ff" "$TMP/sep/$name.ff" && n=$((n + 1))
done <"$TMP/sets.list"
check "--split: 20 files equal to the separate runs" "$n" -eq 20
check "--split: nothing else in the folder" "$(ls -A "$TMP/split" | wc -l)" -eq 20
run "--split into an existing folder" 0 "$BIN/ffbuild --goal-sets $SETS --split $TMP/split -j 1 $MAP"
same "--split again: same file" "$TMP/split/gate_00.ff" "$TMP/sep/gate_00.ff"

# --list, and names through ffdir.
awk '{print $1}' "$TMP/sets.list" >"$TMP/names"
run "ffbuild --list" 0 "$BIN/ffbuild --goal-sets $SETS --list $MAP"
check "ffbuild --list prints the names in order" "$OUT" = "$(cat "$TMP/names")"
run "ffdir on a multi-field stream" 0 "$BIN/ffdir $TMP/multi1.ff >$TMP/dirs.ff"
run "ffdir --list" 0 "$BIN/ffdir --list $TMP/dirs.ff"
check "ffdir keeps every name, in order" "$OUT" = "$(cat "$TMP/names")"
run "ffdir --list of an unnamed field" 0 "$BIN/ffdir --list $TMP/plain/gate_00.ff"
check "an unnamed field lists as -" "$OUT" = "-"
run "--text multi-field" 0 "$BIN/ffbuild --goal-sets $SETS --text -j 2 $MAP | $BIN/ffdir >$TMP/dirs_t.ff"
same "text and binary multi-field streams give the same fields" "$TMP/dirs.ff" "$TMP/dirs_t.ff"
check "text stream has 20 headers" \
    "$("$BIN/ffbuild" --goal-sets "$SETS" --text "$MAP" | grep -c '^ff 1$')" -eq 20
# The fields differ from each other (each has its own goals).
check "two sets, two distance ids" \
    "$("$BIN/ffdir" --text "$TMP/split/gate_00.ff" | grep '^id distance')" != \
    "$("$BIN/ffdir" --text "$TMP/split/cap_01.ff" | grep '^id distance')"
run "-o multi-field" 0 "$BIN/ffbuild --goal-sets $SETS -o $TMP/o.ff $MAP"
same "-o writes the same stream" "$TMP/o.ff" "$TMP/sep.all"
run "goal sets from stdin" 0 "$BIN/ffbuild --goal-sets - $MAP <$SETS >$TMP/stdin.ff"
same "goal sets from stdin: same stream" "$TMP/stdin.ff" "$TMP/sep.all"

# With a radius: the clearance is applied once, before the goals.
printf 'a 27,24\nb 46,23 39,39\n' >"$TMP/r.sets"
"$BIN/ffbuild" -r 0.9 -m 4 --name a -g 27,24 "$MAP" >"$TMP/ra.ff"
"$BIN/ffbuild" -r 0.9 -m 4 --name b -g 46,23 -g 39,39 "$MAP" >>"$TMP/ra.ff"
run "--goal-sets with -r and -m" 0 "$BIN/ffbuild -r 0.9 -m 4 --goal-sets $TMP/r.sets -j 2 $MAP >$TMP/rb.ff"
same "radius and moves apply to every set" "$TMP/rb.ff" "$TMP/ra.ff"

# ---- refusals: one line with file:line:col, exit 2, nothing written ----

Y=$BT/maps/yard.map
printf 'a 1,1\nb 2,1\na 3,1\n' >"$TMP/rep.sets"
refuse "repeated name" "^ffbuild: $TMP/rep.sets:3:1: set 'a' repeated \(first on line 1\)$" \
    "$BIN/ffbuild --goal-sets $TMP/rep.sets $Y"
printf 'a 1,1\n# wall\nb 2,1   0,0\n' >"$TMP/wall.sets"
refuse "goal on a wall" "^ffbuild: $TMP/wall.sets:3:9: goal 0,0 is on a blocked cell$" \
    "$BIN/ffbuild --goal-sets $TMP/wall.sets $Y"
printf 'a 12,1\n' >"$TMP/out.sets"
refuse "goal outside" "^ffbuild: $TMP/out.sets:1:3: goal 12,1 is outside the 12x8 map$" \
    "$BIN/ffbuild --goal-sets $TMP/out.sets $Y"
printf 'a 1,1\n../evil 2,1\n' >"$TMP/evil.sets"
refuse "unsafe name" "^ffbuild: $TMP/evil.sets:2:1: bad set name '\.\./evil'" \
    "$BIN/ffbuild --goal-sets $TMP/evil.sets --split $TMP/evil $Y"
check "a refused --split run creates no folder" ! -e "$TMP/evil"
printf 'a/b 1,1\n' >"$TMP/slash.sets"
refuse "name with a slash" "^ffbuild: $TMP/slash.sets:1:1: bad set name 'a/b'" \
    "$BIN/ffbuild --goal-sets $TMP/slash.sets $Y"
printf 'a 1,1\nb\n' >"$TMP/empty.sets"
refuse "set without goals" "^ffbuild: $TMP/empty.sets:2: set 'b' has no goals" \
    "$BIN/ffbuild --goal-sets $TMP/empty.sets $Y"
printf 'a 1;1\n' >"$TMP/syntax.sets"
refuse "goal not X,Y" "^ffbuild: $TMP/syntax.sets:1:3: bad goal '1;1' in set 'a'" \
    "$BIN/ffbuild --goal-sets $TMP/syntax.sets $Y"
printf '# nothing\n' >"$TMP/none.sets"
refuse "no set at all" "^ffbuild: $TMP/none.sets: no goal set" \
    "$BIN/ffbuild --goal-sets $TMP/none.sets $Y"
printf 'a 1,1\n' >"$TMP/r1.sets"
refuse "goal closed by the radius" \
    "^ffbuild: $TMP/r1.sets:1:3: goal 1,1 is on a blocked cell \(closed by the clearance radius\)" \
    "$BIN/ffbuild -r 0.6 --goal-sets $TMP/r1.sets $Y"
refuse "missing goal-sets file" "^ffbuild: $TMP/nofile: cannot open" \
    "$BIN/ffbuild --goal-sets $TMP/nofile $Y"
refuse "-j 0" "^ffbuild: --jobs '0': not a whole number 1 to 1024 \\(see ffbuild --help\\)$" "$BIN/ffbuild --goal-sets $SETS -j 0 $MAP"
refuse "-j x" "^ffbuild: --jobs 'x': not a whole number" "$BIN/ffbuild --goal-sets $SETS -j x $MAP"
refuse "--goal-sets with -g" "^ffbuild: --goal-sets: it names its own goals" \
    "$BIN/ffbuild --goal-sets $SETS -g 1,1 $MAP"
refuse "--split without --goal-sets" "^ffbuild: --split, --list: they need --goal-sets" \
    "$BIN/ffbuild -g 30,30 --split $TMP/s2 $MAP"
refuse "--split with -o" "^ffbuild: --split: it writes files in its folder" \
    "$BIN/ffbuild --goal-sets $SETS --split $TMP/s2 -o $TMP/s2.ff $MAP"
refuse "bad --name" "^ffbuild: --name 'a b': not 1 to 63" "$BIN/ffbuild --name 'a b' -g 30,30 $MAP"
refuse "map and sets both on stdin" "^ffbuild: -: the map and the goal sets cannot both be" \
    "$BIN/ffbuild --goal-sets - <$SETS"
: >"$TMP/afile"
refuse "--split onto a file" "^ffbuild: $TMP/afile: not a folder" \
    "$BIN/ffbuild --goal-sets $SETS --split $TMP/afile $MAP"
refuse "-o with refused sets" "repeated" "$BIN/ffbuild --goal-sets $TMP/rep.sets -o $TMP/no.ff $Y"
check "no -o file from a refused run" ! -e "$TMP/no.ff"
head -c 150000 "$TMP/dirs.ff" >"$TMP/trunc.ff"
refuse "ffdir --list of a truncated stream" "^ffdir: $TMP/trunc.ff: byte [0-9]+: truncated" \
    "$BIN/ffdir --list $TMP/trunc.ff"
refuse "ffdir --list of nothing" "^ffdir: -: empty input" "$BIN/ffdir --list </dev/null"
if [ -w /dev/full ]; then
    run "--goal-sets onto a full disk" 3 "$BIN/ffbuild --goal-sets $SETS -j 2 $MAP >/dev/full"
fi
run "--help names --goal-sets" 0 "$BIN/ffbuild --help | grep -c -- '--goal-sets FILE'"

# ---- the README's recipes, as written, on a folder of testdata/ maps ----

# Each recipe file is quoted whole in the README.
for r in bake.mk bake-parallel.sh bake-spread.sh check-spawns.sh; do
    awk -v f="$BT/$r" 'BEGIN { while ((getline l < f) > 0) want = want l "\n" }
        { all = all $0 "\n" } END { exit index(all, want) == 0 }' "$ROOT/README.md"
    check "README quotes testdata/batch/$r" $? -eq 0
done

# The recipes run as the README says, from testdata/batch/ (a copy of it,
# as it is): every map with goal sets there has its .map beside them, so
# that each recipe bakes all four (arena, arena2, den312d, yard).
MAPS="arena arena2 den312d yard"
check "testdata/batch/maps: four goal sets" \
    "$(cd "$BT/maps" && ls *.sets | sed 's/\.sets$//' | tr '\n' ' ')" = "$MAPS "
for b in $MAPS; do
    check "testdata/batch/maps: $b.map beside $b.sets" -f "$BT/maps/$b.map"
done
for b in arena arena2 den312d; do
    same "testdata/batch/maps/$b.map is the Moving AI map" "$BT/maps/$b.map" "$TD/movingai/$b.map"
done
W=$TMP/work
cp -R "$BT" "$W"
PATH=$BIN:$PATH
export PATH
for b in $MAPS; do
    "$BIN/ffbuild" --goal-sets "$W/maps/$b.sets" "$W/maps/$b.map" | "$BIN/ffdir" >"$TMP/want-$b.ff"
done
# Same fields wherever they were made: compare a recipe's fields/ with the
# direct runs, map by map.
compare_fields() {
    for b in $MAPS; do
        check "$1: fields/$b.ff made" -s "$W/fields/$b.ff"
        same "$1: fields/$b.ff as made directly" "$W/fields/$b.ff" "$TMP/want-$b.ff"
    done
    check "$1: nothing else in fields/" "$(ls -A "$W/fields" | wc -l)" -eq 4
}
run "make -j2 -f bake.mk" 0 "cd $W && make -s -j2 -f bake.mk"
compare_fields "make -j2"
run "make again: nothing to do" 0 "cd $W && make -j2 -f bake.mk"
check "make again ran no ffbuild" "$(printf '%s\n' "$OUT" | grep -c ffbuild)" -eq 0
check "the den312d fields keep the set names" \
    "$("$BIN/ffdir" --list "$W/fields/den312d.ff")" = "$(cat "$TMP/names")"
rm -rf "$W/fields"

if ! command -v parallel >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq parallel >/dev/null 2>&1
fi
if parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
    run "GNU parallel recipe" 0 "cd $W && sh bake-parallel.sh"
    compare_fields "GNU parallel"
    rm -rf "$W/fields"
    run "parallel --sshlogin recipe, on this machine" 0 "cd $W && sh bake-spread.sh"
    compare_fields "parallel --sshlogin :"
    check "--sshlogin : left the maps in place" "$(ls "$W/maps" | wc -l)" -eq 16
    rm -rf "$W/fields"
    mv "$W/maps/arena.sets" "$W/arena.sets"
    run "GNU parallel recipe fails when a job fails" 1 "cd $W && sh bake-parallel.sh 2>/dev/null"
    mv "$W/arena.sets" "$W/maps/arena.sets"
    rm -rf "$W/fields"
else
    echo "# GNU parallel not found (Debian package parallel; not root to install it): the parallel recipes are skipped"
fi

if "$BIN/ffquery" --help 2>/dev/null | grep -q -- '--check'; then
    run "spawn check passes" 0 "cd $W && sh check-spawns.sh"
    check "spawn check is silent when all reach" -z "$OUT"
    printf '3 3\n' >>"$W/maps/yard.spawns"
    run "spawn check fails on a spawn in a closed pocket" 1 "cd $W && sh check-spawns.sh"
    check "spawn check names the map and the cell" \
        "$OUT" = "maps/yard.map: spawn cannot reach the goal: 3 3 unreachable"
    printf '7 6\n' >"$W/maps/yard.spawns"
    run "spawn check: a spawn on a wall" 1 "cd $W && sh check-spawns.sh"
    check "spawn check names it blocked" \
        "$OUT" = "maps/yard.map: spawn cannot reach the goal: 7 6 blocked"
    printf '1 2 3\n' >"$W/maps/yard.spawns"
    run "spawn check: a bad spawns file is an error" 2 "cd $W && sh check-spawns.sh"
    cp "$BT/maps/yard.spawns" "$W/maps/yard.spawns"
else
    echo "# ffquery --check not available yet: the spawn check recipe is skipped"
fi

finish
