# ffinfo.awk - what ffinfo(1) should print for a text-encoded ff stream,
# computed from the stream's text alone (the test's oracle): the header
# keys with their defaults, the count of goals and spawns, and for each
# channel its count of values, of finite values (not inf), and the least
# and greatest finite value (printed with %.17g; the test compares them
# as numbers).  Fields are separated by an empty line.
function flush_header() {
    nblock++
    if (nblock > 1) print ""
    printf "field %d %s\n", nblock, name == "" ? "-" : name
    printf "size %s %s\ncell %s\norigin %s %s\nmoves %s\ncorners %s\nradius %s\n", \
        w, h, cell, ox, oy, moves, corners, radius
    if (turn != "") printf "turn-cost %s\n", turn
    if (anyangle) printf "any-angle\n"
    printf "goals %d\nspawns %d\n", ngoals, nspawns
}
function start_channel() {
    cvalues = 0; cfinite = 0; rows = 0
}
function end_channel(   t) {
    t = ctype[ch]
    if (cfinite == 0)
        printf "channel %s %s values %d finite %d min - max -\n", cname[ch], t, cvalues, cfinite
    else
        printf "channel %s %s values %d finite %d min %.17g max %.17g\n", cname[ch], t, \
            cvalues, cfinite, cmin, cmax
}
function print_ids(   k) {
    # Without 'id map' the hash is ffinfo's to compute: '?' matches it.
    printf "id map %s\n", ("map" in id) ? id["map"] " ok" : "? absent"
    for (k = 1; k <= nch; k++)
        if (cname[k] in id) printf "id %s %s ok\n", cname[k], id[cname[k]]
}
state == "payload" {
    for (k = 1; k <= NF; k++) {
        v = $k
        cvalues++
        if (v != "inf" && v != "-inf") {
            x = v + 0
            if (cfinite == 0 || x < cmin) cmin = x
            if (cfinite == 0 || x > cmax) cmax = x
            cfinite++
        }
    }
    if (++rows == h) {
        end_channel()
        if (++ch > nch) { print_ids(); state = "" }
        else start_channel()
    }
    next
}
$1 == "ff" && $2 == "1" {
    state = "header"; name = ""; cell = 1; ox = 0; oy = 0; moves = 8; corners = "strict"
    radius = 0; turn = ""; anyangle = 0; ngoals = 0; nspawns = 0; nch = 0
    split("", id); split("", seen); split("", spawn_seen)
    next
}
state == "header" && $1 == "end" {
    flush_header()
    state = "payload"; ch = 1; start_channel()
    next
}
state == "header" {
    if ($1 == "name") name = $2
    else if ($1 == "size") { w = $2; h = $3 }
    else if ($1 == "cell") cell = $2
    else if ($1 == "origin") { ox = $2; oy = $3 }
    else if ($1 == "moves") moves = $2
    else if ($1 == "corners") corners = $2
    else if ($1 == "radius") radius = $2
    else if ($1 == "turn-cost") turn = $2
    else if ($1 == "any-angle") anyangle = 1
    else if ($1 == "goal") { if (!(($2 " " $3) in seen)) ngoals++; seen[$2 " " $3] = 1 }
    else if ($1 == "spawn") { if (!(($2 " " $3) in spawn_seen)) nspawns++; spawn_seen[$2 " " $3] = 1 }
    else if ($1 == "channel") { nch++; cname[nch] = $2; ctype[nch] = $3 }
    else if ($1 == "id") id[$2] = $3
}
