# summary.awk - a few lines about each field of an ff stream in the text
# encoding (man 5 ff): its size, how many cells reach a goal, and the
# distance and first step at each spawn and at each cell of
# -v cells="X,Y X,Y ...".
BEGIN { split("N E S W NE SE SW NW goal none", dirname, " ") }

# A new field: sum up the one before.
$0 == "ff 1" {
    if (started) summary()
    started = 1
    in_payload = 0
    nch = 0
    name = goals = spawns = ""
    split("", value)
    next
}

!in_payload {
    if ($1 == "name") name = $2
    if ($1 == "size") { w = $2; h = $3 }
    if ($1 == "goal") goals = goals " " $2 "," $3
    if ($1 == "spawn") spawns = spawns " " $2 "," $3
    if ($1 == "channel") channel[nch++] = $2
    if ($1 == "end") { in_payload = 1; row = 0 }
    next
}

# Payload: each channel is h lines of w numbers, in header order.
{
    ch = channel[int(row / h)]
    y = row % h
    for (x = 0; x < w; x++) value[ch, x, y] = $(x + 1)
    row++
}

function report(what, cell,    xy, d) {
    split(cell, xy, ",")
    d = value["distance", xy[1], xy[2]]
    if (d != "inf") d = sprintf("%.2f", d)
    printf "  %-5s %-6s distance %6s", what, cell, d
    if (("direction", xy[1], xy[2]) in value)
        printf ", first step %s", dirname[value["direction", xy[1], xy[2]] + 1]
    printf "\n"
}

function summary(    x, y, open, reach, n, k, list) {
    open = reach = 0
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            if (value["cost", x, y] != "inf") open++
            if (value["distance", x, y] != "inf") reach++
        }
    if (name != "") printf "%s:\n", name
    printf "  %d x %d cells, %d open, %d reach a goal; goals%s\n",
        w, h, open, reach, goals
    n = split(spawns, list, " ")
    for (k = 1; k <= n; k++) report("spawn", list[k])
    n = split(cells, list, " ")
    for (k = 1; k <= n; k++) report("cell", list[k])
}

END { if (started) summary() }
