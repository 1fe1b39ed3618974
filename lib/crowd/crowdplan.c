/* crowdplan.c - MAPF plans made before the first move; see crowdplan.h
 * and man 1 ffsim ("PLANS").
 *
 * The first plan is the online rule's own run (PIBT and its complement,
 * grid/), steered by the agents' scatter (plan/scatter.c, after Okumura,
 * AAMAS 2024: each agent tries its scattered path's next cell first,
 * grid/prefsteps.c), which the tick (crowd.c) plays to its end on a crowd
 * of its own and records here cell by cell; when it is far from the lower
 * bound, further scatters of other seeds are tried (a portfolio) and the
 * cheapest run is kept; large-neighbourhood search (plan/mapflns.c, after Li et al.,
 * IJCAI 2021 and AAAI 2022) then shortens it, with the own goals' fields
 * as its heuristic, and the grid moves walk the result (grid/planwalk.c).
 * A plan never costs more than the run it began from. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crowdplan.h"
#include "grow.h"
#include "hopplanes.h"
#include "mapflns.h"
#include "placement.h"
#include "planwalk.h"
#include "prefsteps.h"
#include "sample.h"
#include "scatter.h"

#define PLAN_SEED 0x9E3779B97F4A7C15ull /* the search's draws (any fixed one) */
#define SCATTER_MARGIN 10      /* steps a scatter path may add (LaCAM3's) */
#define SCATTER_WORK 1300000ULL /* the scatter's expansions at most: two
                                    rounds of 1,000 agents on the warehouse */
#define TRIES_MAX 8            /* runs of the portfolio at most */
#define TRIES_RATIO 2          /* another try while the cheapest costs over
                                  this many times the bound */
#define TRIES_WORK 4000000ULL  /* the tries' agent-ticks and expansions at most */
#define PLAN_HOPS_BYTES ((size_t)128 << 20) /* the search's planes of hop counts at most */

/* The cost of every open cell of g when they are all one, else 0. */
static double uniform_cost(const ff_grid *g)
{
    size_t k, cells = (size_t)g->w * (size_t)g->h;
    double c0 = 0;
    for (k = 0; k < cells; k++) {
        if (!ff_grid_open(g, k))
            continue;
        if (c0 == 0)
            c0 = g->cost[k];
        else if (g->cost[k] != c0)
            return 0;
    }
    return c0 > 0 && isfinite(c0) ? c0 : 0;
}

int ff_crowd_plan_applies(const ff_crowd *c)
{
    const ff_scenario *s = c->scenario;
    size_t k;

    if (s->plan_effort <= 0 || !c->profiles || c->profiles->turn || s->move != FF_MOVE_GRID || !s->reserve ||
        !s->stay || !c->agent_goal || c->grid->moves != 4 || uniform_cost(c->grid) == 0)
        return 0;
    for (k = 0; k < s->nclasses; k++)
        if (!ff_footprint_disk_in_cell(c->grid, s->cls[k].radius))
            return 0;
    for (k = 0; k < s->nagents; k++)
        if (s->agent[k].goal < 0)
            return 0;
    return 1;
}

/* The heuristic of the search: the hop count of agent's own goal's field
 * (the first plan's crowd's) at cell, -1 when it leads nowhere.  On small
 * maps, from a whole plane of the field's counts made breadth first by
 * the field's own steps (hopplanes.h: cheaper than growing the field
 * that far, and the same counts), while the pool has room; else from the
 * field. */
typedef struct {
    ff_crowd *run;
    double step;               /* the cost of one step */
    ff_hopplanes *planes;      /* per goal field */
} steps_ctx;

/* x for the heuristic of run's agents, rec's planes made when not yet
 * (no pool, too large a map or no memory: the fields alone). */
static void steps_of(steps_ctx *x, ff_crowd *run, ff_plan_record *rec)
{
    x->run = run;
    x->step = uniform_cost(run->grid);
    if (!rec->planes_made)
        ff_hopplanes_init(&rec->planes, (uint32_t)run->grid->w, (uint32_t)run->grid->h, run->goals.nfields,
                          PLAN_HOPS_BYTES);
    rec->planes_made = 1;
    x->planes = &rec->planes;
}

void ff_crowd_plan_record_free(ff_plan_record *rec)
{
    free(rec->cells);
    if (rec->planes_made)
        ff_hopplanes_free(&rec->planes);
}

static long steps_to_goal(void *ctx, size_t agent, uint32_t cell)
{
    steps_ctx *x = ctx;
    ff_crowd *r = x->run;
    uint32_t f = r->agent_goal[agent];
    const ff_goalfield *gf = &r->goals.field[f];
    const uint16_t *plane;
    double d;

    if (gf->hops &&
        (plane = ff_hopplanes_get(x->planes, f, r->profiles->profile[gf->profile].step_mask, gf->goal)))
        return plane[cell] == FF_HOPPLANE_UNREACHED ? -1 : plane[cell];
    ff_goalfields_settle(&r->goals, r->profiles, f, cell);
    d = ff_cost_at(ff_goalfields_cost(&r->goals, f), cell);
    return d < INFINITY ? lround(d / x->step) : -1;
}

ff_status ff_crowd_plan_scatter(ff_crowd *run, ff_plan_record *rec, ff_plan_tries *pt, ff_error *err)
{
    const ff_scenario *s = run->scenario;
    size_t n = run->nagents, k;
    uint32_t *start = malloc((n ? n : 1) * sizeof *start), *goal = malloc((n ? n : 1) * sizeof *goal);
    ff_mapf_scatter sc;
    steps_ctx x;
    ff_status st = FF_OK;

    if (!start || !goal)
        st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the plan");
    for (k = 0; st == FF_OK && k < n; k++) {
        long long cx, cy;
        ff_world_to_cell(run->grid, s->agent[k].x, s->agent[k].y, &cx, &cy);
        start[k] = (uint32_t)((size_t)cy * (size_t)run->grid->w + (size_t)cx);
        goal[k] = (uint32_t)s->agent[k].goal;
        st = ff_goalfields_ensure(&run->goals, run->profiles, run->agent_goal[k], err);
    }
    if (st == FF_OK) {
        steps_of(&x, run, rec);
        st = ff_mapf_scatter_make(run->grid, n, start, goal, steps_to_goal, &x, SCATTER_MARGIN, pt->tries ? SCATTER_WORK / 2 : SCATTER_WORK,
                                  pt->seed, &sc, err);
    }
    if (st == FF_OK && pt->bound < 0)
        for (pt->bound = 0, k = 0; k < n; k++) {
            long h = steps_to_goal(&x, k, start[k]);
            pt->bound += h > 0 ? h : 0;
        }
    if (st == FF_OK) {
        pt->scatter_work = sc.expansions;
        if ((st = ff_goalfields_status(&run->goals, err)) == FF_OK)
            st = ff_prefsteps_set(run, n, sc.path, sc.len, err);
        ff_mapf_scatter_free(&sc);
    }
    free(start);
    free(goal);
    return st;
}

/* The tick after which agent k of a record of n agents (cells, nticks
 * rows) no longer leaves goal: its cost. */
static size_t arrival(const uint32_t *cells, size_t nticks, size_t n, size_t k, uint32_t goal)
{
    size_t t, cost = 0;
    for (t = 0; t < nticks; t++)
        if (cells[t * n + k] != goal)
            cost = t + 1;
    return cost;
}

void ff_crowd_plan_tries_init(ff_plan_tries *pt)
{
    *pt = (ff_plan_tries){ .cost = -1, .bound = -1, .seed = PLAN_SEED };
}

void ff_crowd_plan_tries_free(ff_plan_tries *pt)
{
    free(pt->cells);
}

int ff_crowd_plan_try_again(ff_plan_tries *pt, ff_crowd *run, ff_plan_record *rec, int arrived)
{
    const ff_scenario *s = run->scenario;
    size_t n = run->nagents, k;
    /* A try's work: its scatter's expansions, its agent-ticks and its
     * complement's agent-visits (what its time goes in, alike). */
    unsigned long long run_work = ((unsigned long long)rec->nticks + run->stats.complement_nodes) * n;
    unsigned long long next_work = run_work + (pt->scatter_work < SCATTER_WORK / 2 ? pt->scatter_work : SCATTER_WORK / 2);

    if (pt->tries++ > 0)
        pt->work += run_work + pt->scatter_work;
    if (arrived && !rec->refused) {
        long long cost = 0;
        for (k = 0; k < n; k++)
            cost += (long long)arrival(rec->cells, rec->nticks, n, k, (uint32_t)s->agent[k].goal);
        if (pt->cost < 0 || cost < pt->cost) {
            uint32_t *cells = pt->cells;
            size_t cap = pt->cap;
            pt->cells = rec->cells;
            pt->cap = rec->cap;
            pt->nticks = rec->nticks;
            pt->cost = cost;
            rec->cells = cells;
            rec->cap = cap;
        }
    }
    rec->nticks = 0;
    rec->refused = 0;
    /* The seeds of the tries after the first: a splitmix64 stream. */
    ff_splitmix64(&pt->seed);
    /* The next try costs about what this one did (a scatter of half the
     * first's work at most): made while it fits. */
    return pt->cost >= 0 && pt->cost > TRIES_RATIO * pt->bound && pt->tries < TRIES_MAX &&
           pt->work + next_work <= TRIES_WORK;
}

int ff_crowd_plan_tries_best(ff_plan_tries *pt, ff_plan_record *rec)
{
    if (pt->cost < 0)
        return 0;
    free(rec->cells);
    rec->cells = pt->cells;
    rec->cap = pt->cap;
    rec->nticks = pt->nticks;
    rec->refused = 0;
    pt->cells = NULL;
    pt->cap = pt->nticks = 0;
    return 1;
}

ff_status ff_crowd_plan_record(const ff_crowd *r, ff_plan_record *rec, ff_error *err)
{
    const ff_grid *g = r->grid;
    size_t n = r->nagents, k;
    uint32_t *row;

    if ((rec->nticks + 1) * n > FF_PLAN_RECORD_MAX) {
        rec->refused = 1;  /* (no plan: the online rule runs alone) */
        return FF_OK;
    }
    for (k = 0; k < n && rec->nticks == 0; k++)
        if (r->agent[k].state == FF_AGENT_UNBORN) {
            rec->refused = 1;  /* (its start taken: no plan from tick 0) */
            return FF_OK;
        }
    if (rec->nticks == rec->cap) {
        uint32_t *more = ff_grow(rec->cells, &rec->cap, rec->nticks + 1, n * sizeof *more, 64);
        if (!more)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the plan");
        rec->cells = more;
    }
    row = rec->cells + rec->nticks++ * n;
    for (k = 0; k < n; k++) {
        long long x, y;
        ff_world_to_cell(g, r->agent[k].x, r->agent[k].y, &x, &y);
        row[k] = (uint32_t)((size_t)y * (size_t)g->w + (size_t)x);
    }
    return FF_OK;
}

/* The recorded run's paths (each agent's cells up to its last arrival)
 * into path and len, their goals into goal: FF_ENOMEM. */
static ff_status cut_paths(const ff_scenario *s, const uint32_t *cells, size_t nticks, uint32_t **path,
                           size_t *len, uint32_t *goal, ff_error *err)
{
    size_t n = s->nagents, k, t;

    for (k = 0; k < n; k++) {
        size_t cost;
        goal[k] = (uint32_t)s->agent[k].goal;
        cost = arrival(cells, nticks, n, k, goal[k]);
        if (!(path[k] = malloc((cost + 1) * sizeof **path)))
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the plan");
        for (t = 0; t <= cost; t++)
            path[k][t] = cells[t * n + k];
        len[k] = cost + 1;
    }
    return FF_OK;
}

ff_status ff_crowd_plan_make(ff_crowd *c, ff_crowd *run, ff_plan_record *rec, unsigned long long tries_work,
                             const uint32_t *index, ff_error *err)
{
    /* The tries' work is paid partly from the search's: the run's time
     * stays bounded (man 1 ffsim, "PLANS"). */
    unsigned long long effort = (unsigned long long)c->scenario->plan_effort * 1000,
                       paid = tries_work / 4 < effort / 2 ? tries_work / 4 : effort / 2;
    const ff_scenario *s = run->scenario;
    uint32_t **path, *goal, *agent;
    size_t n = s->nagents, *len, k;
    ff_mapf_plan pl;
    ff_mapf_stats ms;
    steps_ctx x;
    ff_status st;

    path = calloc(n, sizeof *path);
    len = malloc(n * sizeof *len);
    goal = malloc(n * sizeof *goal);
    agent = malloc(n * sizeof *agent);
    if (!path || !len || !goal || !agent)
        st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the plan");
    else
        st = cut_paths(s, rec->cells, rec->nticks, path, len, goal, err);
    if (st == FF_OK) {
        steps_of(&x, run, rec);
        pl = (ff_mapf_plan){ c->grid, n, goal, path, len, steps_to_goal, &x };
        st = ff_mapf_improve(&pl, effort - paid, PLAN_SEED, &ms, err);
        if (st == FF_OK)
            st = ff_goalfields_status(&run->goals, err);
    }
    free(goal);
    if (st != FF_OK) {
        for (k = 0; path && k < n; k++)
            free(path[k]);
        free(path);
        free(len);
        free(agent);
        return st;
    }
    memcpy(agent, index, n * sizeof *agent);
    c->stats.plan_online_cost = ms.cost_before;
    c->stats.plan_iterations = ms.iterations;
    c->stats.plan_improved = ms.improved;
    return ff_planwalk_set(c, n, agent, path, len, err);
}
