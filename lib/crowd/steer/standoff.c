/* standoff.c - steering agents that make no way to their goal; see
 * standoff.h and man 1 ffsim, "STANDOFFS". */
#include <math.h>
#include <stdlib.h>

#include "goalfield.h"
#include "grid.h"
#include "profiles.h"
#include "standoff.h"

typedef struct {
    double x;       /* world units */
    uint32_t agent; /* its index */
} by_x;

struct ff_standoff {
    by_x *stalled;         /* the agents in a standoff this tick */
    int32_t *waits_on;     /* per agent: the one in its way, or -1 */
    uint8_t *mark;         /* per agent: 1 on the walk, 2 done */
    uint32_t *walk;        /* a walk along waits_on */
    uint32_t *stuck_id;    /* fresh stuck agents of the tick, ascending */
    size_t nstuck;
    long long window;      /* ticks without progress: a standoff */
    long long map_tick;    /* costs are compared on one map only */
    double reach;          /* the largest radius, world units */
};

ff_status ff_standoff_init(ff_crowd *c, size_t na, ff_error *err)
{
    const ff_scenario *s = c->scenario;
    struct ff_standoff *so = calloc(1, sizeof *so);
    double ticks = ceil(s->stuck_after / s->tick_dt);
    size_t k, n = na ? na : 1;

    c->standoff = so;
    if (!so || !(so->stalled = malloc(n * sizeof *so->stalled)) ||
        !(so->waits_on = malloc(n * sizeof *so->waits_on)) || !(so->mark = calloc(n, 1)) ||
        !(so->walk = malloc(n * sizeof *so->walk)) || !(so->stuck_id = malloc(n * sizeof *so->stuck_id)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for standoffs");
    for (k = 0; k < na; k++)
        c->agent[k].progress_tick = -1;
    /* (A window past the longest run never closes.) */
    so->window = ticks >= 1 && ticks <= (double)FF_SCENARIO_TICKS_MAX ? (long long)ticks
                 : ticks < 1 ? 1 : FF_SCENARIO_TICKS_MAX + 1;
    so->map_tick = -1;
    for (k = 0; k < s->nclasses; k++)
        if (s->cls[k].radius > so->reach)
            so->reach = s->cls[k].radius;
    return FF_OK;
}

void ff_standoff_free(ff_crowd *c)
{
    struct ff_standoff *so = c->standoff;

    if (!so)
        return;
    free(so->stalled);
    free(so->waits_on);
    free(so->mark);
    free(so->walk);
    free(so->stuck_id);
    free(so);
    c->standoff = NULL;
}

/* The cost to goal progress is measured by: the field's without
 * congestion, whose costs move with the crowd and would hide progress
 * (an agent whose cost rises at a refresh seems to go nowhere); no cells
 * while stale, nor for a crowd of directions alone (no profiles: the
 * tests' ff_crowd_init), whose progress is not measured. */
static ff_cost_view progress_cost(const ff_crowd *c, size_t i, const uint8_t *dir)
{
    if (!dir || !c->profiles)
        return ff_cost_doubles(NULL);
    if (own_goal(c, i))
        return ff_goalfields_cost(&c->goals, c->agent_goal[i]);
    return ff_cost_doubles(ff_profiles_of(c->profiles, c->agent[i].cls)->distance);
}

void ff_standoff_progress(ff_crowd *c, size_t i, size_t cell, const uint8_t *dir)
{
    ff_agent *a = &c->agent[i];
    ff_cost_view v = progress_cost(c, i, dir);
    double cost;

    if (!v.cells) {
        a->progress_tick = -1;
        return;
    }
    cost = ff_cost_at(v, cell);
    if (a->progress_tick < 0 || cost < a->best_cost) {
        a->best_cost = cost;
        a->progress_tick = (int32_t)c->tick;
        a->jammed = 0;
    }
}

/* 1 when agent i is in a standoff at the end of tick t: moving (as its
 * step left it), without progress for the window.  Any other state stops
 * its clock. */
static int stalled(ff_crowd *c, struct ff_standoff *so, size_t i, long long t)
{
    ff_agent *a = &c->agent[i];

    if (a->state != FF_AGENT_MOVING && a->state != FF_AGENT_FALLBACK) {
        a->progress_tick = -1;
        a->jammed = 0;
        return 0;
    }
    return a->progress_tick >= 0 && t - a->progress_tick >= so->window;
}

static int cmp_by_x(const void *pa, const void *pb)
{
    const by_x *a = pa, *b = pb;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    return a->agent < b->agent ? -1 : a->agent > b->agent;
}

static int cmp_u32(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a < b ? -1 : a > b;
}

/* The way agent i wants to go: its field's direction where it stands,
 * else its heading. */
static void way_of(const ff_crowd *c, size_t i, double *ux, double *uy)
{
    const ff_agent *a = &c->agent[i];
    const uint8_t *dir = agent_dir_of(c, i, a->cls);
    long long cx, cy;
    int d = FF_DIR_NONE;

    if (dir && world_to_cell(c, a->x, a->y, &cx, &cy))
        d = dir[(size_t)cy * (size_t)c->grid->w + (size_t)cx];
    if (d < 8) {
        double n = d < 4 ? 1 : sqrt(2);
        *ux = ff_dir_dx[d] / n;
        *uy = ff_dir_dy[d] / n;
    } else {
        *ux = a->hx;
        *uy = a->hy;
    }
}

/* Whether agent b is in the way of agent a (radius ra, its way ux, uy):
 * touching it (within margin) no more than 60 degrees off its way; the
 * nearest such one (then the lowest index) is kept in *best, *on. */
static void consider(const ff_crowd *c, const ff_agent *a, double ra, double ux, double uy,
                     double margin, uint32_t b_index, double *best, int32_t *on)
{
    const ff_agent *b = &c->agent[b_index];
    double dx = b->x - a->x, dy = b->y - a->y, d = sqrt(dx * dx + dy * dy);

    if (d > 0 && d < ra + c->scenario->cls[b->cls].radius + margin && dx * ux + dy * uy > 0.5 * d &&
        (d < *best || (d == *best && b_index < (uint32_t)*on))) {
        *best = d;
        *on = (int32_t)b_index;
    }
}

/* Each agent in a standoff (stalled[0..n), sorted by x) waits on the
 * one in its way (consider), or on none (-1); only those within reach in
 * x are looked at. */
static void find_waits(ff_crowd *c, struct ff_standoff *so, size_t n)
{
    const double margin = 0.1 * c->grid->cell_size;
    size_t k, j;

    for (k = 0; k < n; k++) {
        size_t i = so->stalled[k].agent;
        const ff_agent *a = &c->agent[i];
        double ra = c->scenario->cls[a->cls].radius, ux, uy, best = INFINITY;
        double reach = ra + so->reach + margin;
        int32_t on = -1;

        way_of(c, i, &ux, &uy);
        for (j = k; j-- > 0 && a->x - so->stalled[j].x <= reach;)
            consider(c, a, ra, ux, uy, margin, so->stalled[j].agent, &best, &on);
        for (j = k + 1; j < n && so->stalled[j].x - a->x <= reach; j++)
            consider(c, a, ra, ux, uy, margin, so->stalled[j].agent, &best, &on);
        so->waits_on[i] = on;
    }
}

/* 1 when agent i has no room to step aside: both cells beside its way
 * (across its field's direction where it stands) are walls or off the
 * map. */
static int no_room(const ff_crowd *c, size_t i)
{
    const ff_agent *a = &c->agent[i];
    const ff_grid *g = c->grid;
    const uint8_t *dir = agent_dir_of(c, i, a->cls);
    long long cx, cy, nx, ny;
    int d, side;

    if (!dir || !world_to_cell(c, a->x, a->y, &cx, &cy))
        return 0;
    if ((d = dir[(size_t)cy * (size_t)g->w + (size_t)cx]) >= 8)
        return 0;
    for (side = -1; side <= 1; side += 2) {
        nx = cx - side * ff_dir_dy[d];
        ny = cy + side * ff_dir_dx[d];
        if (nx >= 0 && ny >= 0 && nx < g->w && ny < g->h &&
            ff_grid_open(g, (size_t)ny * (size_t)g->w + (size_t)nx))
            return 0;
    }
    return 1;
}

/* Walk from each agent in a standoff along waits_on: a walk that comes
 * back onto itself is a cycle; when none of its agents has room to step
 * aside (no_room), they are deadlocked. */
static void find_cycles(ff_crowd *c, struct ff_standoff *so, size_t n)
{
    size_t k, m = 0;

    c->ndeadlocks = 0;
    c->deadlock_start[0] = 0;
    for (k = 0; k < n; k++) {
        size_t len = 0, p, first;
        int32_t at = (int32_t)so->stalled[k].agent;
        while (at >= 0 && so->mark[at] == 0) {
            so->mark[at] = 1;
            so->walk[len++] = (uint32_t)at;
            at = so->waits_on[at];
        }
        if (at >= 0 && so->mark[at] == 1) {
            size_t q;
            for (p = 0; so->walk[p] != (uint32_t)at; p++)
                ;
            for (q = p; q < len && no_room(c, so->walk[q]); q++)
                ;
            if (q < len)
                p = len;  /* room: a jam, not a deadlock */
            first = m;
            for (; p < len; p++) {
                ff_agent *a = &c->agent[so->walk[p]];
                a->state = FF_AGENT_DEADLOCKED;
                a->vx = a->vy = 0;
                a->jammed = 0;
                c->deadlock_id[m++] = a->id;
            }
            if (m > first) {
                qsort(&c->deadlock_id[first], m - first, sizeof *c->deadlock_id, cmp_u32);
                c->stats.deadlocks++;
                c->deadlock_start[++c->ndeadlocks] = m;
            }
        }
        for (p = 0; p < len; p++)
            so->mark[so->walk[p]] = 2;
    }
    for (k = 0; k < n; k++)
        so->mark[so->stalled[k].agent] = 0;
}

void ff_standoff_tick(ff_crowd *c, long long t)
{
    struct ff_standoff *so = c->standoff;
    long long map_tick = c->profiles ? c->profiles->map_tick : -1;
    size_t k, n = 0;

    so->nstuck = 0;
    if (map_tick != so->map_tick) {  /* new costs: progress anew */
        for (k = 0; k < c->nagents; k++)
            c->agent[k].progress_tick = -1;
        so->map_tick = map_tick;
    }
    for (k = 0; k < c->nagents; k++)
        if (stalled(c, so, k, t)) {
            so->stalled[n].x = c->agent[k].x;
            so->stalled[n++].agent = (uint32_t)k;
        }
    if (n == 0)
        return;
    qsort(so->stalled, n, sizeof *so->stalled, cmp_by_x);
    find_waits(c, so, n);
    find_cycles(c, so, n);
    for (k = 0; k < n; k++) {
        size_t i = so->stalled[k].agent;
        ff_agent *a = &c->agent[i];
        if (a->state == FF_AGENT_DEADLOCKED)
            continue;
        a->state = FF_AGENT_STUCK;
        if (!a->jammed) {
            a->jammed = 1;
            so->stuck_id[so->nstuck++] = a->id;
        }
    }
    qsort(so->stuck_id, so->nstuck, sizeof *so->stuck_id, cmp_u32);
}

const uint32_t *ff_standoff_stuck(const ff_crowd *c, size_t *n)
{
    *n = c->standoff ? c->standoff->nstuck : 0;
    return c->standoff ? c->standoff->stuck_id : NULL;
}

int ff_standoff_jammed(const ff_crowd *c, size_t i)
{
    return c->standoff && c->agent[i].jammed;
}
