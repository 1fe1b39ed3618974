# conflicts.awk - the conflicts a cell-to-cell trace (ffsim's, man 1
# ffsim) must never show, from its lines alone: two footprints sharing a
# cell (a radius r over half a cell covers the cells within ceil(r - 0.5)
# of its own), a swap (two agents each moving onto the other's cells), two
# diagonal steps through one grid corner, a wide agent's diagonal step
# whose side cells' footprints another covers (before or after), and a
# step longer than one cell.  Prints the count ("no lines" for a trace
# without agents), each conflict on stderr.  Written from the definitions,
# not from ffsim's code: the tests' independent checker.
function half(r,  k) { k = r - 0.5; return k > 0 ? int(k + 0.999999) : 0 }
function covers(ax, ay, ha, bx, by, hb) { return ax - bx <= ha + hb && bx - ax <= ha + hb && ay - by <= ha + hb && by - ay <= ha + hb }
function check_tick(   i, j) {
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
        a = id[i]; b = id[j]
        if (covers(X[a], Y[a], H[a], X[b], Y[b], H[b])) { print "tick " t ": " a " and " b " share a cell" >"/dev/stderr"; bad++ }
        if (!(a in PX) || !(b in PX) || PT[a] != t - 1 || PT[b] != t - 1) continue
        ma = X[a] != PX[a] || Y[a] != PY[a]; mb = X[b] != PX[b] || Y[b] != PY[b]
        if (ma && mb && covers(X[a], Y[a], H[a], PX[b], PY[b], H[b]) && covers(X[b], Y[b], H[b], PX[a], PY[a], H[a])) {
            print "tick " t ": " a " and " b " swap" >"/dev/stderr"; bad++ }
        if (X[a] != PX[a] && Y[a] != PY[a] && X[b] != PX[b] && Y[b] != PY[b] &&
            (X[a] > PX[a] ? X[a] : PX[a]) == (X[b] > PX[b] ? X[b] : PX[b]) &&
            (Y[a] > PY[a] ? Y[a] : PY[a]) == (Y[b] > PY[b] ? Y[b] : PY[b])) {
            print "tick " t ": " a " and " b " cross a corner" >"/dev/stderr"; bad++ }
        side(a, b); side(b, a)
    }
}
function side(a, b) {
    if (H[a] == 0 || !(a in PX) || PT[a] != t - 1 || X[a] == PX[a] || Y[a] == PY[a]) return
    if (covers(X[a], PY[a], H[a], X[b], Y[b], H[b]) || covers(PX[a], Y[a], H[a], X[b], Y[b], H[b]) ||
        ((b in PX) && PT[b] == t - 1 && (covers(X[a], PY[a], H[a], PX[b], PY[b], H[b]) || covers(PX[a], Y[a], H[a], PX[b], PY[b], H[b])))) {
        print "tick " t ": " a "s diagonal side cells hold " b >"/dev/stderr"; bad++ }
}
function next_tick(   i, a) {
    check_tick()
    for (i = 1; i <= n; i++) { a = id[i]; PX[a] = X[a]; PY[a] = Y[a]; PT[a] = t }
    n = 0
}
/^#/ { next }
{ if ($1 != t && n > 0) next_tick()
  t = $1; a = $2; n++; id[n] = a
  X[a] = int($3); Y[a] = int($4); H[a] = half($8)
  if ((a in PX) && PT[a] == t - 1 && (X[a] - PX[a] > 1 || PX[a] - X[a] > 1 || Y[a] - PY[a] > 1 || PY[a] - Y[a] > 1)) {
      print "tick " t ": " a " jumps" >"/dev/stderr"; bad++ }
  lines++ }
END { if (n > 0) next_tick(); print (lines > 0 ? bad + 0 : "no lines") }
