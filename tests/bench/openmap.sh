# openmap.sh - sourced by the benchmarks of ffsim: open_map writes the
# 1024x1024 bench map ($TMP/open.ffmap: an open map with square obstacles,
# a 6x6 block every 32 cells, 3.5% walls, walled round, one goal at
# 520,520) and its field, $TMP/open.ff ($TMP and $BIN must be set).
open_map() {
    awk 'BEGIN {
        n = 1024
        print "ffmap 1"
        print "legend # wall"
        print "legend . 1"
        print "legend G goal 1"
        print "map"
        for (y = 0; y < n; y++) {
            row = ""
            for (x = 0; x < n; x++) {
                if (x == 0 || y == 0 || x == n - 1 || y == n - 1 || (x % 32 < 6 && y % 32 < 6))
                    c = "#"
                else if (x == 520 && y == 520)
                    c = "G"
                else
                    c = "."
                row = row c
            }
            print row
        }
    }' >"$TMP/open.ffmap"
    "$BIN/ffbuild" "$TMP/open.ffmap" | "$BIN/ffdir" >"$TMP/open.ff"
}
