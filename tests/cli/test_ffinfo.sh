#!/bin/sh
# ffinfo: its figures (header keys, goals and spawns, each channel's
# values, finite values, min and max, the ids) against an independent
# reading of the text stream by awk (tests/cli/ffinfo.awk), on streams of
# every channel type, x8 channels, a turn-cost field, a multi-field
# stream and a Moving AI map with classes; binary and text input give the
# same description; --name, --list, -o (atomic), '-', and refusals.
. "$(dirname "$0")/lib.sh"
CLI=$PWD/tests/cli
M=$TD/movingai/arena.map

# A hand-written stream with a channel of each type, an x8 channel of
# reals with -0 and subnormals, and a channel with no finite value.
cat >"$TMP/types.ff" <<'FF'
ff 1
name types
size 3 2
cell 0.7
origin 0.1 -2.2
moves 4
corners cut
radius 0.4
goal 0 0
goal 1 1
spawn 1 0
spawn 1 0
channel cost f32
channel heat f32
channel count u16
channel delta i32
channel big u32
channel lanes f64x8
channel none f64
channel small u8x8
encoding text
end
1 inf 2.5
0.100000001 1 inf
0.100000001 1e-40 -3.5
inf inf 3.4028234664e+38
0 65535 7
1 2 3
-2147483648 0 2147483647
-1 -1 5
4294967295 0 1
2 3 4
0 1 2 3 4 5 6 7 -0 inf 0.1 0.2 0.30000000000000004 4.9406564584124654e-324 1e300 -1e300 1 1 1 1 1 1 1 1
inf 2 2 2 2 2 2 2 9 9 9 9 9 9 9 9 -7.5 0 0 0 0 0 0 0
inf inf inf
inf inf inf
0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
255 255 255 255 255 255 255 255 0 0 0 0 0 0 0 0 1 1 1 1 1 1 1 1
FF

# json_is_text JSON TEXT: ffinfo --json read by python3's json parser
# against ffinfo's text (its format in ffinfo(1)), figure by figure, the
# numbers as numbers ("-" null); prints "ok" or what differs.
json_is_text() {
    python3 - "$1" "$2" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
blocks = open(sys.argv[2]).read().split('\n\n')
bad = []
if list(doc) != ['fields'] or len(doc['fields']) != len(blocks):
    bad.append('%d fields for %d blocks' % (len(doc.get('fields', [])), len(blocks)))
def num(t): return None if t == '-' else float(t)
def same(what, j, t):
    if t is None:
        ok = j is None
    else:
        ok = isinstance(j, (int, float)) and not isinstance(j, bool) and float(j) == t
    if not ok: bad.append('%s: %r for %r' % (what, j, t))
for f, block in zip(doc['fields'], blocks):
    chans = iter(f['channels'])
    ids = {c['name']: c['id'] for c in f['channels']}
    tc, aa = None, False
    for line in block.strip().split('\n'):
        w = line.split()
        if w[0] == 'field':
            same('field', f['field'], float(w[1]))
            if f['name'] != (None if w[2] == '-' else w[2]): bad.append('name %r' % f['name'])
        elif w[0] == 'size': same('w', f['size'][0], float(w[1])); same('h', f['size'][1], float(w[2]))
        elif w[0] == 'cell': same('cell', f['cell'], float(w[1]))
        elif w[0] == 'origin': same('x', f['origin'][0], float(w[1])); same('y', f['origin'][1], float(w[2]))
        elif w[0] in ('moves', 'radius', 'goals', 'spawns'): same(w[0], f[w[0]], float(w[1]))
        elif w[0] == 'corners':
            if f['corners'] != w[1]: bad.append('corners %r' % f['corners'])
        elif w[0] == 'turn-cost': tc = float(w[1])
        elif w[0] == 'any-angle': aa = True
        elif w[0] == 'channel':
            c = next(chans)
            lanes = 8 if w[2].endswith('x8') else 1
            if (c['name'], c['type'], c['lanes']) != (w[1], w[2][:-2] if lanes == 8 else w[2], lanes):
                bad.append('channel %r for %s' % (c, w[1:3]))
            same(w[1] + ' values', c['values'], float(w[4])); same(w[1] + ' finite', c['finite'], float(w[6]))
            same(w[1] + ' min', c['min'], num(w[8])); same(w[1] + ' max', c['max'], num(w[10]))
        elif w[0] == 'id' and w[1] == 'map':
            if f['map_id'] != w[2] or f['map_id_read'] != (w[3] == 'ok'): bad.append('map id')
        elif w[0] == 'id':
            if ids.get(w[1]) != w[2]: bad.append('id of %s' % w[1])
        else: bad.append('line %r' % line)
    same('turn_cost', f['turn_cost'], tc)
    if f['any_angle'] is not aa: bad.append('any_angle %r' % f['any_angle'])
    if next(chans, None) is not None: bad.append('more channels')
    if sum(1 for v in ids.values() if v) != sum(1 for l in block.split('\n') if l.startswith('id ') and not l.startswith('id map')):
        bad.append('ids')
print('; '.join(bad[:3]) or 'ok')
PY
}
# info NAME TEXT-STREAM: ffinfo of the stream against the oracle, and its
# --json against its text.
info() {
    run "ffinfo: $1" 0 "$BIN/ffinfo $2 >$TMP/got"
    awk -f "$CLI/ffinfo.awk" "$2" >"$TMP/want"
    awk -f "$CLI/infocmp.awk" "$TMP/got" "$TMP/want" >"$TMP/diff"
    check "ffinfo: $1: the oracle's figures ($(head -n 1 "$TMP/diff"))" $? -eq 0
    if command -v python3 >/dev/null 2>&1; then
        run "ffinfo --json: $1" 0 "$BIN/ffinfo --json $2 >$TMP/got.json"
        check "ffinfo --json: $1: the text's figures" "$(json_is_text "$TMP/got.json" "$TMP/got")" = ok
    fi
}
info "every channel type, x8 channels" "$TMP/types.ff"
"$BIN/ffbuild" -m 4 --text "$TD/demo/small.ffmap" | "$BIN/ffdir" --text >"$TMP/small.ff"
info "the 5 x 5 map" "$TMP/small.ff"
"$BIN/ffbuild" --text "$TD/demo/demo.ffmap" | "$BIN/ffdir" --text >"$TMP/demo.ff"
info "the demo map (one-way cells, spawns)" "$TMP/demo.ff"
"$BIN/ffbuild" -r 0.6 -c free -g 5,5 --text "$M" | "$BIN/ffdir" --text >"$TMP/arena.ff"
info "a Moving AI map (classes), radius 0.6" "$TMP/arena.ff"
"$BIN/ffbuild" -m 4 --turn-cost 1 --text "$TD/demo/tiny.ffmap" | "$BIN/ffdir" --text >"$TMP/turn.ff"
info "a turn-cost field (heading channels)" "$TMP/turn.ff"
"$BIN/ffbuild" --any-angle --text "$TD/anyangle/gap.ffmap" >"$TMP/aa.ff"
info "an any-angle field" "$TMP/aa.ff"
"$BIN/ffbuild" --goal-sets "$TD/demo/demo.sets" --text "$TD/demo/demo.ffmap" | "$BIN/ffdir" --text >"$TMP/sets.ff"
info "a multi-field stream" "$TMP/sets.ff"
grep -v '^id map' "$TMP/small.ff" >"$TMP/nomap.ff"
run "a stream without 'id map'" 0 "$BIN/ffinfo $TMP/nomap.ff"
check "'id map' absent, its hash computed" \
    "$(printf '%s\n' "$OUT" | grep '^id map')" = "$(grep '^id map' "$TMP/small.ff") absent"

# Hand-checked figures of the type stream: f32 in shortest form, -0 and
# subnormals, a channel of no finite value, goals and spawns without
# repeats.
"$BIN/ffinfo" "$TMP/types.ff" >"$TMP/types.info"
for want in "field 1 types" "size 3 2" "cell 0.7" "origin 0.1 -2.2" "moves 4" "corners cut" \
    "radius 0.4" "goals 2" "spawns 1" \
    "channel cost f32 values 6 finite 4 min 0.1 max 2.5" \
    "channel heat f32 values 6 finite 4 min -3.5 max 3.4028235e+38" \
    "channel count u16 values 6 finite 6 min 0 max 65535" \
    "channel delta i32 values 6 finite 6 min -2147483648 max 2147483647" \
    "channel big u32 values 6 finite 6 min 0 max 4294967295" \
    "channel lanes f64x8 values 48 finite 46 min -1e+300 max 1e+300" \
    "channel none f64 values 6 finite 0 min - max -" \
    "channel small u8x8 values 48 finite 48 min 0 max 255"; do
    check "types: '$want'" "$(grep -cxF "$want" "$TMP/types.info")" = 1
done
check "types: ids (map absent, no other)" "$(grep '^id' "$TMP/types.info" | cut -d ' ' -f 2,4)" = "map absent"

# ---- the encoding does not matter; '-' and no argument read stdin ----
"$BIN/ffbuild" --goal-sets "$TD/demo/demo.sets" "$TD/demo/demo.ffmap" | "$BIN/ffdir" >"$TMP/sets.bin"
"$BIN/ffinfo" "$TMP/sets.ff" >"$TMP/sets.text.info"
run "binary input" 0 "$BIN/ffinfo $TMP/sets.bin >$TMP/sets.bin.info"
same "binary and text: the same description" "$TMP/sets.bin.info" "$TMP/sets.text.info"
run "'-' is stdin" 0 "$BIN/ffinfo - <$TMP/sets.bin >$TMP/stdin.info"
same "'-': the same description" "$TMP/stdin.info" "$TMP/sets.text.info"
run "no argument is stdin" 0 "$BIN/ffinfo <$TMP/sets.bin >$TMP/stdin2.info"
same "no argument: the same description" "$TMP/stdin2.info" "$TMP/sets.text.info"
check "three blocks, two empty lines between" \
    "$(grep -c '^field ' "$TMP/sets.text.info") $(grep -c '^$' "$TMP/sets.text.info")" = "3 2"

# ---- --name and --list ----
run "--name yard" 0 "$BIN/ffinfo --name yard $TMP/sets.bin"
check "--name: the block of that field, its index kept" \
    "$OUT" = "$(awk '/^field 2 yard$/ { on = 1 } on && /^$/ { exit } on' "$TMP/sets.text.info")"
refuse "--name: no such field" "^ffinfo: $TMP/sets.bin: no field named 'east' among the stream's 3" \
    "$BIN/ffinfo --name east $TMP/sets.bin"
run "--list" 0 "$BIN/ffinfo --list $TMP/sets.bin"
check "--list: the names" "$OUT" = "$(printf 'gate\nyard\nexits')"
refuse "--list with --name" "^ffinfo: --list, --name: " "$BIN/ffinfo --list --name yard $TMP/sets.bin"

# ---- -o: atomic ----
run "-o" 0 "$BIN/ffinfo -o $TMP/o.info $TMP/sets.bin"
same "-o writes what stdout gets" "$TMP/o.info" "$TMP/sets.text.info"
head -c 300 "$TMP/sets.bin" >"$TMP/cut.ff"
refuse "-o: a truncated stream" "^ffinfo: $TMP/cut.ff: .*truncated" "$BIN/ffinfo -o $TMP/o.info $TMP/cut.ff"
same "-o: the earlier file survives whole" "$TMP/o.info" "$TMP/sets.text.info"
check "-o: no temporary file left" "$(ls -a "$TMP" | grep -c '^\.o\.info')" = 0
# A multi-field stream whose last field is bad: nothing at all is written.
{ cat "$TMP/sets.bin"; printf 'ff 2\n'; } >"$TMP/badlast.ff"
refuse "a bad last field: nothing on stdout" "^ffinfo: $TMP/badlast.ff:[0-9]+:1: bad magic" \
    "$BIN/ffinfo $TMP/badlast.ff"

# ---- a stale stream: the reader's refusal ----
sed '/^end/{n;s/^1/2/;}' "$TMP/small.ff" >"$TMP/stale.ff"
refuse "a hand-edited cost" "^ffinfo: $TMP/stale.ff: the map channels do not match 'id map" \
    "$BIN/ffinfo $TMP/stale.ff"
if command -v python3 >/dev/null 2>&1; then
    run "--json --name" 0 "$BIN/ffinfo --json --name yard $TMP/sets.ff >$TMP/yard.json"
    "$BIN/ffinfo" --name yard "$TMP/sets.ff" >"$TMP/yard.info"
    check "--json --name: that field alone" "$(json_is_text "$TMP/yard.json" "$TMP/yard.info")" = ok
    check "the --json checker sees a changed figure" \
        "$(sed 's/^goals .*/goals 99/' "$TMP/yard.info" >"$TMP/yard99"; json_is_text "$TMP/yard.json" "$TMP/yard99")" != ok
fi
refuse "--json --list" "^ffinfo: --list, --json: " "$BIN/ffinfo --json --list $TMP/sets.ff"
run "--help" 0 "$BIN/ffinfo --help"
check "--help names --name, --list, -o" \
    "$(printf '%s\n' "$OUT" | grep -c -e '--name NAME' -e '--list' -e '-o, --output FILE')" -ge 3
finish
