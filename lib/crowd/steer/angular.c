/* angular.c - the steered heading; see angular.h and man 5 ffsim,
 * "BEHAVIOURS". */
#include <math.h>
#include <stdlib.h>

#include "angular.h"

struct ff_angular {
    double *rate;    /* per agent: its turn rate, degrees per second,
                        positive clockwise (toward +y from +x) */
    double *heading; /* per entry of the start-of-tick hash, x then y: its
                        agent's heading then (what align reads, in the
                        hash's order, as the neighbour scans walk it);
                        NULL when no class aligns */
};

ff_status ff_angular_init(ff_crowd *c, size_t na, ff_error *err)
{
    const ff_scenario *s = c->scenario;
    struct ff_angular *an;
    size_t k, n = na ? na : 1;
    int turns = 0, aligns = 0, b;

    for (k = 0; k < s->nclasses; k++) {
        turns |= s->cls[k].turns;
        for (b = 0; b < s->cls[k].nbehaviours; b++)
            aligns |= s->cls[k].behaviour[b].kind == FF_BEHAVE_ALIGN;
    }
    if (!turns)
        return FF_OK;
    an = calloc(1, sizeof *an);
    c->angular = an;
    if (!an || !(an->rate = calloc(n, sizeof *an->rate)) ||
        (aligns && !(an->heading = malloc(2 * n * sizeof *an->heading))))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the turn rates");
    return FF_OK;
}

void ff_angular_free(ff_crowd *c)
{
    struct ff_angular *an = c->angular;

    if (!an)
        return;
    free(an->rate);
    free(an->heading);
    free(an);
    c->angular = NULL;
}

void ff_angular_begin(ff_crowd *c)
{
    struct ff_angular *an = c->angular;
    size_t k;

    if (!an || !an->heading)
        return;
    for (k = 0; k < c->hash.n; k++) {
        const ff_agent *a = &c->agent[c->hash.entry[k].item];
        an->heading[2 * k] = a->hx;
        an->heading[2 * k + 1] = a->hy;
    }
}

/* The turn rate, degrees per second, at which a heading delta degrees
 * from its target (delta >= 0) still stops on it, braking by a1 = aa *
 * dt a tick: the rate r of this tick and r - a1, r - 2 a1, ... after it
 * turn r dt + (r - a1) dt + ... = delta in all.  With m = the most whole
 * braking ticks, m (m + 1) / 2 <= delta / (a1 dt), that is r = (delta /
 * dt + a1 m (m + 1) / 2) / (m + 1); the next tick's delta then asks for
 * r - a1 exactly, so a heading at this rate lands on its target (the
 * discrete form of the braking curve sqrt(2 aa delta)).  At most turn. */
static double stopping_rate(double delta, double turn, double aa, double dt)
{
    double a1 = aa * dt, k = delta / (a1 * dt), r;

    if (!(k < 1e12)) {  /* (a1 dt may round to 0) */
        r = sqrt(2 * aa * delta);
    } else {
        double m = floor((sqrt(8 * k + 1) - 1) / 2);
        if (m * (m + 1) / 2 > k)  /* (the root's rounding) */
            m--;
        else if ((m + 1) * (m + 2) / 2 <= k)
            m++;
        r = (delta / dt + a1 * m * (m + 1) / 2) / (m + 1);
    }
    return r < turn ? r : turn;
}

/* Agent a's proposal to turn toward the direction (tx, ty): the
 * stopping rate for the angle between them, as a fraction of its turn,
 * signed; 0 for no direction or an angle under 1e-9 degrees. */
static double toward(const ff_crowd *c, const ff_agent *a, double tx, double ty)
{
    const ff_agent_class *cls = &c->scenario->cls[a->cls];
    double cross = a->hx * ty - a->hy * tx, dot = a->hx * tx + a->hy * ty, delta;

    if (!(tx * tx + ty * ty > 0))
        return 0;
    delta = atan2(cross, dot) * (180 / PI);
    if (fabs(delta) < 1e-9)
        return 0;
    return copysign(stopping_rate(fabs(delta), cls->max_turn, cls->max_angular_accel,
                                  c->scenario->tick_dt),
                    delta) /
           cls->max_turn;
}

/* The sum of the start-of-tick headings of agent i's neighbours nearer
 * than range (itself left out), from the hash. */
static void neighbour_headings(const ff_crowd *c, size_t i, const ff_shash_entry *me, double range,
                               double *sx, double *sy)
{
    const ff_shash *h = &c->hash;
    const double *heading = c->angular->heading;
    double x = c->agent[i].x, y = c->agent[i].y, r2 = range * range;
    int32_t bx0, bx1, by0, by1, bx, by, last;

    *sx = *sy = 0;
    bucket_box(h, x, y, range, me->bx, me->by, &bx0, &bx1, &by0, &by1);
    for (by = by0; by <= by1; by++)
        for (bx = bx0; bx <= bx1; bx = last + 1) {
            const ff_shash_entry *e, *end;
            uint32_t span;
            ff_shash_row_run(h, bx, bx1, by, &last, &e, &end);
            span = (uint32_t)last - (uint32_t)bx;
            for (; e < end; e++) {
                double dx = x - e->x, dy = y - e->y;
                /* (An entry counts in its own bucket only.) */
                if (dx * dx + dy * dy >= r2 || e->item == i || e->by != by ||
                    (uint32_t)e->bx - (uint32_t)bx > span)
                    continue;
                *sx += heading[2 * (size_t)(e - h->entry)];
                *sy += heading[2 * (size_t)(e - h->entry) + 1];
            }
        }
}

double ff_angular_propose(const ff_crowd *c, size_t i, const ff_shash_entry *e, const ff_behaviour *b)
{
    const ff_agent *a = &c->agent[i];
    const ff_agent_class *cls = &c->scenario->cls[a->cls];
    double sx, sy;

    switch (b->kind) {
    case FF_BEHAVE_FACE:
        return toward(c, a, b->target_x - a->x, b->target_y - a->y);
    case FF_BEHAVE_LOOK_AHEAD:
        /* As the heading of a class without angular behaviours: slower
         * than a tenth of its speed, its velocity says little. */
        if (!(a->vx * a->vx + a->vy * a->vy >= 0.01 * cls->max_speed * cls->max_speed))
            return 0;
        return toward(c, a, a->vx, a->vy);
    case FF_BEHAVE_ALIGN:
        neighbour_headings(c, i, e, b->range, &sx, &sy);
        /* (Opposite headings that cancel ask for nothing.) */
        return sx * sx + sy * sy > 1e-18 ? toward(c, a, sx, sy) : 0;
    default:
        return 0;
    }
}

void ff_angular_turn(ff_crowd *c, size_t i, double w)
{
    ff_agent *a = &c->agent[i];
    const ff_agent_class *cls = &c->scenario->cls[a->cls];
    double dt = c->scenario->tick_dt, step = cls->max_angular_accel * dt, *rate = &c->angular->rate[i];
    double change, r, theta;

    if (w > 1)
        w = 1;
    else if (w < -1)
        w = -1;
    change = w * cls->max_turn - *rate;
    if (change > step)
        change = step;
    else if (change < -step)
        change = -step;
    r = *rate + change;
    if (r > cls->max_turn)
        r = cls->max_turn;
    else if (r < -cls->max_turn)
        r = -cls->max_turn;
    *rate = r;
    if (r == 0)
        return;  /* (the heading exactly as it was) */
    theta = atan2(a->hy, a->hx) + r * dt * (PI / 180);
    a->hx = cos(theta);
    a->hy = sin(theta);
}
