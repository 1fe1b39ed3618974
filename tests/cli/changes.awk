# changes.awk - random changes of an ffmap for the --update tests
# (test_update.sh): reads the ffmap, writes CH (the change list, ffbuild
# --update's format) and prints the changed ffmap, made by hand from the
# rows: close puts '#', cost C the tile of a legend entry of cost C
# (added).  Rectangles never touch goal, spawn or one-way tiles (their
# legend says more than a cost).  -v seed=N -v n=COUNT -v ch=FILE
# [-v kinds=close|cost|both].
BEGIN {
    srand(seed)
    split("0 0.5 1 2.5 4", cost, " ")
    split("z = . k ~", tile, " ")
    if (kinds == "") kinds = "both"
}
/^map$/ { inmap = 1; head[++nh] = $0; next }
!inmap { head[++nh] = $0; next }
{ row[h++] = $0; w = length($0) }
END {
    for (c = 0; c < n; c++) {
        for (tries = 0; tries < 100; tries++) {
            x0 = int(rand() * w); y0 = int(rand() * h)
            x1 = x0 + (rand() < 0.3 ? int(rand() * 3) : 0)
            y1 = y0 + (rand() < 0.3 ? int(rand() * 3) : 0)
            if (x1 >= w || y1 >= h) continue
            bad = 0
            for (y = y0; y <= y1; y++)
                for (x = x0; x <= x1; x++)
                    if (substr(row[y], x + 1, 1) ~ /[GS<]/) bad = 1
            if (!bad) break
        }
        if (bad) continue
        k = kinds == "close" ? 0 : kinds == "cost" ? 1 : (rand() < 0.5)
        if (k == 0) {
            printf "close %d,%d,%d,%d\n", x0, y0, x1, y1 > ch
            t = "#"
        } else {
            j = 1 + int(rand() * 5)
            printf "cost %d,%d,%d,%d %s   # a comment\n", x0, y0, x1, y1, cost[j] > ch
            t = tile[j]
        }
        for (y = y0; y <= y1; y++) {
            s = ""
            for (x = x0; x <= x1; x++) s = s t
            row[y] = substr(row[y], 1, x0) s substr(row[y], x1 + 2)
        }
    }
    close(ch)
    for (i = 1; i <= nh; i++) {
        if (head[i] == "map") print "legend z 0\nlegend k 2.5"
        print head[i]
    }
    for (y = 0; y < h; y++) print row[y]
}
