#!/bin/sh
# ffexport: the .npy read back by numpy equal to the text stream's values
# (bit for bit; dtype, shape, 64-byte alignment, and the same bytes as
# numpy.save), for channels of every type (u8 direction, u8x8 and f64x8
# heading channels, f32 cost, u16, i32, u32); its header checked byte by
# byte with od even without numpy; CSV and raw against the stream read by
# awk and od; the format's choice; --name, -o (atomic), refusals.
. "$(dirname "$0")/lib.sh"
CLI=$PWD/tests/cli
E=$BIN/ffexport

# The streams, in text for the oracles.
sed -n '/^cat >"$TMP\/types.ff" <<.FF.$/,/^FF$/p' "$CLI/test_ffinfo.sh" | sed '1d;$d' >"$TMP/types.ff"
"$BIN/ffbuild" --text "$TD/demo/demo.ffmap" | "$BIN/ffdir" --text >"$TMP/demo.ff"
"$BIN/ffbuild" -m 4 --turn-cost 1 --text "$TD/demo/tiny.ffmap" | "$BIN/ffdir" --text >"$TMP/turn.ff"
"$BIN/ffbuild" -r 0.6 -g 5,5 --text "$TD/movingai/arena.map" | "$BIN/ffdir" --text >"$TMP/arena.ff"
"$BIN/ffbuild" --goal-sets "$TD/demo/demo.sets" "$TD/demo/demo.ffmap" | "$BIN/ffdir" >"$TMP/sets.ff"
check "the type stream was found" -s "$TMP/types.ff"

# Every export of the tests: stream, channel, type.
CASES="demo.ff:distance:f64 demo.ff:direction:u8 demo.ff:cost:f32 demo.ff:oneway:u8
turn.ff:heading_direction:u8x8 turn.ff:heading_distance:f64x8 turn.ff:distance:f64
arena.ff:class:u8 arena.ff:distance:f64 types.ff:heat:f32 types.ff:count:u16
types.ff:delta:i32 types.ff:big:u32 types.ff:lanes:f64x8 types.ff:small:u8x8"

# channel_text STREAM NAME: the channel's values from the text stream,
# one a line, in stream order (awk, from ff(5)).
channel_text() {
    awk -v want="$2" '
    state == "payload" {
        if (c == target) for (k = 1; k <= NF; k++) print $k
        if (++rows == h) { rows = 0; c++ }
        next
    }
    $1 == "size" { h = $3 }
    $1 == "channel" { n++; if ($2 == want) target = n }
    $1 == "end" { state = "payload"; c = 1 }' "$TMP/$1"
}

# ---- .npy read back by numpy ----
PY=
for p in ${FF_TEST_PYTHON:-python3 /usr/bin/python3}; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' 2>/dev/null; then PY=$p; break; fi
done
cat >"$TMP/npycheck.py" <<'PY'
# npycheck.py NPY VALUES DESCR W H LANES: numpy.load(NPY) has the dtype
# DESCR, the shape (H, W) or (H, W, 8), C order, its data at a multiple
# of 64 bytes, and the values of the file VALUES (one a line, as the text
# stream writes them) bit for bit; numpy.save of it gives the same bytes.
import io, sys
import numpy
npy, values, descr, w, h, lanes = sys.argv[1:7]
w, h, lanes = int(w), int(h), int(lanes)
a = numpy.load(npy)
want_shape = (h, w) if lanes == 1 else (h, w, 8)
assert a.dtype.str == descr, (a.dtype.str, descr)
assert a.shape == want_shape, (a.shape, want_shape)
assert a.flags['C_CONTIGUOUS']
with open(npy, 'rb') as f:
    raw = f.read()
hlen = raw[8] | raw[9] << 8
assert (10 + hlen) % 64 == 0, hlen
words = open(values).read().split()
if descr[1] == 'f':
    want = numpy.array([float(x) for x in words], dtype=descr)
else:
    want = numpy.array([int(x) for x in words], dtype=descr)
assert want.size == a.size, (want.size, a.size)
assert a.reshape(-1).tobytes() == want.tobytes(), 'values differ'
buf = io.BytesIO()
numpy.save(buf, a)
assert buf.getvalue() == raw, 'numpy.save writes other bytes'
print('ok')
PY
descr_of() {
    case $1 in
    u8*) echo '|u1' ;; u16*) echo '<u2' ;; u32*) echo '<u4' ;; i32*) echo '<i4' ;;
    f32*) echo '<f4' ;; f64*) echo '<f8' ;;
    esac
}
size_of() {  # W H of a text stream
    awk '$1 == "size" { print $2, $3; exit }' "$TMP/$1"
}
for c in $CASES; do
    s=${c%%:*} rest=${c#*:}
    ch=${rest%%:*} type=${rest#*:}
    lanes=1
    case $type in *x8) lanes=8 ;; esac
    run "--npy $s -c $ch" 0 "$E --npy -c $ch $TMP/$s >$TMP/out.npy"
    channel_text "$s" "$ch" >"$TMP/values"
    # The header, byte by byte, from od: magic, version 1.0, the dict.
    set -- $(size_of "$s")
    w=$1 h=$2
    shape="($h, $w)"
    [ "$lanes" = 8 ] && shape="($h, $w, 8)"
    dict="{'descr': '$(descr_of "$type")', 'fortran_order': False, 'shape': $shape, }"
    hlen=$(od -An -t u1 -j 8 -N 2 "$TMP/out.npy" | awk '{ print $1 + 256 * $2 }')
    check "$s $ch: the magic and version 1.0" \
        "$(od -An -c -N 8 "$TMP/out.npy" | tr -s ' ')" = " 223 N U M P Y 001 \\0"
    check "$s $ch: the header ends at a multiple of 64" "$(((10 + hlen) % 64))" = 0
    check "$s $ch: the dict, blanks, a newline" \
        "$(tail -c +11 "$TMP/out.npy" | head -c "$hlen" | sed 's/ *$//')" = "$dict"
    check "$s $ch: the size" "$(wc -c <"$TMP/out.npy")" = \
        "$((10 + hlen + $(wc -l <"$TMP/values") * $(case $type in u8*) echo 1 ;; u16*) echo 2 ;; f64*) echo 8 ;; *) echo 4 ;; esac)))"
    if [ -n "$PY" ]; then
        run "numpy.load: $s $ch ($type)" 0 "$PY $TMP/npycheck.py $TMP/out.npy $TMP/values '$(descr_of "$type")' $w $h $lanes"
        check "numpy.load: $s $ch: equal to the stream, bit for bit" "$OUT" = ok
    fi
done
[ -n "$PY" ] || echo "# python3-numpy not found (Debian package python3-numpy): the numpy.load checks are skipped"

# ---- raw: od reads the values back (little-endian host) ----
little=$(printf '\001\000' | od -An -t u2 | tr -d ' ')
for c in $CASES; do
    s=${c%%:*} rest=${c#*:}
    ch=${rest%%:*} type=${rest#*:}
    t=$(case ${type%x8} in u8) echo u1 ;; u16) echo u2 ;; u32) echo u4 ;; i32) echo d4 ;;
        f32) echo f4 ;; f64) echo f8 ;; esac)
    run "--raw $s -c $ch" 0 "$E --raw -c $ch $TMP/$s >$TMP/out.raw"
    channel_text "$s" "$ch" >"$TMP/values"
    if [ "$little" = 1 ]; then
        od -An -v -t "$t" -w"$(case $t in ?1) echo 1 ;; ?2) echo 2 ;; ?4) echo 4 ;; *) echo 8 ;; esac)" \
            "$TMP/out.raw" | awk '{ print $1 }' >"$TMP/back"
        # Equal as numbers: exact for integers and f64 (od writes the
        # shortest form), within the 9-digit text's rounding for f32.
        paste "$TMP/values" "$TMP/back" | awk -v f32="$([ "$t" = f4 ] && echo 1)" '
            { a = $1 + 0; b = $2 + 0; if ($1 == $2 || a == b) next
              if (f32 && (a - b) * (a - b) <= 4e-15 * a * a) next
              bad++ } END { exit bad > 0 || NR == 0 }'
        check "raw $s $ch: od reads back the stream's values" $? -eq 0
    fi
    check "raw $s $ch: nothing but the values" "$(wc -c <"$TMP/out.raw")" = \
        "$(($(wc -l <"$TMP/values") * $(case $t in ?1) echo 1 ;; ?2) echo 2 ;; ?4) echo 4 ;; *) echo 8 ;; esac)))"
done
[ "$little" = 1 ] || echo "# a big-endian host: od reads the host's order, the raw value checks are skipped"
# Byte by byte: the f32 1 is 00 00 80 3f, +inf 00 00 80 7f, whatever the host.
printf 'ff 1\nsize 2 1\nchannel cost f32\nencoding text\nend\n1 inf\n' >"$TMP/two.ff"
run "raw bytes" 0 "$E --raw -c cost $TMP/two.ff | od -An -t x1"
check "raw: little-endian bytes" "$(printf '%s' "$OUT" | tr -s ' ')" = " 00 00 80 3f 00 00 80 7f"

# ---- CSV: the stream's values, x and y, shortest forms ----
for c in $CASES; do
    s=${c%%:*} rest=${c#*:}
    ch=${rest%%:*} type=${rest#*:}
    run "--csv $s -c $ch" 0 "$E --csv -c $ch $TMP/$s >$TMP/out.csv"
    channel_text "$s" "$ch" >"$TMP/values"
    set -- $(size_of "$s")
    case $type in
    *x8) head='x,y,lane,value' lanes=8 ;;
    *) head='x,y,value' lanes=1 ;;
    esac
    check "csv $s $ch: the header line" "$(head -n 1 "$TMP/out.csv")" = "$head"
    tail -n +2 "$TMP/out.csv" | paste -d, - "$TMP/values" | awk -F, -v w="$1" -v lanes="$lanes" \
        -v f32="$(case $type in f32*) echo 1 ;; esac)" '
        { k = NR - 1; cell = int(k / lanes); x = cell % w; y = int(cell / w)
          if ($1 != x || $2 != y) { bad++; next }
          if (lanes == 8 && $3 != k % 8) { bad++; next }
          v = $(NF - 1); want = $NF
          if (v == want || v + 0 == want + 0) next
          if (f32 && want != "inf" && (v - want) * (v - want) <= 4e-15 * want * want) next
          bad++ }
        END { exit bad > 0 || NR == 0 }'
    check "csv $s $ch: x, y and the stream's values" $? -eq 0
    check "csv $s $ch: one line per value" "$(($(wc -l <"$TMP/out.csv") - 1))" = "$(wc -l <"$TMP/values")"
done
# Shortest forms that read back: an f32 0.1 is 0.1, an f64 0.1+0.2 keeps 17 digits.
run "csv f32" 0 "$E --csv -c cost $TMP/types.ff"
check "csv: f32 0.1 as 0.1, inf as inf" "$(printf '%s\n' "$OUT" | sed -n '4p;5p' | tr '\n' ' ')" = "2,0,2.5 0,1,0.1 "
check "csv: +inf as inf" "$(printf '%s\n' "$OUT" | sed -n 3p)" = "1,0,inf"
run "csv f64x8" 0 "$E --csv -c lanes $TMP/types.ff"
check "csv: 0.30000000000000004 and 5e-324 kept exact" \
    "$(printf '%s\n' "$OUT" | sed -n '14p;15p' | tr '\n' ' ')" = "1,0,4,0.30000000000000004 1,0,5,5e-324 "

# ---- the format: the option, else -o's extension, else .npy ----
"$E" --npy "$TMP/demo.ff" >"$TMP/want.npy"
"$E" --csv "$TMP/demo.ff" >"$TMP/want.csv"
"$E" --raw "$TMP/demo.ff" >"$TMP/want.raw"
run "stdout: .npy by default" 0 "$E $TMP/demo.ff >$TMP/def.npy"
same "the default is .npy" "$TMP/def.npy" "$TMP/want.npy"
for ext in npy csv raw; do
    run "-o x.$ext" 0 "$E -o $TMP/x.$ext $TMP/demo.ff"
    same "-o x.$ext: that format" "$TMP/x.$ext" "$TMP/want.$ext"
done
run "-o X.CSV" 0 "$E -o $TMP/X.CSV $TMP/demo.ff"
same "the extension in any case" "$TMP/X.CSV" "$TMP/want.csv"
run "--csv -o x.npy: the option wins" 0 "$E --csv -o $TMP/y.npy $TMP/demo.ff"
same "the option wins over the extension" "$TMP/y.npy" "$TMP/want.csv"
refuse "-o x.txt: no format" "^ffexport: -o '$TMP/x.txt': the name ends in none of .npy, .csv, .raw: give --npy, --csv or --raw" \
    "$E -o $TMP/x.txt $TMP/demo.ff"
check "-o x.txt: no file" ! -e "$TMP/x.txt"
run "--raw -o x.txt" 0 "$E --raw -o $TMP/x.txt $TMP/demo.ff"
same "--raw -o x.txt: raw" "$TMP/x.txt" "$TMP/want.raw"
refuse "two formats" "^ffexport: --npy, --csv: give one format" "$E --npy --csv $TMP/demo.ff"
run "the same format twice" 0 "$E --csv --csv $TMP/demo.ff >$TMP/twice.csv"
same "the same format twice: that format" "$TMP/twice.csv" "$TMP/want.csv"

# ---- fields, channels, stdin ----
refuse "a multi-field stream without --name" "^ffexport: $TMP/sets.ff: the stream holds 3 fields \(gate, yard, exits\): choose one with --name" \
    "$E $TMP/sets.ff"
run "--name yard" 0 "$E --csv --name yard $TMP/sets.ff >$TMP/yard.csv"
"$BIN/ffbuild" --name yard -g 32,5 "$TD/demo/demo.ffmap" | "$E" --csv >"$TMP/yard-alone.csv"
same "--name: that field's channel" "$TMP/yard.csv" "$TMP/yard-alone.csv"
refuse "--name: no such field" "^ffexport: $TMP/sets.ff: no field named 'east'" "$E --name east $TMP/sets.ff"
run "--list" 0 "$E --list $TMP/sets.ff"
check "--list: the names" "$OUT" = "$(printf 'gate\nyard\nexits')"
"$BIN/ffbuild" -m 4 "$TD/demo/small.ffmap" >"$TMP/small.ff"
refuse "no such channel" "^ffexport: $TMP/small.ff: no channel 'direction' \(channels: cost, distance\)" \
    "$E -c direction $TMP/small.ff"
"$BIN/ffbuild" --text "$TD/demo/small.ffmap" | sed -e '/^channel distance/d' -e '/^id distance/d' \
    -e '/^end/,$!b' -e '/^end/{n;n;n;n;n;q;}' >"$TMP/nodist.ff"
refuse "no distance channel" "^ffexport: $TMP/nodist.ff: the field has no distance channel: name one with -c \(channels: cost\)" \
    "$E $TMP/nodist.ff"
run "'-' is stdin" 0 "$E --csv - <$TMP/demo.ff >$TMP/stdin.csv"
same "'-': the same export" "$TMP/stdin.csv" "$TMP/want.csv"
"$BIN/ffbuild" "$TD/demo/demo.ffmap" | "$BIN/ffdir" >"$TMP/demo.bin"
run "binary input" 0 "$E --csv $TMP/demo.bin >$TMP/bin.csv"
same "binary and text input: the same export" "$TMP/bin.csv" "$TMP/want.csv"

# ---- -o is atomic ----
cp "$TMP/want.npy" "$TMP/keep.npy"
refuse "-o: a refused channel" "no channel 'nope'" "$E -c nope -o $TMP/keep.npy $TMP/demo.ff"
same "-o: the earlier file survives whole" "$TMP/keep.npy" "$TMP/want.npy"
sed '/^end/{n;s/^1/2/;}' "$TMP/turn.ff" >"$TMP/stale.ff"
refuse "-o: a stale stream" "^ffexport: $TMP/stale.ff: the map channels do not match" \
    "$E -o $TMP/keep.npy $TMP/stale.ff"
same "-o: still whole" "$TMP/keep.npy" "$TMP/want.npy"
check "-o: no temporary file left" "$(ls -a "$TMP" | grep -c '^\.keep')" = 0
# ---- --all: every field in one pass, one file per field ----
# Each file byte for byte the export of its field alone (--name), in each
# format; the stream read once (from a pipe); --name picks some; fields
# without a name are field-N; refusals leave the folder empty.
for fmt in npy csv raw; do
    rm -rf "$TMP/all"
    run "--all --$fmt" 0 "cat $TMP/sets.ff | $E --all --$fmt -o $TMP/all"
    check "--all --$fmt: one file per field" "$(ls "$TMP/all" | tr '\n' ' ')" = "exits.$fmt gate.$fmt yard.$fmt "
    for f in gate yard exits; do
        "$E" --$fmt --name $f "$TMP/sets.ff" >"$TMP/one.$fmt"
        same "--all --$fmt: $f is its export alone" "$TMP/one.$fmt" "$TMP/all/$f.$fmt"
    done
done
rm -rf "$TMP/all"
run "--all -c direction --name yard --name gate" 0 "$E --all -c direction --name yard --name gate -o $TMP/all $TMP/sets.ff"
check "--all --name: those named" "$(ls "$TMP/all" | tr '\n' ' ')" = "gate.npy yard.npy "
"$E" -c direction --name yard "$TMP/sets.ff" >"$TMP/one.npy"
same "--all -c direction: yard's direction" "$TMP/one.npy" "$TMP/all/yard.npy"
rm -rf "$TMP/all"
("$BIN/ffbuild" -m 4 -g 0,0 "$TD/demo/small.ffmap"; "$BIN/ffbuild" -m 4 -g 4,4 "$TD/demo/small.ffmap") >"$TMP/two.ff"
run "--all: fields without a name" 0 "$E --all --csv -o $TMP/all $TMP/two.ff"
check "--all: field-1 and field-2" "$(ls "$TMP/all" | tr '\n' ' ')" = "field-1.csv field-2.csv "
check "--all: field-2's goal at 4,4" "$(grep -c '^4,4,0$' "$TMP/all/field-2.csv")" = 1
check "--all: no temporary file left" "$(ls -a "$TMP/all" | grep -c '^\.')" = 2
# Refused, with nothing in the folder: a name no field has, a field
# without the channel, two fields of one name, a stream whose last field
# is malformed (the others read well), an empty stream.
mkdir -p "$TMP/none"
refuse "--all: an unknown --name" "^ffexport: $TMP/sets.ff: no field named 'nope' among the stream's 3" \
    "$E --all --name yard --name nope -o $TMP/none $TMP/sets.ff"
check "--all: an unknown --name writes nothing" -z "$(ls -A "$TMP/none")"
("$BIN/ffbuild" --name a -g 0,0 "$TD/demo/small.ffmap" | "$BIN/ffdir"; "$BIN/ffbuild" --name b -g 4,4 "$TD/demo/small.ffmap") >"$TMP/mixed.ff"
refuse "--all: a field without the channel" "^ffexport: $TMP/mixed.ff: field 2 \\(b\\) has no channel 'direction' \\(channels: cost, distance\\)$" \
    "$E --all -c direction -o $TMP/none $TMP/mixed.ff"
check "--all: a field without the channel writes nothing" -z "$(ls -A "$TMP/none")"
cat "$TMP/two.ff" "$TMP/two.ff" | sed 's/^end$/name twin\nend/' >"$TMP/twins.ff"
refuse "--all: two fields of one name" "^ffexport: $TMP/twins.ff: fields 1 and 2 would both be $TMP/none/twin.npy" \
    "$E --all -o $TMP/none $TMP/twins.ff"
check "--all: two fields of one name write nothing" -z "$(ls -A "$TMP/none")"
(cat "$TMP/sets.ff"; printf 'ff 1\nsize 2\n') >"$TMP/bad-last.ff"
refuse "--all: a malformed last field" "^ffexport: $TMP/bad-last.ff:" "$E --all -o $TMP/none $TMP/bad-last.ff"
check "--all: a malformed last field writes nothing" -z "$(ls -A "$TMP/none")"
: >"$TMP/empty.ff"
refuse "--all: an empty stream" "empty input" "$E --all -o $TMP/none $TMP/empty.ff"
refuse "--all without -o" "^ffexport: --all: it writes a file per field: give -o DIR" "$E --all $TMP/sets.ff"
refuse "--all -o -" "^ffexport: --all: it writes a file per field: give -o DIR" "$E --all -o - $TMP/sets.ff"
refuse "--all --list" "^ffexport: --all, --list: give one" "$E --all --list -o $TMP/none $TMP/sets.ff"
refuse "two --name without --all" "^ffexport: --name: one field, or several with --all" "$E --name yard --name gate $TMP/sets.ff"
: >"$TMP/file"
refuse "--all -o FILE" "^ffexport: $TMP/file: not a folder" "$E --all -o $TMP/file $TMP/sets.ff"
refuse "--all: a folder in a missing folder is bad input" \
    "^ffexport: $TMP/no/such: cannot create the folder: No such file or directory\$" "$E --all -o $TMP/no/such $TMP/sets.ff"
run "--help" 0 "$E --help"
check "--help names every option" \
    "$(printf '%s\n' "$OUT" | grep -c -e '--channel NAME' -e '--name FIELD' -e '--npy' -e '--csv' -e '--raw' -e '--list' -e '--output FILE')" -ge 7
finish
