# turnrate.awk - the turn limits of a crowd's headings, read from an
# ffsim trace of every tick (test_ffsim.sh), from the definitions of
# man 5 ffsim alone: an agent's turn of a tick is its heading's change,
# taken the short way round (-180, 180]; its turn rate, that over the
# tick length, is never over the class's turn, and changes from one tick
# to the next by at most angular-accel times the tick (a turn of the tick
# by at most angular-accel times the tick squared; an agent enters with
# no turn rate).  Headings are printed to 0.01 degrees: a turn may read
# 0.01 more, a change of turn 0.02.
# -v limits="RADIUS:TURN:ACCEL ..." (the radius as printed; agents of
# other radii are not checked).  Prints
#   rows R turn_max T change_max C over N
# with T and C the largest turn and change of turn seen (degrees a tick)
# as a fraction of their limits, and N the rows over a limit, each also
# printed as "over ID TICK what".
BEGIN {
    n = split(limits, l, " ")
    for (k = 1; k <= n; k++) {
        split(l[k], f, ":")
        turn[f[1]] = f[2]
        accel[f[1]] = f[3]
    }
}
/^# tick_dt / { dt = $3 }
/^#/ { next }
{
    id = $2
    if (!($8 in turn) || done[id])
        next
    rows++
    if (id in last && last_tick[id] == $1 - 1) {
        d = $7 - last[id]
        if (d > 180) d -= 360
        if (d <= -180) d += 360
        cap = turn[$8] * dt
        step = accel[$8] * dt * dt
        if (d > cap + 0.01 || d < -cap - 0.01) {
            over++
            print "over " id " " $1 " turn " d " > " cap
        }
        change = d - turn_of[id]
        if (change > step + 0.02 || change < -step - 0.02) {
            over++
            print "over " id " " $1 " change " change " > " step
        }
        if ((d < 0 ? -d : d) / cap > turn_max) turn_max = (d < 0 ? -d : d) / cap
        if ((change < 0 ? -change : change) / step > change_max)
            change_max = (change < 0 ? -change : change) / step
        turn_of[id] = d
    } else {
        turn_of[id] = 0  # it enters
    }
    last[id] = $7
    last_tick[id] = $1
    if ($9 == "arrived")
        done[id] = 1
}
END { printf "rows %d turn_max %.3f change_max %.3f over %d\n", rows, turn_max, change_max, over }
