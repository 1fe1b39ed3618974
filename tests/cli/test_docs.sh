#!/bin/sh
# The documentation says what the code does: every EXAMPLES command of
# every page (as mandoc renders it, to be pasted) and the README runs as
# written and prints what the page shows, and leaves nothing behind in
# the tree; the pages list the options that --help lists; an ff reader written from ff(5) alone
# reproduces the ids; make demo's script runs; mandoc -Tlint is clean.
. "$(dirname "$0")/lib.sh"
ROOT=$PWD
# Every page of the tree, each section.
PAGES=$(ls man/man*/*.[1-9])

# The examples run "from the top of the source tree", each page's (and the
# README's) in a pristine copy of it of their own: testdata/ and man/
# copied, bin/ a link to the programs, which are on PATH.  Afterwards the
# copy must hold exactly the files it held before, each unchanged: the
# examples leave nothing in the source tree (the pages remove what they
# write) and need no file of another page's.  make demo's script runs in
# a copy too.
PAGE_ROOT=$TMP/page
fresh_copy() {  # fresh_copy DIR: the tree's documented inputs in DIR
    rm -rf "$1" && mkdir -p "$1" && cp -R "$TD" "$1/testdata" && cp -R "$ROOT/man" "$1/man" &&
        rm -rf "$1/testdata/demo/out" && ln -s "$BIN" "$1/bin"
}
listing() {  # every folder and file of the copy but bin/, with a checksum of each file
    (cd "$PAGE_ROOT" && find . -path ./bin -prune -o -type d -print -o -type f -exec cksum {} + | sort)
}
NPAGES=0
end_page() {
    NPAGES=$((NPAGES + 1))
    listing >"$TMP/after"
    if cmp -s "$TMP/before" "$TMP/after"; then
        pass "$1: its examples leave the tree as they found it"
    else
        fail "$1: its examples leave the tree as they found it" \
            "$(diff "$TMP/before" "$TMP/after" | grep '^[<>]' | head -n 6 | tr '\n' ' ')"
    fi
}
SAND=$TMP/root
fresh_copy "$SAND"

# Split the examples into $TMP/ex/N.cmd and N.want: a line "$ CMD" starts a
# command, "> MORE" continues it, other lines are what it prints (stdout
# and stderr); N.src names the page.  Markdown: the fenced blocks.
mkdir -p "$TMP/ex"
extract() {  # extract MARKDOWN SRC
    awk -v dir="$TMP/ex" -v src="$2" '
    function start(cmd) {
        n = 0
        while ((getline c < (dir "/count")) > 0) n = c
        close(dir "/count")
        n++
        print n > (dir "/count"); close(dir "/count")
        file = dir "/" n
        printf "%s\n", src > (file ".src"); close(file ".src")
        printf "%s\n", cmd > (file ".cmd")
        printf "" > (file ".want")
    }
    /^```/ { lit = !lit; file = ""; next }
    !lit { next }
    /^\$ / { start(substr($0, 3)); next }
    /^> / && file != "" { printf "%s\n", substr($0, 3) >> (file ".cmd"); next }
    file != "" { printf "%s\n", $0 >> (file ".want") }' "$1"
}
# A page's EXAMPLES as its reader sees them, to paste: rendered by
# mandoc -Tascii (overstrike removed, tabs expanded), the literal blocks
# (.Bd -literal -offset indent: 11 columns in) between ``` fences, the
# prose dropped.  A blank line inside a block belongs to what a command
# prints; the blank lines before the next command or the prose do not.
# Without mandoc, the mdoc source, its three escapes undone (no other is
# used in the examples: checked below).
examples_md() {
    if [ -n "$MANDOC" ]; then
        mandoc -Tascii "$1" | col -bx | awk '
        /^[^ ]/ { if (lit) print "```"; lit = 0; inex = ($0 == "EXAMPLES"); next }
        !inex { next }
        /^$/ { if (lit) blank++; next }
        /^           / {
            line = substr($0, 12)
            if (!lit) { print "```"; lit = 1 }
            else if (line !~ /^\$ /) for (; blank > 0; blank--) print ""
            blank = 0
            print line
            next
        }
        { if (lit) print "```"; lit = 0; blank = 0 }
        END { if (lit) print "```" }'
    else
        awk '/^\.Sh / { inex = ($0 == ".Sh EXAMPLES"); next }
        inex && /^\.Bd -literal/ { print "```"; lit = 1; next }
        inex && /^\.Ed/ { print "```"; lit = 0; next }
        lit { gsub(/\\&/, ""); gsub(/\\-/, "-"); gsub(/\\e/, "\\"); print }' "$1"
    fi
}
# What the source's examples may hold: \& \- \e and no other escape
# (\n, say, renders as a number register, not a newline), and literal
# blocks indented as examples_md reads them.
source_commands() {  # the "$ " lines of a page's EXAMPLES blocks
    awk '/^\.Sh / { inex = ($0 == ".Sh EXAMPLES"); next }
    inex && /^\.Bd -literal/ { lit = 1; next } inex && /^\.Ed/ { lit = 0; next }
    lit && /^\$ / { n++ } END { print n + 0 }' "$1"
}
MANDOC=$(command -v mandoc 2>/dev/null && command -v col 2>/dev/null)
[ -n "$MANDOC" ] || echo "# mandoc or col not found: the examples are read from the mdoc source"
for p in $PAGES; do
    bad=$(awk '/^\.Sh / { inex = ($0 == ".Sh EXAMPLES"); next }
        inex && /^\.Bd -literal/ { lit = 1; if ($0 != ".Bd -literal -offset indent") print; next }
        inex && /^\.Ed/ { lit = 0; next }
        lit && /\\[^&e-]/' "$p")
    check "$p: its examples use no escape but \\& \\- \\e:${bad:+ $bad}" -z "$bad"
    examples_md "$p" >"$TMP/page.md"
    extract "$TMP/page.md" "$p"
    check "$p: every example command read from the page as rendered" \
        "$(grep -c '^\$ ' "$TMP/page.md")" = "$(source_commands "$p")"
done
extract README.md README.md

count=$(cat "$TMP/ex/count" 2>/dev/null || echo 0)
check "examples found" "$count" -ge 12
k=1
page=
while [ "$k" -le "$count" ]; do
    src=$(cat "$TMP/ex/$k.src")
    cmd=$(cat "$TMP/ex/$k.cmd")
    first=$(head -n 1 "$TMP/ex/$k.cmd")
    if [ "$src" != "$page" ]; then
        [ -n "$page" ] && end_page "$page"
        page=$src
        fresh_copy "$PAGE_ROOT"
        listing >"$TMP/before"
    fi
    # A "> " line continues a command only where the shell would prompt
    # for more: after | && || \ or inside a quote or parentheses.
    cont=$(awk 'NR > 1 && !open { print "line " NR; exit }
        { q += gsub(/\047/, "&"); p += gsub(/\(/, "&") - gsub(/\)/, "&")
          open = q % 2 || p > 0 || /(\||&&|\\)[ \t]*$/ }' "$TMP/ex/$k.cmd")
    check "$src: $first: no continuation line where the shell wants none${cont:+ ($cont)}" -z "$cont"
    # The one exception: the JSON examples read by jq(1) (installed by
    # .ci/run), where it is not installed.
    if ! command -v jq >/dev/null 2>&1 && printf '%s\n' "$cmd" | grep -q '| *jq '; then
        echo "# $src: $first: skipped, jq not installed"
        k=$((k + 1))
        continue
    fi
    (cd "$PAGE_ROOT" && PATH="$PAGE_ROOT/bin:$PATH" sh -c "$cmd") >"$TMP/got" 2>&1
    code=$?
    if [ "$code" -ne 0 ]; then
        fail "$src: $first" "exit $code: $(head -n 3 "$TMP/got")"
    elif cmp -s "$TMP/got" "$TMP/ex/$k.want"; then
        pass "$src: $first"
    else
        fail "$src: $first" "output differs from the page: $(diff "$TMP/ex/$k.want" "$TMP/got" | head -n 6)"
    fi
    k=$((k + 1))
done
[ -n "$page" ] && end_page "$page"
check "the pages and the README checked for leftovers: $NPAGES" "$NPAGES" -ge 11

# Every long option of --help is in the page, and every option the page
# describes is in --help.
for prog in ffbuild ffdir ffpng ffpull fffunnel ffquery ffsim ffinfo ffexport; do
    page=man/man1/$prog.1
    help=$("$BIN/$prog" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
    doc=$(grep '^\.It Fl' "$page" | grep -o 'Fl -[a-z][a-z-]*' | sed 's/^Fl /-/' | sort -u)
    check "$prog: --help and the page list the same long options" "$help" = "$doc"
    for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
        check "$prog.1 has $s" "$(grep -c "^\.Sh $s\$" "$page")" = 1
    done
done
# Every option of a program's getopt table (bin/PROG.c) is in the usage
# lines of its --help and in its page's SYNOPSIS, but --help and --version:
# by its short name when it has one, else by its long name.
for prog in ffbuild ffdir ffpng ffpull fffunnel ffquery ffsim ffinfo ffexport; do
    src=$ROOT/bin/$prog.c
    usage=$("$BIN/$prog" --help | awk '!/^(usage:| )/ { exit } { print }')
    syn=$(awk '/^\.Sh SYNOPSIS/ { f = 1; next } /^\.Sh / { f = 0 } f' "man/man1/$prog.1")
    shorts=$(grep -o 'getopt_long(argc, argv, "[^"]*"' "$src" | sed 's/.*argv, "//; s/"$//; s/://g')
    table=$(awk '/struct option longopts\[\]/ { f = 1; next } f && /NULL, 0, NULL, 0/ { f = 0 } f' "$src" |
        sed -n "s/.*{ \"\([a-z0-9-]*\)\", [a-z_]*, NULL, \(.*\) },.*/\1 \2/p")
    check "$prog: the getopt table read" "$(printf '%s\n' "$table" | grep -c .)" -ge 4
    missing=""
    while read -r long val; do
        case $long in help | version) continue ;; esac
        short=$(printf '%s' "$val" | sed -n "s/^'\(.\)'$/\1/p")
        case "$short" in
        ?) case $shorts in *"$short"*) ;; *) short="" ;; esac ;;
        esac
        if [ -n "$short" ]; then
            printf '%s\n' "$usage" | grep -Eq -- "(\[| )-$short( |\]|$)" || missing="$missing -$short(usage)"
            printf '%s\n' "$syn" | grep -Eq -- "Fl $short( |$)" || missing="$missing -$short(SYNOPSIS)"
        else
            printf '%s\n' "$usage" | grep -Eq -- "(\[| )--$long( |\]|$)" || missing="$missing --$long(usage)"
            printf '%s\n' "$syn" | grep -Eq -- "(Fl |\| )-$long( |$)" || missing="$missing --$long(SYNOPSIS)"
        fi
    done <<EOF
$table
EOF
    check "$prog: every option in the --help usage and the SYNOPSIS:${missing:- all}" -z "$missing"
done
for page in ff.5 fftiled.5; do
    for s in NAME DESCRIPTION EXAMPLES "SEE ALSO"; do
        check "$page has $s" "$(grep -c "^\.Sh $s\$" man/man5/$page)" = 1
    done
done

# A reader written from ff(5) alone (hash, messages, encodings) agrees
# with the ids that the programs write, and notices a changed value.
cat >"$TMP/ffids.pl" <<'PERL'
use strict;
use warnings;
binmode STDIN;
my $data = do { local $/; <STDIN> };
my $pos = 0;
my %size = (u8 => 1, u16 => 2, u32 => 4, i32 => 4, f32 => 4, f64 => 8);
my %pk = (u8 => 'C', u16 => 'v', u32 => 'V', i32 => 'l<', f32 => 'f<', f64 => 'd<');
my %corner = (strict => 0, cut => 1, free => 2);
my %tcode = (u8 => 0, u16 => 1, u32 => 2, i32 => 3, f32 => 4, f64 => 5);

# h = (h ^ w) * 0x100000001b3 mod 2^64; h ^= h >> 32, on 32-bit halves.
sub mix {
    my ($hh, $hl, $wh, $wl) = @_;
    $hh ^= $wh;
    $hl ^= $wl;
    my $lo = $hl * 0x1b3;
    my $carry = int($lo / 4294967296);
    $lo %= 4294967296;
    my $hi = ($hh * 0x1b3 + $hl * 0x100 + $carry) % 4294967296;
    return ($hi, $lo ^ $hi);
}
sub fhash {
    my ($msg) = @_;
    my ($hh, $hl) = (0xcbf29ce4, 0x84222325);
    my $len = length $msg;
    $msg .= "\0" x ((8 - $len % 8) % 8);
    for (my $k = 0; $k < length $msg; $k += 8) {
        my ($l, $h) = unpack 'VV', substr($msg, $k, 8);
        ($hh, $hl) = mix($hh, $hl, $h, $l);
    }
    ($hh, $hl) = mix($hh, $hl, int($len / 4294967296), $len % 4294967296);
    return sprintf '%08x%08x', $hh, $hl;
}
# A hash id as the u64 of a message: little-endian.
sub u64 {
    my ($hex) = @_;
    return pack 'VV', hex(substr $hex, 8, 8), hex(substr $hex, 0, 8);
}
# The plane hash: tiles of 64 x 64 cells (cb bytes a cell), row by row;
# then blocks of 8 x 8 nodes, until one node is left.
sub plane {
    my ($raw, $w, $h, $cb) = @_;
    my ($nw, $nh) = (int(($w + 63) / 64), int(($h + 63) / 64));
    my @lv;
    for my $ty (0 .. $nh - 1) {
        for my $tx (0 .. $nw - 1) {
            my ($x0, $msg) = ($tx * 64, '');
            my $x1 = $x0 + 64 < $w ? $x0 + 64 : $w;
            my $y1 = $ty * 64 + 64 < $h ? $ty * 64 + 64 : $h;
            $msg .= substr $raw, ($_ * $w + $x0) * $cb, ($x1 - $x0) * $cb for $ty * 64 .. $y1 - 1;
            push @lv, fhash($msg);
        }
    }
    while ($nw > 1 || $nh > 1) {
        my ($pw, $ph) = (int(($nw + 7) / 8), int(($nh + 7) / 8));
        my @up;
        for my $py (0 .. $ph - 1) {
            for my $px (0 .. $pw - 1) {
                my $msg = '';
                for my $y ($py * 8 .. ($py * 8 + 8 < $nh ? $py * 8 + 8 : $nh) - 1) {
                    $msg .= u64($lv[ $y * $nw + $_ ]) for $px * 8 .. ($px * 8 + 8 < $nw ? $px * 8 + 8 : $nw) - 1;
                }
                push @up, fhash($msg);
            }
        }
        @lv = @up;
        ($nw, $nh) = ($pw, $ph);
    }
    return u64($lv[0]);
}
sub line {
    my $e = index $data, "\n", $pos;
    die "no newline\n" if $e < 0;
    my $s = substr $data, $pos, $e - $pos;
    $pos = $e + 1;
    $s =~ s/\r$//;
    return $s;
}
while ($pos < length $data) {
    line() =~ /^ff[ \t]+1[ \t]*$/ or die "bad magic\n";
    my %key = (cell => [1], radius => [0], moves => [8], corners => ['strict']);
    my (@goal, @chan, %id);
    while (1) {
        my @w = split ' ', line();
        next if !@w || $w[0] =~ /^#/;
        last if @w == 1 && $w[0] eq 'end';
        if ($w[0] eq 'goal') { push @goal, [ $w[1], $w[2] ] }
        elsif ($w[0] eq 'channel') { push @chan, [ $w[1], $w[2] ] }
        elsif ($w[0] eq 'id') { $id{ $w[1] } = $w[2] }
        else { $key{ $w[0] } = [ @w[ 1 .. $#w ] ] }
    }
    my ($w, $h) = @{ $key{size} };
    my $n = $w * $h;
    my %raw;
    for my $c (@chan) {
        my ($name, $type) = @$c;
        # TYPEx8 and TYPEx2: 8 or 2 values a cell
        my ($base, $lanes) = $type =~ /^(.*?)(?:x([28]))?$/;
        $lanes //= 1;
        if ($key{encoding}[0] eq 'binary') {
            $raw{$name} = substr $data, $pos, $n * $lanes * $size{$base};
            $pos += $n * $lanes * $size{$base};
        } else {
            my @v;
            push @v, split ' ', line() for 1 .. $h;
            die "channel $name: wrong count\n" unless @v == $n * $lanes;
            $raw{$name} = pack "$pk{$base}*", map { $_ eq 'inf' ? 9**9**9 : $_ } @v;
        }
        $c->[2] = $tcode{$base} + ($lanes == 8 ? 8 : $lanes == 2 ? 16 : 0);
        $c->[3] = $size{$base} * $lanes;
    }
    my $msg = pack 'VVVV', $w, $h, $key{moves}[0], $corner{ $key{corners}[0] };
    $msg .= pack 'd<d<', $key{cell}[0], $key{radius}[0];
    $msg .= plane($raw{cost}, $w, $h, 4);
    for my $opt ('oneway', 'class') {
        $msg .= exists $raw{$opt} ? "\1" . plane($raw{$opt}, $w, $h, 1) : "\0";
    }
    my $map = fhash($msg);
    my @out = ("map " . (($id{map} // '') eq $map ? 'ok' : 'MISMATCH'));
    my $base = $map;
    if (exists $raw{distance}) {
        my %seen;
        my @gi = sort { $a <=> $b } grep { !$seen{$_}++ } map { $_->[1] * $w + $_->[0] } @goal;
        my ($mh, $ml) = (hex(substr $map, 0, 8), hex(substr $map, 8, 8));
        my $dmsg = pack('VVVV', $ml, $mh, scalar @gi, 0) . pack('V*', @gi) . plane($raw{distance}, $w, $h, 8);
        $dmsg .= 'any-angle' if exists $key{'any-angle'};
        my $dist = fhash($dmsg);
        push @out, "distance " . (($id{distance} // '') eq $dist ? 'ok' : 'MISMATCH');
        $base = $dist;
    }
    # Every other channel with an id (direction must have one): the base
    # id, the name and the type code, then the values.
    for my $c (@chan) {
        my ($name, $type, $code, $cb) = @$c;
        next if $name =~ /^(cost|oneway|class|distance)$/;
        next unless exists $id{$name} || $name eq 'direction';
        my ($bh, $bl) = (hex(substr $base, 0, 8), hex(substr $base, 8, 8));
        my $cmsg = pack('VVV', $bl, $bh, length $name) . $name . pack('V', $code) . plane($raw{$name}, $w, $h, $cb);
        push @out, "$name " . (($id{$name} // '') eq fhash($cmsg) ? 'ok' : 'MISMATCH');
    }
    print "@out\n";
}
PERL
ids() {
    run "ff(5) reader: $1" 0 "$2 | perl $TMP/ffids.pl"
    check "ff(5) ids: $1" "$OUT" = "$3"
}
if command -v perl >/dev/null 2>&1; then
    all='map ok distance ok direction ok'
    M=$TD/movingai/arena.map
    ids "demo, binary, one-way" "$BIN/ffbuild $TD/demo/demo.ffmap | $BIN/ffdir" "$all"
    ids "demo, text" "$BIN/ffbuild --text $TD/demo/demo.ffmap | $BIN/ffdir --text" "$all"
    ids "radius, cut, cell 2, a repeated goal" \
        "sed 's/^cell 1/cell 2/' $TD/demo/demo.ffmap | $BIN/ffbuild -r 1.5 -c cut -g 8,2 -g 3,3 -g 8,2" \
        'map ok distance ok'
    ids "two fields, 4 moves, free" \
        "($BIN/ffbuild -g 5,5 -c free $M; $BIN/ffbuild -m 4 -g 7,7 --text $M) | $BIN/ffdir" \
        "$all
$all"
    ids "Moving AI classes" "$BIN/ffbuild -g 20,20 $M" 'map ok distance ok'
    ids "any-angle" "$BIN/ffbuild --any-angle $TD/anyangle/gap.ffmap" 'map ok distance ok'
    ids "any-angle, text, cut" "$BIN/ffbuild --any-angle -c cut --text $TD/anyangle/gap.ffmap" \
        'map ok distance ok'
    ids "any-angle vectors (f32x2)" "$BIN/ffbuild --any-angle $TD/anyangle/gap.ffmap | $BIN/ffdir" \
        'map ok distance ok vector ok'
    ids "any-angle vectors, text" "$BIN/ffbuild --any-angle $TD/anyangle/gap.ffmap | $BIN/ffdir --text" \
        'map ok distance ok vector ok'
    # 600 x 70 cells: 10 x 2 tiles, 2 x 1 nodes above them, then one.
    awk 'BEGIN { srand(3); print "ffmap 1"; print "legend # wall"; print "legend . 1"
                 print "legend ~ 3"; print "map"
                 for (y = 0; y < 70; y++) { r = ""
                     for (x = 0; x < 600; x++) { u = rand(); r = r (u < 0.2 && x + y > 4 ? "#" : u < 0.3 ? "~" : ".") }
                     print r } }' >"$TMP/wide.ffmap"
    ids "600 x 70: three levels of tiles" "$BIN/ffbuild -g 1,1 $TMP/wide.ffmap | $BIN/ffdir" "$all"
    ids "600 x 70, text, a one-way cell" \
        "sed 's/^legend ~ 3/legend ~ 3 E,S/' $TMP/wide.ffmap | $BIN/ffbuild -g 1,1 --text | $BIN/ffdir --text" "$all"
    ids "a changed cost is noticed" \
        "$BIN/ffbuild -m 4 --text $TD/demo/small.ffmap | sed '/^end/{n;s/^1/2/;}'" \
        'map MISMATCH distance MISMATCH'
    # The last line of a text stream is the direction channel's last row.
    ids "a changed direction is noticed" \
        "$BIN/ffbuild -m 4 --text $TD/demo/small.ffmap | $BIN/ffdir --text | sed '\$s/^[0-9]/9/'" \
        'map ok distance ok direction MISMATCH'
else
    echo "# perl not found: the ff(5) reader check is skipped"
fi

# make demo's script, in the copy of the tree.
run "demo.sh runs" 0 "cd $SAND && sh $ROOT/testdata/demo.sh"
check "demo wrote its stream" -s "$SAND/testdata/demo/out/demo.ff"
check "demo names its output" "$(printf '%s\n' "$OUT" | grep -c 'testdata/demo/out/demo.ff')" = 1
check "demo prints each spawn" "$(printf '%s\n' "$OUT" | grep -c '^  spawn .*distance')" = 4
run "demo output is a valid stream" 0 "$BIN/ffdir $SAND/testdata/demo/out/demo.ff >/dev/null"

if command -v mandoc >/dev/null 2>&1; then
    for p in $PAGES; do
        run "mandoc -Tlint $p" 0 "mandoc -Tlint -Wwarning $p"
        check "mandoc -Tlint $p is silent" -z "$OUT$ERR"
        # The style messages too, but for references to pages that are not
        # installed (ours, before make install) and the man database's age.
        style=$(mandoc -Tlint -Wstyle "$p" 2>&1 | grep -v 'referenced manual not found\|mandoc\.db')
        check "mandoc -Tlint -Wstyle $p is silent:${style:+ $style}" -z "$style"
    done
else
    echo "# mandoc not found: the man page lint is skipped"
fi
finish
