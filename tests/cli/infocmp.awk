# infocmp.awk - compare ffinfo's output (file 1) with the oracle's (file
# 2), line by line: every word equal, except the min and max of a channel
# line, which must be equal as numbers (bit for bit for f64, whose words
# both read back exactly) or, for f32, within the rounding of its
# 9-digit text (2^-24 relative).  Prints the first difference; exits 1 if
# there is any.  A '?' of the oracle matches any word.
NR == FNR { got[FNR] = $0; ngot = FNR; next }
{
    want = $0
    if (FNR > ngot) { print "missing line: " want; bad = 1; exit 1 }
    n = split(got[FNR], g, " ")
    m = split(want, o, " ")
    if (n != m) { print "line " FNR ": '" got[FNR] "' want '" want "'"; bad = 1; exit 1 }
    for (k = 1; k <= n; k++) {
        if (g[k] == o[k] || o[k] == "?") continue
        if (o[1] == "channel" && (k == 9 || k == 11) && o[k] != "-" && g[k] != "-") {
            a = g[k] + 0; b = o[k] + 0
            if (a == b) continue
            if (o[3] ~ /^f32/ && (a - b <= 6e-8 * (b < 0 ? -b : b)) && (b - a <= 6e-8 * (b < 0 ? -b : b))) continue
        }
        print "line " FNR ": '" got[FNR] "' want '" want "'"; bad = 1; exit 1
    }
    nwant = FNR
}
END {
    if (!bad && nwant != ngot) { print "extra lines: " ngot - nwant; exit 1 }
    exit bad
}
