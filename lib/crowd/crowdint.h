/* crowdint.h - what the parts of the crowd share, for lib/crowd's own
 * use (not installed): the agent's helpers, the steering's context, bucket
 * boxes, cell conversions, and each part's entry points.  The parts are
 * crowd.c (the tick: init, step, free), steer.c (the behaviours and the
 * priority blend), contact.c (contacts and overlap resolution), gridmove.c
 * (cell-to-cell moves and reservations), ownpath.c (the own-path
 * fallback) and crowdout.c (the trace and summary writers).  Each part
 * includes this header and no other part's: this header sits below them
 * all.
 */
#ifndef FF_CROWDINT_H
#define FF_CROWDINT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "crowd.h"
#include "sample.h"
#include "turn.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PI 3.14159265358979323846

/* Walks in hash order read agents scattered in memory: ask for the one
 * PREFETCH_AHEAD places on early.  Changes nothing but speed. */
#define PREFETCH_AHEAD 8
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* Ask for the cells of array base (elem bytes a cell, g's layout) within
 * one cell of cell: the ends of its three rows, clipped to the map.  For
 * walks that wander over the whole map (cell-to-cell moves).  Changes
 * nothing but speed. */
static inline void prefetch_around_cell(const void *base, size_t elem, const ff_grid *g, uint32_t cell)
{
    uint32_t w = (uint32_t)g->w, x = cell % w, y = cell / w, r;
    uint32_t x0 = x > 0 ? x - 1 : 0, x1 = x + 1 < w ? x + 1 : x;
    uint32_t y0 = y > 0 ? y - 1 : 0, y1 = y + 1 < (uint32_t)g->h ? y + 1 : y;
    for (r = y0; r <= y1; r++) {
        const char *p0 = (const char *)base + ((size_t)r * w + x0) * elem;
        const char *p1 = (const char *)base + ((size_t)r * w + x1 + 1) * elem - 1;
        PREFETCH(p0);
        if (((uintptr_t)p0 ^ (uintptr_t)p1) >= 64)  /* another cache line */
            PREFETCH(p1);
    }
}

/* floor(v), the same value, without a library call in the common case. */
static inline double floor_fast(double v)
{
    if (fabs(v) < 4503599627370496.0) {  /* 2^52: exact through long long */
        double t = (double)(long long)v;
        return t > v ? t - 1 : t;
    }
    return floor(v);
}

/* ff_world_to_cell (sample.c) on crowd c's map, the same results,
 * inlined: with a power-of-two cell the product by 1 / cell, which is
 * then the quotient. */
static inline int world_to_cell(const ff_crowd *c, double px, double py, long long *x, long long *y)
{
    const ff_grid *g = c->grid;
    double fx = px - g->origin_x, fy = py - g->origin_y;
    if (c->pow2_cell) {
        fx *= c->walls.inv_cell;
        fy *= c->walls.inv_cell;
    } else {
        fx /= g->cell_size;
        fy /= g->cell_size;
    }
    if (fx >= 0 && fy >= 0 && fx < (double)g->w && fy < (double)g->h) {
        *x = (long long)fx;  /* (floor is truncation there) */
        *y = (long long)fy;
        return 1;
    }
    *x = ff_floor_clamped(fx);
    *y = ff_floor_clamped(fy);
    return *x >= 0 && *y >= 0 && *x < g->w && *y < g->h;
}

/* Agents in the simulation: born, and not gone. */
static inline int present(const ff_agent *a)
{
    return a->state >= FF_AGENT_MOVING && a->state <= FF_AGENT_ARRIVED;
}

/* Agents that stand still and are not pushed by overlap resolution. */
static inline int pinned(const ff_agent *a)
{
    return a->state == FF_AGENT_WAITING_FIELD || a->state == FF_AGENT_DEADLOCKED;
}

/* The directions class cls follows now: NULL while its field is stale;
 * with congestion, its congestion field's when that is in use. */
static inline const uint8_t *agent_dir(const ff_crowd *c, int32_t cls)
{
    const uint8_t *d;
    if (!c->profiles)
        return c->direction;
    d = ff_profiles_direction(c->profiles, cls);
    if (d && c->congested) {
        const uint8_t *cd = ff_congestion_direction(&c->congestion,
                                                    (size_t)c->profiles->class_profile[cls]);
        if (cd)
            return cd;
    }
    return d;
}

/* 1 when agent i has a goal of its own (a goal field). */
static inline int own_goal(const ff_crowd *c, size_t i)
{
    return c->agent_goal && c->agent_goal[i] != FF_GOALFIELD_NONE;
}

/* The directions agent i (of class cls) follows now: its own goal's, or
 * its class's; NULL while stale. */
static inline const uint8_t *agent_dir_of(const ff_crowd *c, size_t i, int32_t cls)
{
    const uint8_t *d;
    if (own_goal(c, i))
        return ff_goalfields_direction(&c->goals, c->profiles, c->agent_goal[i]);
    d = agent_dir(c, cls);
    /* A turn-cost field: the directions of the agent's own heading, the
     * code nearest it (a congestion field stays a field of cells); an
     * agent without a heading yet (at set-up) takes its cell's best. */
    if (d && c->profiles && c->profiles->turn && d == ff_profiles_direction(c->profiles, cls) &&
        (c->agent[i].hx != 0 || c->agent[i].hy != 0))
        return ff_profiles_heading_direction(c->profiles, cls,
                                             ff_heading_nearest(c->agent[i].hx, c->agent[i].hy));
    return d;
}

/* The goal cells of class cls: its profile's, or the grid's. */
static inline const uint8_t *goal_mask(const ff_crowd *c, int32_t cls)
{
    return c->profiles ? ff_profiles_of(c->profiles, cls)->goal_mask : c->goal;
}

/* The buckets of x - reach .. x + reach and of y - reach .. y + reach,
 * for (x, y) in bucket (bx, by): the same as ff_shash_bucket's, found by a
 * comparison each when reach is under a bucket (then each is the
 * point's bucket or its neighbour, as x * inv_bucket lies in [bx, bx + 1)
 * and products round monotonically). */
static inline void bucket_box(const ff_shash *h, double x, double y, double reach, int32_t bx,
                              int32_t by, int32_t *bx0, int32_t *bx1, int32_t *by0, int32_t *by1)
{
    double inv = h->inv_bucket;
    if (reach * inv < 0.75 && (uint32_t)bx + (1u << 29) < (1u << 30) &&
        (uint32_t)by + (1u << 29) < (1u << 30)) {
        *bx0 = bx - ((x - reach) * inv < (double)bx);
        *bx1 = bx + ((x + reach) * inv >= (double)bx + 1);
        *by0 = by - ((y - reach) * inv < (double)by);
        *by1 = by + ((y + reach) * inv >= (double)by + 1);
        return;
    }
    *bx0 = ff_shash_bucket(h, x - reach);
    *bx1 = ff_shash_bucket(h, x + reach);
    *by0 = ff_shash_bucket(h, y - reach);
    *by1 = ff_shash_bucket(h, y + reach);
}

/* Gather the pair of hash entries mine and other as a contact candidate
 * (contact.c); when out of memory, mark the tick to find its contacts
 * afresh. */
static inline void collect_candidate(ff_crowd *c, const ff_shash_entry *mine, const ff_shash_entry *other)
{
    if (c->ncand == c->cap_cand) {
        size_t cap = c->cap_cand ? 2 * c->cap_cand : 1024;
        uint32_t *p = c->cand_failed ? NULL : realloc(c->cand, 2 * cap * sizeof *p);
        if (!p) {
            c->cand_failed = 1;  /* the tick falls back to a fresh search */
            return;
        }
        c->cand = p;
        c->cap_cand = cap;
    }
    c->cand[2 * c->ncand] = (uint32_t)(mine - c->hash.entry);
    c->cand[2 * c->ncand + 1] = (uint32_t)(other - c->hash.entry);
    c->ncand++;
}

/* What the steering of one agent reads (steer.c): filled by the tick. */
typedef struct {
    const ff_crowd *c;
    const ff_agent *a;
    size_t index;
    const ff_agent_class *cls;
    long long cx, cy;   /* the agent's cell */
    const uint8_t *dir; /* the class's directions */
    int own;            /* 1: follow steers to (tx, ty), its own path */
    double tx, ty;
    const ff_shash_entry *e; /* the agent's entry in the hash */
    ff_crowd *collect;  /* non-NULL: the separate scan also gathers the
                           contact candidates (collect_candidate) ... */
    double cand_reach;  /* ... nearer than this at the start of the tick */
    int scanned;        /* 1 once they are gathered for this agent */
    int cells;          /* 1: (fx, fy) is the position in cell units, in
                           the map, and computed exactly (pow2_cell): one
                           cell computation for the field, the near-wall
                           map and the slide, as the product by 1/cell is
                           then the quotient */
    double fx, fy;
    unsigned long long lookups; /* follow's field reads this step */
} agent_ctx;

/* The center of column x and of row y of grid g, in world units. */
static inline double column_center(const ff_grid *g, long long x)
{
    return g->origin_x + ((double)x + 0.5) * g->cell_size;
}

static inline double row_center(const ff_grid *g, long long y)
{
    return g->origin_y + ((double)y + 0.5) * g->cell_size;
}

/* The center of cell of grid g, in world units. */
static inline double cell_center_x(const ff_grid *g, uint32_t cell)
{
    return column_center(g, cell % (uint32_t)g->w);
}

static inline double cell_center_y(const ff_grid *g, uint32_t cell)
{
    return row_center(g, cell / (uint32_t)g->w);
}

/* ---- crowd.c ---- */

/* Agent i enters: its own goal's field built when it is not yet, its
 * heading from it when the scenario gives none, and counted unreachable
 * when it has no way from where it stands.  FF_ENOMEM. */
ff_status ff_crowd_goal_enter(ff_crowd *c, size_t i, ff_error *err);

/* ---- steer.c ---- */

/* One steering step of agent index (present, not arrived) from the
 * context q that the tick filled (the agent's hash entry, its cell facts,
 * the candidate gathering): blend its behaviours, accelerate, turn, move
 * with wall sliding; or escape from a blocked cell, wait for a stale
 * field, walk an own path. */
void ff_steer_agent(ff_crowd *c, size_t index, agent_ctx *q);

/* ---- contact.c ---- */

/* The candidates of hash entry k within reach, for an agent whose steering
 * gathered none. */
void ff_contacts_scan(ff_crowd *c, size_t k, double reach);
/* This tick's contacts from the candidates (points[k]: entry k's agent
 * after its move), in ff_contacts_find's order; FF_ENOMEM. */
ff_status ff_contacts_from_candidates(ff_crowd *c, ff_error *err);
/* This tick's contacts by a neighbour search of the hash (just built);
 * FF_ENOMEM. */
ff_status ff_contacts_find(ff_crowd *c, ff_error *err);
/* One Gauss-Seidel pass of overlap resolution over the contacts. */
void ff_contacts_resolve_pass(ff_crowd *c);
/* The largest pair overlap over the sum of radii (the hash current). */
double ff_contacts_largest_overlap(const ff_crowd *c);
/* The same, measured only round the agents of this tick's contacts;
 * clears their marks. */
double ff_contacts_largest_overlap_involved(ff_crowd *c);

/* ---- gridmove.c ---- */

/* What cell-to-cell moves read of a class, worked out once. */
struct ff_gridmove_class {
    double radius;   /* world units */
    int32_t half;    /* its footprint's half-width in cells (reserve.h) */
    int in_cell;     /* 1: its disk lies within a cell (ff_gridmove_disk_in_cell) */
};

/* Allocate the requests, their scratch, the classes' facts and (with
 * reservations) the grant's marks for up to nagents agents; FF_ENOMEM
 * (ff_gridmove_free frees what was taken). */
ff_status ff_gridmove_init(ff_crowd *c, size_t nagents, ff_error *err);
void ff_gridmove_free(ff_crowd *c);

/* Tick t of cell-to-cell moves: from tick 1 on the requests, grants,
 * waits, own paths round held cells and wait-for cycles; then the
 * spawns of tick t; and the overlap measure of where it leaves the
 * agents (ff_gridmove_overlap).  FF_ENOMEM. */
ff_status ff_gridmove_step(ff_crowd *c, long long t, ff_error *err);

/* 1 when a disk of radius r at a cell's center lies within the cell with
 * a margin far above rounding at g's coordinates: 0 < r <= 0.45 cells,
 * and g's world coordinates under 1e9 cells.  Such a disk is at least
 * half a cell from any wall while its center is in an open cell, and two
 * at different cells' centers do not overlap. */
static inline int ff_gridmove_disk_in_cell(const ff_grid *g, double r)
{
    return r > 0 && r <= 0.45 * g->cell_size &&
           fabs(g->origin_x) + fabs(g->origin_y) + ((double)g->w + (double)g->h) * g->cell_size < 1e9 * g->cell_size;
}

/* ff_gridmove_sweep_clear by the slide itself (gridmove.c). */
int ff_gridmove_sweep_measured(const ff_crowd *c, uint32_t from, uint32_t to, double r);

/* ff_gridmove_sweep_clear for the step (dx, dy), each -1, 0 or 1, from
 * cell (x, y), both ends in the map. */
static inline int ff_gridmove_step_clear(const ff_crowd *c, int32_t x, int32_t y, int32_t dx, int32_t dy, double r)
{
    const ff_grid *g = c->grid;
    size_t w = (size_t)g->w, from = (size_t)y * w + (size_t)x, to = (size_t)(y + dy) * w + (size_t)(x + dx);

    /* A disk within its cell moving between the centers of two open
     * neighbours stays at least half a cell from any wall: the slide would
     * find it clear.  A diagonal step also passes the two side cells'
     * shared corner: clear too when both are open. */
    if (ff_gridmove_disk_in_cell(g, r) && ff_grid_open(g, from) && ff_grid_open(g, to) &&
        (dx == 0 || dy == 0 || (ff_grid_open(g, from + (size_t)(int64_t)dx) && ff_grid_open(g, to - (size_t)(int64_t)dx))))
        return 1;
    return ff_gridmove_sweep_measured(c, (uint32_t)from, (uint32_t)to, r);
}

/* 1 when a disk of radius r moving from the center of cell from to that
 * of cell to keeps clear of the walls, as the slide measures it (no
 * substep cut; see walls.h), and ends clear, or at least less deep when
 * it started too near a wall (a map change, a wide agent spawned by
 * one). */
static inline int ff_gridmove_sweep_clear(const ff_crowd *c, uint32_t from, uint32_t to, double r)
{
    uint32_t w = (uint32_t)c->grid->w, fx = from % w, fy = from / w, tx = to % w, ty = to / w;

    if (fx + 1 >= tx && tx + 1 >= fx && fy + 1 >= ty && ty + 1 >= fy)
        return ff_gridmove_step_clear(c, (int32_t)fx, (int32_t)fy, (int32_t)tx - (int32_t)fx, (int32_t)ty - (int32_t)fy, r);
    return ff_gridmove_sweep_measured(c, from, to, r);
}

/* After ff_gridmove_step, the largest overlap among the present agents
 * (c->live) when every class's disk lies within a cell
 * (ff_gridmove_disk_in_cell) and every agent stands at a cell's center:
 * 1 when two share a cell (the pair measure's value: their centers
 * coincide), else 0; no pairs measured.  -1 when that does not hold (the
 * first in index order of an agent off a center and one on a shared
 * cell decides). */
double ff_gridmove_overlap(ff_crowd *c);

/* ---- pibt.c ---- */

/* Allocate the grant's marks and scratch for a map of c->grid's size and
 * up to nagents requests; FF_ENOMEM on failure (ff_pibt_free frees what
 * was taken). */
ff_status ff_pibt_init(ff_crowd *c, size_t nagents, ff_error *err);
void ff_pibt_free(ff_crowd *c);

/* Decide this tick's requests c->req[0 .. n) (their cost and cls set)
 * by priority inheritance with backtracking: each granted request's next
 * center in cand (granted 0), the others staying (granted -1); ncand 1
 * when it asked to move, blocker whom its best cell was refused for.
 * With n = 0, only a new tick's marks (for the spawns). */
ff_status ff_pibt_grant(ff_crowd *c, size_t n, ff_error *err);
/* The cost to goal agent i's moves are chosen by (its own goal's field,
 * its congestion field's or its profile's); no cells while stale.  Taken
 * again after a field is built or a profile publishes (its arrays move). */
ff_cost_view ff_pibt_cost(const ff_crowd *c, size_t i);
/* The same for agent i following directions dir (agent_dir_of's). */
static inline ff_cost_view ff_pibt_cost_dir(const ff_crowd *c, size_t i, const uint8_t *dir)
{
    const ff_agent *a = &c->agent[i];
    const ff_profile *f = ff_profiles_of(c->profiles, a->cls);

    if (!dir)
        return ff_cost_doubles(NULL);
    if (own_goal(c, i))
        return ff_goalfields_cost(&c->goals, c->agent_goal[i]);
    /* The congestion field's costs only with its directions: before its
     * first refresh, after a map event, or for a heading's directions of a
     * turn-cost field, the profile's (the congestion field's may be unset). */
    if (c->congested) {
        size_t k = (size_t)c->profiles->class_profile[a->cls];
        if (dir == ff_congestion_direction(&c->congestion, k))
            return ff_cost_doubles(c->congestion.field[k].cost_to_goal);
    }
    return ff_cost_doubles(f->distance);
}

/* Agent i enters (reservations): its start's cost to goal, for the grant
 * order. */
void ff_pibt_enter(ff_crowd *c, size_t i);
/* Take footprint (center, half) for the next tick for a newcomer: 1 when
 * every cell of it was free, 0 (nothing taken) otherwise. */
int ff_pibt_claim(ff_crowd *c, uint32_t center, int32_t half);

/* ---- lacam.c ---- */

/* Before this tick's grant of requests 0..n (their cells marked, none
 * decided): when the complement's plan is walked, or PIBT has made no
 * progress for a while and the complement's search finds a plan, each
 * request's next cell in c->req[k].next and 1; 0 when PIBT decides;
 * -1 (err set to FF_ENOMEM) on allocation failure. */
int ff_lacam_tick(ff_crowd *c, size_t n, ff_error *err);
/* A wait-for cycle among requests 0..n: 1 when the complement will
 * search for a way out at the next tick (the cycle is not reported yet),
 * 0 when it cannot run, has already searched in vain since the last
 * progress, or a search gave up fewer ticks ago than its patience (then
 * the cycle is a deadlock). */
int ff_lacam_defer(ff_crowd *c, size_t n);
/* 1 when the complement's search proved that no sequence of moves brings
 * every agent to its goal from where they stand (the run is over). */
int ff_lacam_proved(const ff_crowd *c);
/* Bound crowd c's complement searches by work agent-visits instead of
 * lacam.c's LACAM_WORK (a search gets a quarter of it, twice as much
 * after each that gave up, up to all of it), for tests that make
 * searches give up.  -1 out of memory. */
int ff_lacam_set_work(ff_crowd *c, unsigned long long work);
/* The agent-visits crowd c's next complement search may take. */
unsigned long long ff_lacam_bound(const ff_crowd *c);
void ff_lacam_free(ff_crowd *c);

/* ---- ownpath.c ---- */

/* Forget the own path pl. */
void ff_ownpath_drop(ff_agent_plan *pl);
/* Plan agent index's own path from cell avoiding the cells marked in
 * avoid (or none): 1 found, 0 no way, -1 out of memory. */
int ff_ownpath_plan(ff_crowd *c, size_t index, uint32_t cell, const uint8_t *avoid);
/* The next cell of index's own path from cell (planned when needed): 1
 * and *next, or 0. */
int ff_ownpath_next(ff_crowd *c, size_t index, uint32_t cell, uint32_t *next);

#ifdef __cplusplus
}
#endif

#endif
