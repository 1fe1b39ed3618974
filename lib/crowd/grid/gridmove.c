/* gridmove.c - cell-to-cell moves ('move grid'): each tick's requests,
 * their grants by reservation, waits, own paths round held cells, wait-for
 * cycles, and spawns; see crowd.h, reserve.h and man 1 ffsim. */
#include <limits.h>
#include <string.h>

#include "gridmove.h"
#include "lacam.h"
#include "pibt.h"
#include "planwalk.h"
#include "prefsteps.h"
#include "direction.h"
#include "sample.h"

/* ---- cell-to-cell moves ('move grid') ---- */

/* Footprint half-width in cells of a disk of radius r centered in a
 * cell: the cells its bounding box reaches beyond its own. */
static int32_t footprint_half(const ff_grid *g, double r)
{
    double k;
    if (r <= 0.5 * g->cell_size)
        return 0;  /* (what the rest gives, without its division and ceil) */
    k = ceil(r / g->cell_size - 0.5 - 1e-9);
    if (!(k < (double)g->w + (double)g->h))  /* (the reader refuses such radii) */
        k = (double)g->w + (double)g->h;
    return k > 0 ? (int32_t)k : 0;
}

ff_status ff_gridmove_init(ff_crowd *c, size_t nagents, ff_error *err)
{
    const ff_scenario *s = c->scenario;
    size_t na = nagents ? nagents : 1, k;
    struct ff_gridmove *gm;

    if (!(gm = c->gridmove = calloc(1, sizeof *gm)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu agents", s->nagents);
    /* (a line a request: see reserve.h) */
    gm->rq.req = aligned_alloc(64, (na * sizeof *gm->rq.req + 63) / 64 * 64);
    gm->rq.agent = malloc(na * sizeof *gm->rq.agent);
    gm->rq.kept = malloc(na);
    gm->rq.cls = malloc((s->nclasses ? s->nclasses : 1) * sizeof *gm->rq.cls);
    gm->waits_on = malloc(na * sizeof *gm->waits_on);
    gm->cycle = malloc(na * sizeof *gm->cycle);
    gm->cycle_scratch = malloc(na);
    gm->spawn_scratch = malloc(na * sizeof *gm->spawn_scratch);
    for (gm->cell_seen_mask = 1; gm->cell_seen_mask < 2 * na; gm->cell_seen_mask *= 2)
        ;
    gm->cell_seen = malloc(gm->cell_seen_mask-- * sizeof *gm->cell_seen);
    gm->settled = malloc(na * sizeof *gm->settled);
    gm->settled_builds = ULLONG_MAX;  /* (none settled yet) */
    if (!gm->rq.req || !gm->rq.agent || !gm->rq.kept || !gm->rq.cls || !gm->waits_on || !gm->cycle ||
        !gm->cycle_scratch || !gm->spawn_scratch || !gm->cell_seen || !gm->settled)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu agents", s->nagents);
    gm->in_cell = 1;
    for (k = 0; k < s->nclasses; k++) {
        ff_footprint *gc = &gm->rq.cls[k];
        gc->radius = s->cls[k].radius;
        gc->half = footprint_half(c->grid, gc->radius);
        gc->in_cell = ff_footprint_disk_in_cell(c->grid, gc->radius);
        gm->in_cell &= gc->in_cell;
    }
    return s->reserve ? ff_pibt_init(c, &gm->rq, nagents, err) : FF_OK;
}

void ff_gridmove_free(ff_crowd *c)
{
    struct ff_gridmove *gm = c->gridmove;

    ff_pibt_free(c);
    ff_lacam_free(c);
    ff_planwalk_free(c);
    ff_prefsteps_free(c);
    if (!gm)
        return;
    free(gm->rq.req);
    free(gm->rq.agent);
    free(gm->rq.kept);
    free(gm->rq.cls);
    free(gm->waits_on);
    free(gm->cycle);
    free(gm->cycle_scratch);
    free(gm->spawn_scratch);
    free(gm->cell_seen);
    free(gm->settled);
    free(gm->still_mask);
    free(gm);
    c->gridmove = NULL;
}

/* The grant of requests 0..n: PIBT's marks and order, then the MAPF
 * plan's turn while it fits (planwalk.h: the hook of events), else the
 * complement's when its plan decides, else PIBT's.  FF_ENOMEM. */
static ff_status grant(ff_crowd *c, size_t n, ff_error *err)
{
    int planned;

    ff_pibt_begin(c, n);
    if (!(planned = ff_planwalk_tick(c, &c->gridmove->rq, n)) &&
        (planned = ff_lacam_tick(c, &c->gridmove->rq, n, err)) < 0)
        return FF_ENOMEM;
    ff_pibt_grant(c, n, planned);
    return FF_OK;
}

/* The overlap measure, kept as the tick puts each agent in its cell:
 * measure_begin, then measure_add for every present agent's cell at the
 * end of the tick, or measure_off when its position is not the center of
 * a cell of the map. */
static void measure_begin(ff_crowd *c)
{
    memset(c->gridmove->cell_seen, 0, (c->gridmove->cell_seen_mask + 1) * sizeof *c->gridmove->cell_seen);
    c->gridmove->shared = 0;
    c->gridmove->off_center = 0;
}

/* 1 when cell is among the cells taken so far, else 0 and it is added
 * (seen: the crowd's cell_seen, mask its cell_seen_mask: as cell + 1 in
 * an open-addressed table twice the agents' number; 0 empty) */
static inline int measure_add(uint32_t *seen, uint32_t mask, uint32_t cell)
{
    uint32_t h;

    for (h = (cell * 2654435761u) & mask; seen[h] && seen[h] != cell + 1; h = (h + 1) & mask)
        ;
    if (seen[h])
        return 1;
    seen[h] = cell + 1;
    return 0;
}

double ff_gridmove_overlap(ff_crowd *c)
{
    const ff_grid *g = c->grid;
    size_t k;

    if (!c->gridmove->in_cell)
        return -1;
    if (!c->gridmove->off_center)
        return c->gridmove->shared;  /* (every agent at a cell's center: no order to keep) */
    /* Afresh, in index order: the first agent off a center, or the first
     * that shares a cell, decides. */
    memset(c->gridmove->cell_seen, 0, (c->gridmove->cell_seen_mask + 1) * sizeof *c->gridmove->cell_seen);
    for (k = 0; k < c->nlive; k++) {
        const ff_agent *a = &c->agent[c->live[k]];
        long long cx, cy;
        uint32_t cell;
        if (!world_to_cell(c, a->x, a->y, &cx, &cy))
            return -1;
        cell = (uint32_t)((size_t)cy * (size_t)g->w + (size_t)cx);
        if (cell == UINT32_MAX || a->x != column_center(g, cx) || a->y != row_center(g, cy))
            return -1;
        if (measure_add(c->gridmove->cell_seen, (uint32_t)c->gridmove->cell_seen_mask, cell))
            return 1;
    }
    return 0;
}

/* Count cell among request q's candidates; the first is its preferred. */
static inline void take_candidate(ff_reserve_request *q, uint32_t cell)
{
    if (q->ncand++ == 0)
        q->cand = cell;
}

/* Add cell to request q's candidates when the sweep there is clear for
 * radius r (the first one added is its preferred); a refused one is
 * counted. */
static inline void add_candidate(ff_crowd *c, ff_reserve_request *q, uint32_t cell, double r)
{
    if (c->scenario->reserve || ff_footprint_sweep_clear(&c->walls, q->cell, cell, r)) {  /* (pibt.c sweeps) */
        take_candidate(q, cell);
    } else {
        c->stats.sweep_failures++;
    }
}

/* Request q's candidates from a newly closed cell (cx, cy): out to any
 * open neighbour. */
static void escape_candidates(const ff_grid *g, ff_reserve_request *q, long long cx, long long cy)
{
    int d;

    for (d = 0; d < 8; d++) {
        long long nx = cx + ff_dir_dx[d], ny = cy + ff_dir_dy[d];
        if (nx >= 0 && ny >= 0 && nx < g->w && ny < g->h && ff_grid_open(g, (size_t)ny * (size_t)g->w + (size_t)nx))
            take_candidate(q, (uint32_t)(ny * g->w + nx));
    }
}

/* Before agent index's step from request q's cell to next (its field's):
 * when the sweep of its footprint fp touches a wall (measured here for
 * every disk without reservations, for a disk wider than its cell with
 * them: pibt.c sweeps the rest), it tries the field's other tight steps,
 * then waits (its plan's sweep_blocked), then after wait-limit waits
 * plans an own path round the walls (plan_after_waits).  1 when it
 * found none from here on this map: it is stuck there (and not pushed:
 * no cost to order cells by, see pibt()). */
static int stopped_by_sweep(ff_crowd *c, size_t index, ff_reserve_request *q, uint32_t next, const ff_footprint *fp)
{
    ff_agent_plan *pl = &c->plan[index];

    if ((c->scenario->reserve && fp->in_cell) || ff_footprint_sweep_clear(&c->walls, q->cell, next, fp->radius))
        return 0;
    if (pl->sweep_stuck && pl->map_tick == c->profiles->map_tick) {
        c->agent[index].state = FF_AGENT_STUCK;
        q->cost = ff_cost_doubles(NULL);
        return 1;
    }
    pl->sweep_blocked = 1;
    return 0;
}

/* Fill request q for agent index (its cell set; kept: its agent's
 * footprint, priority, id and class kept in it from the last tick): the
 * next cells it may take in order of preference; sets the agent's
 * state. */
static void grid_request(ff_crowd *c, size_t index, ff_reserve_request *q, int kept)
{
    const ff_grid *g = c->grid;
    ff_agent *a = &c->agent[index];
    const ff_agent_class *cls;
    ff_profile *f;
    const ff_grid *lg;
    /* (its own goal's field, or none: agent_dir_of's first test, once) */
    uint32_t goal = own_goal(c, index) ? c->agent_goal[index] : FF_GOALFIELD_NONE;
    const uint8_t *dir = goal != FF_GOALFIELD_NONE ? ff_goalfields_direction(&c->goals, c->profiles, goal)
                                                   : agent_dir_of(c, index, a->cls);
    ff_cost_view cost_to_goal;
    ff_agent_plan *pl = &c->plan[index];
    const ff_footprint *fp = &c->gridmove->rq.cls[a->cls];
    long long cx, cy;
    uint32_t cell = q->cell, next;
    int d, e, reserve = c->scenario->reserve;

    if (dir && goal != FF_GOALFIELD_NONE && c->gridmove->settled[index] != cell) {
        /* What the request and the grant read of it (final since it last
         * did so here: see gridmove_tick). */
        ff_goalfields_settle_steps(&c->goals, c->profiles, goal, g, cell);
        c->gridmove->settled[index] = cell;
    }
    if (!kept) {
        q->half = c->gridmove->rq.cls[a->cls].half;
        q->priority = c->scenario->cls[a->cls].agent_priority;
        q->id = a->id;
        q->cls = a->cls;
    }
    if (reserve) {
        /* The grant order: longer away from its goal first. */
        pl->away = a->state == FF_AGENT_ARRIVED ? 0 : pl->away + 1;
        q->waited = pl->away;
    } else {
        q->waited = pl->waited;
    }
    if (!reserve || !dir)
        q->cost = ff_cost_doubles(NULL);
    else  /* (ff_agent_cost_dir's) */
        q->cost = goal != FF_GOALFIELD_NONE ? ff_goalfields_cost(&c->goals, goal) : ff_agent_cost_dir(c, index, dir);
    q->ncand = 0;
    pl->sweep_blocked = 0;
    if (a->state == FF_AGENT_ARRIVED)
        return;
    cls = &c->scenario->cls[a->cls];
    f = ff_profiles_of(c->profiles, a->cls);
    lg = &f->grid;
    cx = (long long)(cell % (uint32_t)g->w);
    cy = (long long)(cell / (uint32_t)g->w);
    if (!ff_grid_open(g, cell)) {
        a->state = FF_AGENT_ESCAPING;
        c->stats.escapes++;
        escape_candidates(g, q, cx, cy);
        return;
    }
    if (pl->path && dir && pl->map_tick == c->profiles->map_tick && pl->waited < c->scenario->wait_limit) {
        /* An own path planned after waiting (plan_after_waits): walk
         * it to its end, or until refused wait-limit times in a row. */
        if (ff_ownpath_next(c, index, cell, fp, &next)) {
            a->state = FF_AGENT_FALLBACK;
            add_candidate(c, q, next, cls->radius);
            return;
        }
        ff_ownpath_drop(pl);
    }
    if (!dir) {
        if (c->scenario->fallback == FF_FALLBACK_ASTAR && goal == FF_GOALFIELD_NONE &&
            ff_ownpath_next(c, index, cell, fp, &next)) {
            a->state = FF_AGENT_FALLBACK;
            add_candidate(c, q, next, cls->radius);
        } else {
            a->state = FF_AGENT_WAITING_FIELD;
            c->stats.stale_ticks++;
        }
        return;
    }
    if (pl->path)
        ff_ownpath_drop(pl);
    d = dir[cell];
    if (d == FF_DIR_NONE) {
        a->state = FF_AGENT_STUCK;
        return;
    }
    next = d == FF_DIR_GOAL ? cell : (uint32_t)((cy + ff_dir_dy[d]) * g->w + cx + ff_dir_dx[d]);
    if (c->prefsteps && d != FF_DIR_GOAL && reserve)  /* (a plan's scatter's first: prefsteps.h) */
        next = ff_prefsteps_next(c->prefsteps, index, cell, next);
    if (next != cell && stopped_by_sweep(c, index, q, next, fp))
        return;
    if (a->state != FF_AGENT_DEADLOCKED)
        a->state = FF_AGENT_MOVING;
    if (d == FF_DIR_GOAL)
        return;
    if (reserve || !pl->sweep_blocked)
        take_candidate(q, next);  /* (with reservations pibt.c counts a refusal) */
    else
        c->stats.sweep_failures++;
    if (reserve)
        return;  /* PIBT orders the cells itself and reads only the first */
    cost_to_goal = goal != FF_GOALFIELD_NONE ? ff_goalfields_cost(&c->goals, goal)
                                      : ff_cost_doubles(f->distance);
    if (c->congested && goal == FF_GOALFIELD_NONE && dir != f->direction) {
        /* Following its congestion field: the ties are that field's. */
        const ff_congestion_field *cf = &c->congestion.field[c->profiles->class_profile[a->cls]];
        cost_to_goal = ff_cost_doubles(cf->cost_to_goal);
        lg = &cf->grid;
    }
    /* The field's other optimal steps (ties), in code order. */
    for (e = 0; e < 8; e++) {
        size_t n;
        if (e == d || !(f->step_mask[cell] >> e & 1))
            continue;
        n = (size_t)(cy + ff_dir_dy[e]) * (size_t)g->w + (size_t)(cx + ff_dir_dx[e]);
        if (dir[n] != FF_DIR_NONE &&
            ff_step_tight(ff_cost_at(cost_to_goal, cell), ff_cost_at(cost_to_goal, n), ff_grid_step_cost(lg, cell, e)))
            add_candidate(c, q, (uint32_t)n, cls->radius);
    }
}

/* Ask for what request k's agent will read round its cell (set): its
 * field's directions and cost to goal, its profile's costs and steps, the
 * map's cost; the agents stand anywhere on the map.  Changes nothing but
 * speed. */
static void prefetch_request(const ff_crowd *c, size_t k)
{
    const ff_grid *g = c->grid;
    size_t index = c->gridmove->rq.agent[k];
    const ff_agent *a = &c->agent[index];
    uint32_t cell = c->gridmove->rq.req[k].cell;
    const ff_profile *f;
    const uint8_t *dir;
    ff_cost_view cost;

    if (a->state == FF_AGENT_ARRIVED || cell >= (uint32_t)((size_t)g->w * (size_t)g->h))
        return;
    f = &c->profiles->profile[c->profiles->class_profile[a->cls]];
    dir = agent_dir_of(c, index, a->cls);
    PREFETCH(&g->cost[cell]);
    if (!dir)
        return;
    PREFETCH(&dir[cell]);
    if (c->scenario->reserve)
        return;  /* (no ties: see grid_request) */
    PREFETCH(&f->step_mask[cell]);
    prefetch_around_cell(dir, 1, g, cell);
    cost = own_goal(c, index) ? ff_goalfields_cost(&c->goals, c->agent_goal[index]) : ff_cost_doubles(f->distance);
    if (!cost.hops)  /* (a field of hop counts: its cell's tile slot) */
        prefetch_around_cell(cost.cells, sizeof(double), g, cell);
    else
        PREFETCH(ff_cost_addr(cost, cell));
    prefetch_around_cell(f->grid.cost, sizeof *f->grid.cost, g, cell);
}

/* The present agents and their cells first (no memory but theirs), then
 * their requests, each asking ahead for what the next will read.  A
 * request of the last tick for the same agent keeps what does not
 * change, and when the agent has not moved since (nor was anyone off a
 * cell's center then), its cell.  Returns the number of requests. */
static size_t make_requests(ff_crowd *c, int was_off_center)
{
    struct ff_gridmove *gm = c->gridmove;
    const ff_grid *g = c->grid;
    size_t k, n = 0, nsame = 0, nlast = gm->nreq_last;
    /* (held here: the byte stores below would have them read again) */
    ff_agent *agent = c->agent;
    uint32_t *req_agent = gm->rq.agent;
    uint8_t *kept = gm->rq.kept;

    for (k = 0; k < c->nagents; k++) {
        ff_agent *a = &agent[k];
        long long cx, cy;
        int same;
        if (!present(a))
            continue;
        same = n < nlast && req_agent[n] == k;
        nsame += (size_t)same;
        if (same && a->x == a->x0 && a->y == a->y0 && !was_off_center) {
            kept[n++] = 2;  /* (x0, y0 and its cell as they are) */
            continue;
        }
        kept[n] = (uint8_t)same;
        a->x0 = a->x;
        a->y0 = a->y;
        if (!world_to_cell(c, a->x, a->y, &cx, &cy) || a->x != column_center(g, cx) || a->y != row_center(g, cy))
            gm->off_center = 1;  /* (one that stays stays there) */
        req_agent[n] = (uint32_t)k;
        gm->rq.req[n].cell = (uint32_t)((size_t)cy * (size_t)g->w + (size_t)cx);
        n++;
    }
    for (k = 0; k < n; k++) {
        ff_agent *a = &agent[req_agent[k]];
        if (k + PREFETCH_AHEAD < n)
            prefetch_request(c, k + PREFETCH_AHEAD);
        grid_request(c, req_agent[k], &gm->rq.req[k], kept[k]);
        if (a->state != FF_AGENT_ARRIVED)
            c->stats.agent_steps++;
    }
    gm->rq.all_kept = nsame == n && n == nlast;
    gm->nreq_last = n;
    return n;
}

/* Carry out the decided requests 0..n: each granted agent to its next
 * cell's center (heading, jitter), each refused one waiting (an edge of
 * the wait-for graph when its wait counts toward a deadlock), or one
 * whose step's sweep touches a wall waiting on the walls (counted in
 * gm->swept); velocities and the overlap measure of where they end.
 * Returns the number of wait-for edges. */
static size_t apply_grants(ff_crowd *c, size_t n)
{
    struct ff_gridmove *gm = c->gridmove;
    const ff_scenario *s = c->scenario;
    const ff_grid *g = c->grid;
    size_t k, nwaits = 0;
    /* (held here: the byte stores below would have them read again) */
    ff_agent *agent = c->agent;
    const uint32_t *req_agent = gm->rq.agent;
    const ff_footprint *gcl = gm->rq.cls;
    const ff_reserve_request *req = gm->rq.req;
    ff_agent_plan *plan = c->plan;
    uint32_t *waits_on = gm->waits_on, *seen = gm->cell_seen, mask = (uint32_t)gm->cell_seen_mask;
    int shared = 0, off_center = gm->off_center;
    size_t swept = 0;

    for (k = 0; k < n; k++) {
        const ff_reserve_request *q = &req[k];
        size_t i = req_agent[k];
        ff_agent *a = &agent[i];
        ff_agent_plan *pl = &plan[i];
        uint32_t end;
        if (k + PREFETCH_AHEAD < n) {
            const ff_reserve_request *p = &req[k + PREFETCH_AHEAD];
            PREFETCH(&g->cost[p->granted >= 0 ? p->cand : p->cell]);
        }
        waits_on[k] = FF_RESERVE_NONE;
        if (q->granted >= 0) {
            uint32_t next = q->cand, nx = next % (uint32_t)g->w, ny = next / (uint32_t)g->w;
            double hx0 = a->hx, hy0 = a->hy, dx, dy, len;
            /* (cell_center_x and _y, with one division) */
            a->x = column_center(g, nx);
            a->y = row_center(g, ny);
            dx = a->x - a->x0;
            dy = a->y - a->y0;
            len = sqrt(dx * dx + dy * dy);
            a->hx = dx / len;
            a->hy = dy / len;
            c->stats.jitter_moves++;
            if (a->hx != hx0 || a->hy != hy0)
                c->stats.jitter_sum += atan2(fabs(hx0 * a->hy - hy0 * a->hx), hx0 * a->hx + hy0 * a->hy) * (180 / PI);
            pl->waited = 0;
            pl->still = 0;
            pl->no_way = 0;
            pl->sweep_stuck = 0;
            pl->reported = 0;
            if (a->state == FF_AGENT_DEADLOCKED)
                a->state = FF_AGENT_MOVING;
            if (a->state == FF_AGENT_ARRIVED) {
                /* Pushed off its goal: it comes back as it can. */
                a->state = FF_AGENT_MOVING;
                c->on_goal--;
            }
        } else if (q->ncand > 0) {
            pl->waited++;
            c->stats.queue_wait++;
            c->stats.reservation_waits++;
            /* Only the grant refuses a request (without reservations
             * every one with a cell moves), and it finds the ways round:
             * a refused request has none. */
            pl->no_way = 1;
            /* A wait counts toward a deadlock only when the field's
             * every optimal step was refused (not an own path's).  (A
             * large footprint can be refused for a cell of its own: an
             * agent never waits on itself.) */
            if (a->state != FF_AGENT_FALLBACK && (!s->reserve || pl->waited >= s->wait_limit) &&
                q->blocker != (uint32_t)k)
                nwaits += (waits_on[k] = q->blocker) != FF_RESERVE_NONE;
        } else if (pl->sweep_blocked) {
            pl->waited++;  /* (on the walls: no agent to wait on) */
            c->stats.queue_wait++;
            swept++;
        }
        if (q->granted < 0)
            pl->still++;
        a->vx = (a->x - a->x0) / s->tick_dt;
        a->vy = (a->y - a->y0) / s->tick_dt;
        /* A disk within its cell at an open cell's center is clear of
         * the walls: the end of the tick need not measure it.  (One that
         * moved stands at its cell's center: it was just put there.) */
        end = q->granted >= 0 ? q->cand : q->cell;
        shared |= measure_add(seen, mask, end);
        a->clear = gcl[a->cls].in_cell && ff_grid_open(g, end) &&
                   (q->granted >= 0 || !off_center ||  /* (the first pass found every one at its center) */
                    (a->x == cell_center_x(g, end) && a->y == cell_center_y(g, end)));
    }
    gm->shared |= shared;
    gm->swept = swept;
    return nwaits;
}

/* Mark (value 1) or clear (0) in mask the footprint of request q. */
static void mark_footprint(const ff_grid *g, uint8_t *mask, const ff_reserve_request *q, uint8_t value)
{
    int32_t h = q->half, x = (int32_t)(q->cell % (uint32_t)g->w), y = (int32_t)(q->cell / (uint32_t)g->w), dx, dy;
    for (dy = -h; dy <= h; dy++)
        for (dx = -h; dx <= h; dx++)
            if (x + dx >= 0 && y + dy >= 0 && x + dx < g->w && y + dy < g->h)
                mask[(size_t)(y + dy) * (size_t)g->w + (size_t)(x + dx)] = value;
}

/* 1 when agent a stays where it is until something else changes: it
 * has no way on (stuck), no field (waiting) or is deadlocked. */
static inline int stopped(const ff_agent *a)
{
    return a->state == FF_AGENT_STUCK || a->state == FF_AGENT_WAITING_FIELD || a->state == FF_AGENT_DEADLOCKED;
}

/* wait-limit: an agent refused wait-limit times in a row (and again
 * after as many more), with reservations by one that has not moved for
 * as many ticks (one with a goal of its own: by one stopped, as PIBT and
 * the complement see a queue through better than a detour), or whose
 * field's step would sweep its disk over a wall (in either mode), plans
 * its own path (to its own goal or its class's) on the current map round
 * the footprints of every agent still for wait-limit ticks (with
 * reservations), each step's sweep clear; it walks it under the same
 * reservations (grid_request) and goes back to its field at its end or
 * after wait-limit waits on it.  Counted in fallbacks.  One stopped by
 * the sweep with no way round the walls at all is stuck.  swept: the
 * tick's waits on the sweep (apply_grants).  FF_ENOMEM. */
static ff_status plan_after_waits(ff_crowd *c, size_t n, size_t swept, ff_error *err)
{
    struct ff_gridmove *gm = c->gridmove;
    const ff_grid *g = c->grid;
    long long limit = c->scenario->wait_limit;
    size_t k, j;
    int marked = 0, r = 0, reserve = c->scenario->reserve;

    for (k = 0; k < n && r >= 0; k++) {
        const ff_reserve_request *q = &gm->rq.req[k];
        size_t i = gm->rq.agent[k];
        ff_agent_plan *pl;
        const ff_footprint *fp;
        if (q->granted >= 0 || (q->ncand == 0 && !swept))
            continue;
        pl = &c->plan[i];
        fp = &gm->rq.cls[c->agent[i].cls];
        if (c->agent[i].state != FF_AGENT_MOVING || pl->waited == 0 || pl->waited % limit != 0)
            continue;
        if (!pl->sweep_blocked && (!reserve || q->ncand == 0 || q->blocker >= n || q->blocker == (uint32_t)k ||
                                   c->plan[gm->rq.agent[q->blocker]].still < limit ||
                                   (own_goal(c, i) && !stopped(&c->agent[gm->rq.agent[q->blocker]]))))
            continue;
        if (reserve && !gm->still_mask && !(gm->still_mask = calloc((size_t)g->w * (size_t)g->h, 1)))
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for own paths");
        if (reserve && !marked) {
            for (j = 0; j < n; j++)
                if (c->plan[gm->rq.agent[j]].still >= limit)
                    mark_footprint(g, gm->still_mask, &gm->rq.req[j], 1);
            marked = 1;
        }
        if (reserve)
            mark_footprint(g, gm->still_mask, q, 0);  /* (its own cells: it starts there) */
        r = ff_ownpath_plan(c, i, q->cell, reserve ? gm->still_mask : NULL, fp);
        if (reserve)
            mark_footprint(g, gm->still_mask, q, 1);
        if (r == 0 && pl->sweep_blocked && reserve)
            r = ff_ownpath_plan(c, i, q->cell, NULL, fp);  /* (no way round the agents: round the walls?) */
        if (r == 1) {
            pl->waited = 0;  /* (its waits on the path count afresh) */
        } else if (r == 0 && pl->sweep_blocked) {
            pl->sweep_stuck = 1;
            c->agent[i].state = FF_AGENT_STUCK;
        }
    }
    if (marked)
        for (j = 0; j < n; j++)
            if (c->plan[gm->rq.agent[j]].still >= limit)
                mark_footprint(g, gm->still_mask, &gm->rq.req[j], 0);
    return r < 0 ? ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for own paths") : FF_OK;
}

/* Wait-for cycles among the agents of requests 0..n that have no way
 * round (nwaits edges): a cycle is a deadlock only when the complement
 * cannot find a way out (it searches first, the next tick); each fresh
 * one is left in deadlock_id / deadlock_start, its agents deadlocked. */
static void find_deadlocks(ff_crowd *c, size_t n, size_t nwaits)
{
    struct ff_gridmove *gm = c->gridmove;
    size_t k, cyc, m = 0, ncycles;

    ncycles = nwaits ? ff_reserve_cycles(gm->waits_on, n, gm->cycle, gm->cycle_scratch) : 0;
    c->ndeadlocks = 0;
    c->deadlock_start[0] = 0;
    if (ncycles > 0 && c->scenario->reserve && ff_lacam_defer(c, &gm->rq, n))
        return;
    for (cyc = 0; cyc < ncycles; cyc++) {
        size_t first = m;
        int fresh = 0;
        for (k = 0; k < n; k++)
            if (gm->cycle[k] == (int32_t)cyc) {
                ff_agent *a = &c->agent[gm->rq.agent[k]];
                ff_agent_plan *pl = &c->plan[gm->rq.agent[k]];
                /* (once: an agent in a cycle reported since it last
                 * moved is in the same one) */
                fresh |= !pl->reported;
                pl->reported = 1;
                a->state = FF_AGENT_DEADLOCKED;
                c->deadlock_id[m++] = a->id;
            }
        if (fresh) {
            c->stats.deadlocks++;
            c->deadlock_start[++c->ndeadlocks] = m;
        } else {
            m = first;
        }
    }
}

/* One tick of cell-to-cell moves: requests, grants, moves, waits, own
 * paths after wait-limit waits, and wait-for cycles (was_off_center: 1
 * when an agent stood off a cell's center at the last tick). */
static ff_status gridmove_tick(ff_crowd *c, int was_off_center, ff_error *err)
{
    struct ff_gridmove *gm = c->gridmove;
    size_t k, n, nwaits;
    ff_status st;

    if (c->goals.builds != gm->settled_builds || c->profiles->map_tick != gm->settled_map) {
        /* A settled cell stays final until its field is built again; the
         * steps round it, until the map changes. */
        for (k = 0; k < c->nagents; k++)
            gm->settled[k] = UINT32_MAX;
        gm->settled_builds = c->goals.builds;
        gm->settled_map = c->profiles->map_tick;
    }
    n = make_requests(c, was_off_center);
    if ((st = ff_goalfields_status(&c->goals, err)) != FF_OK)
        return st;  /* (a field's search stopped short) */
    if (c->scenario->reserve) {
        if ((st = grant(c, n, err)) != FF_OK)
            return st;
    } else {
        for (k = 0; k < n; k++) {
            gm->rq.req[k].granted = gm->rq.req[k].ncand > 0 ? 0 : -1;
            gm->rq.req[k].blocker = FF_RESERVE_NONE;
        }
    }
    nwaits = apply_grants(c, n);
    if ((c->scenario->reserve || gm->swept) && (st = plan_after_waits(c, n, gm->swept, err)) != FF_OK)
        return st;
    find_deadlocks(c, n, nwaits);
    return FF_OK;
}

/* Spawns of tick t in cell-to-cell moves: at their cell's center, when
 * (with reservations) its footprint is free; otherwise they try again
 * next tick. */
static ff_status gridmove_spawns(ff_crowd *c, long long t, ff_error *err)
{
    const ff_grid *g = c->grid;
    size_t k, due, waiting = 0, born = 0;
    ff_status st;

    for (due = c->next_spawn; due < c->nagents && c->agent[c->spawn_order[due]].spawn_tick <= t; due++)
        ;
    for (k = c->next_spawn; k < due; k++) {
        uint32_t i = c->spawn_order[k];
        ff_agent *a = &c->agent[i];
        long long cx, cy;
        uint32_t cell;
        int inside = world_to_cell(c, a->x, a->y, &cx, &cy);
        cell = (uint32_t)((size_t)cy * (size_t)g->w + (size_t)cx);
        if (c->scenario->reserve &&
            !ff_pibt_claim(c, cell, c->gridmove->rq.cls[a->cls].half)) {
            c->gridmove->spawn_scratch[waiting++] = i;
            continue;
        }
        a->x = cell_center_x(g, cell);
        a->y = cell_center_y(g, cell);
        if (!inside)
            c->gridmove->off_center = 1;
        else
            c->gridmove->shared |= measure_add(c->gridmove->cell_seen, (uint32_t)c->gridmove->cell_seen_mask, cell);
        if ((st = ff_agent_enter(c, i, err)) != FF_OK)
            return st;
        if (c->scenario->reserve)
            ff_pibt_enter(c, i);
        a->state = agent_dir_of(c, i, a->cls) ? FF_AGENT_MOVING : FF_AGENT_WAITING_FIELD;
        a->vx = a->vy = 0;
        a->x0 = a->x;
        a->y0 = a->y;
        c->spawn_order[c->next_spawn + born++] = i;
        c->live_dirty = 1;
    }
    memcpy(c->spawn_order + c->next_spawn + born, c->gridmove->spawn_scratch, waiting * sizeof *c->gridmove->spawn_scratch);
    c->next_spawn += born;
    return FF_OK;
}

ff_status ff_gridmove_step(ff_crowd *c, long long t, ff_error *err)
{
    ff_status st;
    int was_off_center = c->gridmove->off_center;

    measure_begin(c);
    if (t > 0) {
        if ((st = gridmove_tick(c, was_off_center, err)) != FF_OK)
            return st;
    } else if (c->scenario->reserve && (st = grant(c, 0, err)) != FF_OK) {
        return st;
    }
    return gridmove_spawns(c, t, err);
}
