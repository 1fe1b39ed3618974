/* crowd.c - the per-tick crowd simulation; see crowd.h and man 1 ffsim. */
#include "crowd.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "direction.h"
#include "hugepage.h"
#include "sample.h"



#define PI 3.14159265358979323846

/* Walks in hash order read agents scattered in memory: ask for the one
 * PREFETCH_AHEAD places on early.  Changes nothing but speed. */
#define PREFETCH_AHEAD 8
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* floor(v), the same value, without a library call in the common case. */
static inline double floor_fast(double v)
{
    if (fabs(v) < 4503599627370496.0) {  /* 2^52: exact through long long */
        double t = (double)(long long)v;
        return t > v ? t - 1 : t;
    }
    return floor(v);
}

const char *ff_agent_state_name(int state)
{
    switch (state) {
    case FF_AGENT_MOVING: return "moving";
    case FF_AGENT_ESCAPING: return "escaping";
    case FF_AGENT_STUCK: return "stuck";
    case FF_AGENT_WAITING_FIELD: return "waiting-field";
    case FF_AGENT_FALLBACK: return "fallback";
    case FF_AGENT_DEADLOCKED: return "deadlocked";
    case FF_AGENT_ARRIVED:
    case FF_AGENT_GONE: return "arrived";
    default: return "unborn";
    }
}

static int present(const ff_agent *a)
{
    return a->state >= FF_AGENT_MOVING && a->state <= FF_AGENT_ARRIVED;
}

/* Agents that stand still and are not pushed by overlap resolution. */
static int pinned(const ff_agent *a)
{
    return a->state == FF_AGENT_WAITING_FIELD || a->state == FF_AGENT_DEADLOCKED;
}

/* The directions class cls follows now: NULL while its field is stale. */
static const uint8_t *agent_dir(const ff_crowd *c, int32_t cls)
{
    return c->profiles ? ff_profiles_direction(c->profiles, cls) : c->direction;
}

/* The goal cells of class cls: its profile's, or the grid's. */
static const uint8_t *goal_mask(const ff_crowd *c, int32_t cls)
{
    return c->profiles ? ff_profiles_of(c->profiles, cls)->goal_mask : c->goal;
}

/* ---- priority groups ---- */

typedef void (*propose_fn)(void *ctx, const ff_behaviour *b, double *px, double *py);

/* The one blending rule (crowd.h, ff_crowd_blend); proposals are asked
 * for lazily, group by group, so a group that wins spares the others. */
static inline int blend_groups(const ff_agent_class *cls, propose_fn propose, void *ctx,
                               double *ox, double *oy)
{
    double thr2 = cls->threshold * cls->threshold, sx = 0, sy = 0;
    int g, k;

    for (g = 0; g < cls->ngroups; g++) {
        sx = sy = 0;
        for (k = cls->group_start[g]; k < cls->group_start[g + 1]; k++) {
            double px, py;
            propose(ctx, &cls->behaviour[k], &px, &py);
            sx += cls->behaviour[k].weight * px;
            sy += cls->behaviour[k].weight * py;
        }
        if (sx * sx + sy * sy > thr2) {
            *ox = sx;
            *oy = sy;
            return g;
        }
    }
    *ox = sx;
    *oy = sy;
    return -1;
}

typedef struct {
    const double *px, *py;
    const ff_behaviour *first;
} table_ctx;

static void propose_from_table(void *ctx, const ff_behaviour *b, double *px, double *py)
{
    const table_ctx *t = ctx;
    *px = t->px[b - t->first];
    *py = t->py[b - t->first];
}

int ff_crowd_blend(const ff_agent_class *cls, const double *px, const double *py,
                   double *ox, double *oy)
{
    table_ctx t;
    t.px = px;
    t.py = py;
    t.first = cls->behaviour;
    return blend_groups(cls, propose_from_table, &t, ox, oy);
}

/* ---- set-up ---- */

static void initial_heading(const ff_crowd *c, ff_agent *a, double heading_deg)
{
    double dx, dy;
    if (!isnan(heading_deg)) {
        a->hx = cos(heading_deg * PI / 180);
        a->hy = sin(heading_deg * PI / 180);
        return;
    }
    if (agent_dir(c, a->cls) && ff_sample_smooth(c->grid, agent_dir(c, a->cls), a->x, a->y, &dx, &dy)) {
        a->hx = dx;
        a->hy = dy;
    } else {
        a->hx = 1;
        a->hy = 0;
    }
}

static const ff_agent *sort_agents;

/* Order of spawning: spawn tick, then index (a total order: qsort is
 * deterministic on it). */
static int cmp_spawn(const void *pa, const void *pb)
{
    uint32_t i = *(const uint32_t *)pa, j = *(const uint32_t *)pb;
    long long ti = sort_agents[i].spawn_tick, tj = sort_agents[j].spawn_tick;
    if (ti != tj)
        return ti < tj ? -1 : 1;
    return i < j ? -1 : i > j;
}

static void qsort_agents_by_spawn(ff_crowd *c)
{
    sort_agents = c->agent;
    qsort(c->spawn_order, c->nagents, sizeof *c->spawn_order, cmp_spawn);
    sort_agents = NULL;
}

static ff_status setup(ff_crowd *c, const ff_scenario *s, const ff_grid *g, const uint8_t *dir,
                       ff_profiles *p, int smooth, ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h, k;
    size_t na = s->nagents ? s->nagents : 1, nc = s->nclasses ? s->nclasses : 1;
    ff_status st;

    memset(c, 0, sizeof *c);
    ff_shash_init(&c->hash);
    if (s->move == FF_MOVE_GRID && !p)
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0, "cell-to-cell moves need profiles");
    c->scenario = s;
    c->grid = g;
    c->direction = dir;
    c->profiles = p;
    c->smooth = smooth;
    c->tick = -1;
    /* Crowds at least this large end a candidate tick in the hash's order
     * (end_by_hash): the walk in index order scatters the next hash's
     * entries over more memory than the caches hold.  Smaller ones are
     * faster the other way (measured on 1,000 and 10,000 agents). */
    c->end_by_hash_min = 32768;
    {
        int e;
        c->pow2_cell = isfinite(g->cell_size) && g->cell_size > 0 && frexp(g->cell_size, &e) == 0.5;
    }
    if ((st = ff_walls_init(&c->walls, g, err)) != FF_OK)
        return st;
    c->goal = calloc(n ? n : 1, 1);
    c->agent = calloc(s->nagents ? s->nagents : 1, sizeof *c->agent);
    c->points = malloc((s->nagents ? s->nagents : 1) * sizeof *c->points);
    c->live = malloc((s->nagents ? s->nagents : 1) * sizeof *c->live);
    c->spawn_order = malloc((s->nagents ? s->nagents : 1) * sizeof *c->spawn_order);
    c->turn_cos = malloc((s->nclasses ? s->nclasses : 1) * sizeof *c->turn_cos);
    c->turn_sin = malloc((s->nclasses ? s->nclasses : 1) * sizeof *c->turn_sin);
    c->slide_far_k = malloc((s->nclasses ? s->nclasses : 1) * sizeof *c->slide_far_k);
    c->cand_reach = malloc((s->nclasses ? s->nclasses : 1) * sizeof *c->cand_reach);
    c->plan = calloc(na, sizeof *c->plan);
    c->involved = calloc(na, 1);
    c->involved_list = malloc(na * sizeof *c->involved_list);
    c->entry_of = malloc(na * sizeof *c->entry_of);
    c->unclear = malloc(na * sizeof *c->unclear);
    c->class_unreachable = calloc(nc, sizeof *c->class_unreachable);
    c->class_first_unreachable = calloc(nc, sizeof *c->class_first_unreachable);
    c->deadlock_id = malloc(na * sizeof *c->deadlock_id);
    c->deadlock_start = malloc((na + 1) * sizeof *c->deadlock_start);
    if (s->move == FF_MOVE_GRID) {
        c->req = malloc(na * sizeof *c->req);
        c->req_agent = malloc(na * sizeof *c->req_agent);
        c->waits_on = malloc(na * sizeof *c->waits_on);
        c->cycle = malloc(na * sizeof *c->cycle);
        c->cycle_scratch = malloc(na);
        c->avoid = calloc(n ? n : 1, 1);
        c->spawn_scratch = malloc(na * sizeof *c->spawn_scratch);
        if (c->req && c->req_agent && c->waits_on && c->cycle && c->cycle_scratch && c->avoid &&
            c->spawn_scratch && (st = ff_reserver_init(&c->reserver, g->w, g->h, err)) != FF_OK) {
            ff_crowd_free(c);
            return st;
        }
    }
    /* The agents and their points are walked every tick, the agents in
     * the hash's order: huge pages spare TLB misses at 100,000 agents. */
    ff_want_huge_pages(c->agent, (s->nagents ? s->nagents : 1) * sizeof *c->agent);
    ff_want_huge_pages(c->points, (s->nagents ? s->nagents : 1) * sizeof *c->points);
    if (!c->goal || !c->agent || !c->points || !c->turn_cos || !c->turn_sin || !c->slide_far_k || !c->cand_reach ||
        !c->live ||
        !c->spawn_order || !c->plan || !c->involved || !c->involved_list || !c->entry_of || !c->unclear || !c->class_unreachable || !c->class_first_unreachable ||
        !c->deadlock_id || !c->deadlock_start ||
        (s->move == FF_MOVE_GRID && (!c->req || !c->req_agent || !c->waits_on || !c->cycle ||
                                     !c->cycle_scratch || !c->avoid || !c->spawn_scratch))) {
        ff_crowd_free(c);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu agents", s->nagents);
    }
    for (k = 0; k < g->ngoals; k++)
        c->goal[g->goals[k]] = 1;
    c->bucket_size = 0;
    for (k = 0; k < s->nclasses; k++) {
        const ff_agent_class *cls = &s->cls[k];
        double turn = cls->max_turn * s->tick_dt;
        int b;
        if (turn > 180)
            turn = 180;
        c->turn_cos[k] = cos(turn * PI / 180);
        c->turn_sin[k] = sin(turn * PI / 180);
        if (cls->radius > c->max_radius)
            c->max_radius = cls->radius;
        if (cls->max_speed * s->tick_dt > c->max_move)
            c->max_move = cls->max_speed * s->tick_dt;
        {
            /* A move of this class is at most move (with room for the
             * rounding of the speed clamp); when that is under the
             * slide's substep, a move from a cell whose near-wall entry
             * exceeds slide_far_k is one substep, clear of every wall
             * (ff_walls_slide_from). */
            double move = cls->max_speed * s->tick_dt * (1 + 1e-9);
            double sub = 0.5 * (cls->radius < g->cell_size ? cls->radius : g->cell_size);
            c->slide_far_k[k] = move < sub ? ff_walls_cells(&c->walls, cls->radius + move) + 1 : INFINITY;
        }
        for (b = 0; b < cls->nbehaviours; b++)
            if (cls->behaviour[b].kind == FF_BEHAVE_SEPARATE && cls->behaviour[b].range > c->bucket_size)
                c->bucket_size = cls->behaviour[b].range;
    }
    for (k = 0; k < s->nclasses; k++)  /* (contact candidates, below) */
        c->cand_reach[k] = (1.1 * (s->cls[k].radius + c->max_radius) + 2 * c->max_move) * (1 + 1e-9);
    if (2 * c->max_radius > c->bucket_size)
        c->bucket_size = 2 * c->max_radius;
    if (!(c->bucket_size > 0))
        c->bucket_size = g->cell_size;
    /* Buckets twice the longest query reach: a query spans 2 x 2 of them. */
    c->bucket_size *= 2;
    /* Candidates only while their reach spans a few buckets: a class fast
     * enough to cross many buckets in a tick gets its contacts afresh. */
    c->candidates_ok = 1;
    for (k = 0; k < s->nclasses; k++)
        if (!(c->cand_reach[k] <= c->bucket_size))
            c->candidates_ok = 0;
    c->nagents = s->nagents;
    for (k = 0; k < s->nagents; k++) {
        ff_agent *a = &c->agent[k];
        a->x = s->agent[k].x;
        a->y = s->agent[k].y;
        a->id = s->agent[k].id;
        a->cls = s->agent[k].cls;
        a->spawn_tick = s->agent[k].spawn_tick;
        a->arrival_tick = -1;
        a->state = FF_AGENT_UNBORN;
        initial_heading(c, a, s->agent[k].heading);
        c->spawn_order[k] = (uint32_t)k;
        c->plan[k].map_tick = -1;
        if (dir || p) {
            const uint8_t *d = agent_dir(c, a->cls);
            long long cx, cy;
            if (ff_world_to_cell(g, a->x, a->y, &cx, &cy) &&
                d[(size_t)cy * (size_t)g->w + (size_t)cx] == FF_DIR_NONE) {
                if (c->class_unreachable[a->cls]++ == 0)
                    c->class_first_unreachable[a->cls] = a->id;
                c->unreachable++;
            }
        }
    }
    qsort_agents_by_spawn(c);
    c->live_dirty = 1;
    /* The goal masks never change: their bounding boxes, once. */
    c->goal_box = malloc(4 * nc * sizeof *c->goal_box);
    c->goal_world = malloc(4 * nc * sizeof *c->goal_world);
    if (!c->goal_box || !c->goal_world) {
        ff_crowd_free(c);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu agents", s->nagents);
    }
    for (k = 0; k < s->nclasses; k++) {
        const uint8_t *mask = goal_mask(c, (int32_t)k);
        long long *box = &c->goal_box[4 * k];
        size_t m;
        for (m = 0; m < k; m++)
            if (goal_mask(c, (int32_t)m) == mask)
                break;
        if (m < k) {
            memcpy(box, &c->goal_box[4 * m], 4 * sizeof *box);
            continue;
        }
        box[0] = box[1] = LLONG_MAX;
        box[2] = box[3] = -1;
        for (m = 0; m < n; m++)
            if (mask[m]) {
                long long x = (long long)(m % (size_t)g->w), y = (long long)(m / (size_t)g->w);
                if (x < box[0]) box[0] = x;
                if (y < box[1]) box[1] = y;
                if (x > box[2]) box[2] = x;
                if (y > box[3]) box[3] = y;
            }
    }
    for (k = 0; k < s->nclasses; k++) {
        /* A cell wider than the range at_goal scans. */
        const long long *box = &c->goal_box[4 * k];
        double *world = &c->goal_world[4 * k];
        world[0] = g->origin_x + ((double)box[0] - 1) * g->cell_size;
        world[1] = g->origin_y + ((double)box[1] - 1) * g->cell_size;
        world[2] = g->origin_x + ((double)box[2] + 2) * g->cell_size;
        world[3] = g->origin_y + ((double)box[3] + 2) * g->cell_size;
    }
    return FF_OK;
}

ff_status ff_crowd_init(ff_crowd *c, const ff_scenario *s, const ff_grid *g,
                        const uint8_t *dir, int smooth, ff_error *err)
{
    return setup(c, s, g, dir, NULL, smooth, err);
}

ff_status ff_crowd_init_profiles(ff_crowd *c, const ff_scenario *s, ff_profiles *p, int smooth,
                                 ff_error *err)
{
    return setup(c, s, &p->map, NULL, p, smooth, err);
}

void ff_crowd_free(ff_crowd *c)
{
    size_t k;

    ff_walls_free(&c->walls);
    ff_shash_free(&c->hash);
    free(c->goal);
    free(c->agent);
    free(c->points);
    free(c->cand);
    free(c->contact_key);
    free(c->turn_cos);
    free(c->turn_sin);
    free(c->slide_far_k);
    free(c->cand_reach);
    free(c->contact);
    free(c->goal_box);
    free(c->goal_world);
    c->goal_box = NULL;
    c->goal_world = NULL;
    free(c->involved);
    free(c->involved_list);
    free(c->entry_of);
    free(c->unclear);
    c->involved = NULL;
    c->involved_list = NULL;
    c->entry_of = c->unclear = NULL;
    c->ninvolved = 0;
    free(c->live);
    free(c->spawn_order);
    if (c->plan)
        for (k = 0; k < c->nagents; k++)
            free(c->plan[k].path);
    free(c->plan);
    free(c->class_unreachable);
    free(c->class_first_unreachable);
    free(c->deadlock_id);
    free(c->deadlock_start);
    free(c->req);
    free(c->req_agent);
    free(c->waits_on);
    free(c->cycle);
    free(c->cycle_scratch);
    free(c->avoid);
    free(c->spawn_scratch);
    ff_reserver_free(&c->reserver);
    c->plan = NULL;
    c->class_unreachable = NULL;
    c->class_first_unreachable = NULL;
    c->deadlock_id = NULL;
    c->deadlock_start = NULL;
    c->req = NULL;
    c->req_agent = c->waits_on = c->spawn_scratch = NULL;
    c->cycle = NULL;
    c->cycle_scratch = c->avoid = NULL;
    c->live = c->spawn_order = NULL;
    c->contact = NULL;
    c->ncontacts = c->cap_contacts = 0;
    c->goal = NULL;
    c->agent = NULL;
    c->points = NULL;
    c->cand = NULL;
    c->contact_key = NULL;
    c->ncand = c->cap_cand = 0;
    c->turn_cos = c->turn_sin = c->slide_far_k = c->cand_reach = NULL;
}

/* Gather the indices of the present agents, ascending. */
static void gather_live(ff_crowd *c)
{
    size_t k;
    c->nlive = 0;
    for (k = 0; k < c->nagents; k++)
        if (present(&c->agent[k]))
            c->live[c->nlive++] = (uint32_t)k;
    c->live_dirty = 0;
}

/* Put every present agent into the hash at its current position, in
 * index order. */
static ff_status build_hash(ff_crowd *c, ff_error *err)
{
    size_t k, n;

    if (c->live_dirty)
        gather_live(c);
    n = c->nlive;
    for (k = 0; k < n; k++) {
        const ff_agent *a = &c->agent[c->live[k]];
        c->points[k].x = a->x;
        c->points[k].y = a->y;
        c->points[k].item = c->live[k];
        c->points[k].tag = (uint32_t)a->cls;
    }
    c->hash_current = 1;
    return ff_shash_build(&c->hash, c->bucket_size, c->points, n, err);
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

/* A walk over the hash's entries in the buckets within reach of (x, y),
 * which lies in bucket (bx, by): row by row, bucket by bucket, then in
 * item order, skipping strangers that share their slots.  The neighbour
 * scans of the steering spell the same walk out, for speed. */
typedef struct {
    const ff_shash *h;
    int32_t bx0, bx1, by1, bx, by, last;
    const ff_shash_entry *e, *end;
} near_walk;

static void near_begin(near_walk *w, const ff_shash *h, double x, double y, double reach, int32_t bx,
                       int32_t by)
{
    w->h = h;
    bucket_box(h, x, y, reach, bx, by, &w->bx0, &w->bx1, &w->by, &w->by1);
    w->bx = w->bx0;
    ff_shash_row_run(h, w->bx, w->bx1, w->by, &w->last, &w->e, &w->end);
}

/* The next entry of the walk, or NULL at its end. */
static const ff_shash_entry *near_next(near_walk *w)
{
    for (;;) {
        while (w->e < w->end) {
            const ff_shash_entry *e = w->e++;
            if (e->by == w->by && (uint32_t)e->bx - (uint32_t)w->bx <= (uint32_t)w->last - (uint32_t)w->bx)
                return e;
        }
        if (w->last < w->bx1) {
            w->bx = w->last + 1;
        } else if (w->by < w->by1) {
            w->by++;
            w->bx = w->bx0;
        } else {
            return NULL;
        }
        ff_shash_row_run(w->h, w->bx, w->bx1, w->by, &w->last, &w->e, &w->end);
    }
}

/* ---- contact candidates ----
 *
 * The overlap resolution needs every pair nearer than 1.1 times its radii
 * sum after the moves.  No agent moves farther in a tick than the fastest
 * class's speed times the tick (B), so such a pair stood nearer than
 * 1.1 (ri + max radius) + 2B at the start: the neighbour scans of the
 * steering, which read the start-of-tick hash anyway, gather those pairs
 * as candidates (entry indices, lower item first), and the contacts are
 * the candidates that are near after the moves.  The tick checks the
 * bound on the moves it made, and finds the contacts afresh when it does
 * not hold (or when agents entered). */

static ff_status add_contact(ff_crowd *c, uint32_t i, uint32_t j, ff_error *err);

static void collect_candidate(ff_crowd *c, const ff_shash_entry *mine, const ff_shash_entry *other)
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

/* The candidates of the agent of entry k for an agent whose steering
 * gathered none (it did not steer, or has no separate as wide). */
static void scan_candidates(ff_crowd *c, size_t k, double reach)
{
    const ff_shash_entry *p = &c->hash.entry[k], *e;
    near_walk w;

    near_begin(&w, &c->hash, p->x, p->y, reach, p->bx, p->by);
    while ((e = near_next(&w))) {
        double dx = p->x - e->x, dy = p->y - e->y;
        if (e->item > p->item && dx * dx + dy * dy < reach * reach)
            collect_candidate(c, p, e);
    }
}

/* The contacts from the candidates, points[k] holding the position after
 * the moves of entry k's agent: the pairs find_contacts would find, with
 * the same arithmetic, and in its order.  That walks a hash of the
 * positions after the moves (with as many points as this one, so the same
 * table): agent i by its slot there, then i; its partners row by row, then
 * bucket by bucket, then by index.  Each contact gets that order as a key,
 * and an insertion sort puts them in it: the candidates come in the order
 * of the start-of-tick hash, which few moves change, so they are nearly
 * sorted already. */
static ff_status contacts_from_candidates(ff_crowd *c, ff_error *err)
{
    const ff_scenario *s = c->scenario;
    const ff_shash *h = &c->hash;
    size_t k, m;

    c->ncontacts = 0;
    c->ninvolved = 0;
    c->contacts_valid = 1;
    for (k = 0; k < c->ncand; k++) {
        const ff_shash_entry *pe = &h->entry[c->cand[2 * k]], *ee = &h->entry[c->cand[2 * k + 1]];
        const ff_shash_entry *p = &c->points[c->cand[2 * k]], *e = &c->points[c->cand[2 * k + 1]];
        double near = 1.1 * (s->cls[pe->tag].radius + s->cls[ee->tag].radius);
        double dx = e->x - p->x, dy = e->y - p->y;
        int32_t bxi, byi, bxj, byj;
        uint64_t hi, lo;
        if (dx * dx + dy * dy >= near * near)
            continue;
        if (add_contact(c, pe->item, ee->item, err) != FF_OK)
            return FF_ENOMEM;
        c->entry_of[pe->item] = c->cand[2 * k];
        c->entry_of[ee->item] = c->cand[2 * k + 1];
        bxi = ff_shash_bucket(h, p->x);
        byi = ff_shash_bucket(h, p->y);
        bxj = ff_shash_bucket(h, e->x);
        byj = ff_shash_bucket(h, e->y);
        /* Partners are less than a bucket away (a contact is nearer than
         * the longest reach, half a bucket): offsets -1, 0 or 1. */
        hi = (uint64_t)ff_shash_slot(h, bxi, byi) << 32 | pe->item;
        lo = (uint64_t)(byj - byi + 1) << 36 | (uint64_t)(bxj - bxi + 1) << 34 | ee->item;
        m = c->ncontacts - 1;
        c->contact_key[2 * m] = hi;
        c->contact_key[2 * m + 1] = lo;
        /* Insertion, moving the pair with its key. */
        while (m > 0 && (c->contact_key[2 * (m - 1)] > hi ||
                         (c->contact_key[2 * (m - 1)] == hi && c->contact_key[2 * m - 1] > lo))) {
            c->contact_key[2 * m] = c->contact_key[2 * (m - 1)];
            c->contact_key[2 * m + 1] = c->contact_key[2 * m - 1];
            c->contact[2 * m] = c->contact[2 * (m - 1)];
            c->contact[2 * m + 1] = c->contact[2 * m - 1];
            m--;
        }
        c->contact_key[2 * m] = hi;
        c->contact_key[2 * m + 1] = lo;
        c->contact[2 * m] = pe->item;
        c->contact[2 * m + 1] = ee->item;
    }
    return FF_OK;
}

/* ---- behaviours ---- */

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
} agent_ctx;

/* follow: the field's direction; inside a goal cell, toward its center. */
static inline void propose_follow(const agent_ctx *q, double *px, double *py)
{
    const ff_crowd *c = q->c;
    const ff_grid *g = c->grid;
    size_t cell = (size_t)q->cy * (size_t)g->w + (size_t)q->cx;
    const long long *box = &c->goal_box[4 * q->a->cls];  /* outside: no goal */

    if (q->own) {
        double tx = q->tx - q->a->x, ty = q->ty - q->a->y, d = sqrt(tx * tx + ty * ty);
        *px = *py = 0;
        if (d > 1e-9 * g->cell_size) {
            *px = tx / d;
            *py = ty / d;
        }
        return;
    }
    if (q->cx >= box[0] && q->cx <= box[2] && q->cy >= box[1] && q->cy <= box[3] &&
        goal_mask(c, q->a->cls)[cell]) {
        double tx = g->origin_x + ((double)q->cx + 0.5) * g->cell_size - q->a->x;
        double ty = g->origin_y + ((double)q->cy + 0.5) * g->cell_size - q->a->y;
        double d = sqrt(tx * tx + ty * ty);
        *px = *py = 0;
        if (d > 1e-9 * g->cell_size) {
            *px = tx / d;
            *py = ty / d;
        }
        return;
    }
    if (c->smooth && q->cells)
        ff_sample_smooth_cells(g, q->dir, q->a->x, q->a->y, q->fx, q->fy, px, py);
    else if (c->smooth)
        ff_sample_smooth(g, q->dir, q->a->x, q->a->y, px, py);
    else
        ff_sample_raw(g, q->dir, q->a->x, q->a->y, px, py);
}

/* separate: each neighbour nearer than the range R pushes away with
 * strength s = 1 - d/R, and one ahead also pushes to the agent's right
 * with strength s * a, where a is the cosine between the heading and the
 * direction to the neighbour, so that an agent meeting another head-on
 * steps aside rather than only backing off.
 * Longer sums are cut to length 1.  Neighbours are read from the hash:
 * where they stood at the start of the tick. */
static void propose_separate(agent_ctx *q, double range, double *px, double *py)
{
    const ff_shash *h = &q->c->hash;
    const ff_agent *a = q->a;
    double sx = 0, sy = 0, len2, r2 = range * range, ax = a->x, ay = a->y;
    double c2 = q->cand_reach * q->cand_reach, reach2;
    int32_t bx0, bx1, by0, by1, bx, by, last;
    int collect = q->collect && !q->scanned && range >= q->cand_reach;

    if (!collect)
        c2 = -1;  /* no candidate passes */
    reach2 = r2 > c2 ? r2 : c2;
    q->scanned |= collect;
    bucket_box(h, a->x, a->y, range, q->e->bx, q->e->by, &bx0, &bx1, &by0, &by1);
    for (by = by0; by <= by1; by++)
        for (bx = bx0; bx <= bx1; bx = last + 1) {
            const ff_shash_entry *e, *end;
            ff_shash_row_run(h, bx, bx1, by, &last, &e, &end);
            uint32_t span = (uint32_t)last - (uint32_t)bx;
            for (; e < end; e++) {
                double dx = ax - e->x, dy = ay - e->y, d2 = dx * dx + dy * dy, d, s, ux, uy, ahead;
                /* Most entries are out of reach (strangers from other
                 * buckets are far): one test first.  An entry counts in
                 * its own bucket only. */
                if (d2 >= reach2 || e->by != by || (uint32_t)e->bx - (uint32_t)bx > span)
                    continue;
                if (e->item > q->index && d2 < c2)
                    collect_candidate(q->collect, q->e, e);
                if (e->item == q->index || d2 >= r2)
                    continue;
                if (d2 > 0) {
                    d = sqrt(d2);
                    ux = dx / d;
                    uy = dy / d;
                } else {
                    d = 0;  /* coincident: the lower id goes west */
                    ux = e->item > q->index ? -1 : 1;
                    uy = 0;
                }
                s = 1 - d / range;
                sx += s * ux;
                sy += s * uy;
                ahead = -(ux * a->hx + uy * a->hy);
                if (ahead > 0) {
                    sx += s * ahead * -a->hy;
                    sy += s * ahead * a->hx;
                }
            }
        }
    len2 = sx * sx + sy * sy;
    if (len2 > 1) {
        len2 = sqrt(len2);
        sx /= len2;
        sy /= len2;
    }
    *px = sx;
    *py = sy;
}

static void propose(void *ctx, const ff_behaviour *b, double *px, double *py)
{
    agent_ctx *q = ctx;
    double dx, dy, d;

    switch (b->kind) {
    case FF_BEHAVE_FOLLOW:
        propose_follow(q, px, py);
        return;
    case FF_BEHAVE_SEPARATE:
        propose_separate(q, b->range, px, py);
        return;
    case FF_BEHAVE_AVOID_WALLS:
        if (q->cells ? q->c->walls.near[q->cy * q->c->grid->w + q->cx] >
                           ff_walls_cells(&q->c->walls, q->cls->radius + b->range) + 1
                     : ff_walls_far(&q->c->walls, q->a->x, q->a->y, q->cls->radius + b->range)) {
            *px = *py = 0;  /* what the push gives there, without the call */
            return;
        }
        ff_walls_push(&q->c->walls, q->a->x, q->a->y, q->cls->radius, b->range, px, py);
        return;
    case FF_BEHAVE_SEEK:
        dx = b->target_x - q->a->x;
        dy = b->target_y - q->a->y;
        d = sqrt(dx * dx + dy * dy);
        *px = *py = 0;
        if (d > 1e-9) {
            *px = dx / d;
            *py = dy / d;
        }
        return;
    }
    *px = *py = 0;
}

/* ---- one agent's step ---- */

/* Turn the heading toward (vx, vy) by at most the class's turn of a tick;
 * a reversal turns clockwise (toward +y from +x). */
static inline void turn_heading(ff_agent *a, double vx, double vy, double cmax, double smax)
{
    double len = sqrt(vx * vx + vy * vy), ux, uy, dot, cross, hx, hy, s, n;

    if (!(len > 1e-12))
        return;
    ux = vx / len;
    uy = vy / len;
    dot = a->hx * ux + a->hy * uy;
    cross = a->hx * uy - a->hy * ux;
    if (dot >= cmax) {
        a->hx = ux;
        a->hy = uy;
        return;
    }
    s = cross < 0 ? -smax : smax;
    hx = a->hx * cmax - a->hy * s;
    hy = a->hx * s + a->hy * cmax;
    n = sqrt(hx * hx + hy * hy);
    a->hx = hx / n;
    a->hy = hy / n;
}

/* The center of the open cell nearest to (x, y), searching rings of
 * growing Chebyshev radius around cell (cx, cy); ties go to the first
 * in row-major order.  0 when the map has no open cell. */
static int nearest_open_center(const ff_grid *g, double x, double y, long long cx, long long cy,
                               double *ox, double *oy)
{
    long long ring, limit;
    double best = INFINITY;
    int found = 0;

    /* Agents stay in the map or beside it; one far off (a NaN position, a
     * caller's teleport) finds nothing rather than searching for ever. */
    if (cx < -(long long)g->w - g->h || cy < -(long long)g->w - g->h || cx > 2 * ((long long)g->w + g->h) ||
        cy > 2 * ((long long)g->w + g->h))
        return 0;
    limit = (g->w > g->h ? g->w : g->h) + (cx < 0 ? -cx : cx) + (cy < 0 ? -cy : cy);

    for (ring = 1; ring <= limit; ring++) {
        long long i, j;
        for (j = cy - ring; j <= cy + ring; j++)
            for (i = cx - ring; i <= cx + ring; i++) {
                double mx, my, d2;
                if (i != cx - ring && i != cx + ring && j != cy - ring && j != cy + ring)
                    continue;
                if (i < 0 || j < 0 || i >= g->w || j >= g->h ||
                    !ff_grid_open(g, (size_t)j * (size_t)g->w + (size_t)i))
                    continue;
                mx = g->origin_x + ((double)i + 0.5) * g->cell_size;
                my = g->origin_y + ((double)j + 0.5) * g->cell_size;
                d2 = (mx - x) * (mx - x) + (my - y) * (my - y);
                if (d2 < best) {
                    best = d2;
                    *ox = mx;
                    *oy = my;
                }
                found = 1;
            }
        /* Every center on ring + 1 is at least ring + 0.5 cells away. */
        if (found && ((double)ring + 0.5) * ((double)ring + 0.5) * g->cell_size * g->cell_size > best)
            return 1;
    }
    return found;
}

/* An agent standing in a blocked cell walks out at full speed: along its
 * cell's direction when it has one, else toward the nearest open cell's
 * center.  No sliding: it is already inside a wall. */
static void escape(ff_crowd *c, ff_agent *a, const ff_agent_class *cls, long long cx, long long cy)
{
    const ff_grid *g = c->grid;
    double dt = c->scenario->tick_dt, step = cls->max_speed * dt, ux = 0, uy = 0;
    int inside = cx >= 0 && cy >= 0 && cx < g->w && cy < g->h;
    const uint8_t *dir = agent_dir(c, a->cls);
    int d = inside && dir ? dir[(size_t)cy * (size_t)g->w + (size_t)cx] : FF_DIR_NONE;

    a->state = FF_AGENT_ESCAPING;
    c->stats.escapes++;
    if (d < 8) {
        ux = ff_dir_dx[d] / ff_step_length(d);
        uy = ff_dir_dy[d] / ff_step_length(d);
        if (step > g->cell_size)
            step = g->cell_size;  /* a cell a tick at most: never past the map */
    } else {
        double tx = a->x, ty = a->y, len;
        if (nearest_open_center(g, a->x, a->y, cx, cy, &tx, &ty)) {
            tx -= a->x;
            ty -= a->y;
            len = sqrt(tx * tx + ty * ty);
            if (len > 0) {
                if (step > len)
                    step = len;
                ux = tx / len;
                uy = ty / len;
            }
        }
    }
    a->vx = ux * step / dt;
    a->vy = uy * step / dt;
    a->x += ux * step;
    a->y += uy * step;
    turn_heading(a, a->vx, a->vy, c->turn_cos[a->cls], c->turn_sin[a->cls]);
}

static void drop_path(ff_agent_plan *pl)
{
    free(pl->path);
    pl->path = NULL;
    pl->len = pl->pos = 0;
}

static double cell_center_x(const ff_grid *g, uint32_t cell)
{
    return g->origin_x + ((double)(cell % (uint32_t)g->w) + 0.5) * g->cell_size;
}

static double cell_center_y(const ff_grid *g, uint32_t cell)
{
    return g->origin_y + ((double)(cell / (uint32_t)g->w) + 0.5) * g->cell_size;
}

/* Plan agent index's own path from cell on its profile's grid of the
 * current map, avoiding the cells marked in avoid (or none).  1 when it
 * has one (possibly empty: it stands on a goal); 0 when no goal can be
 * reached, -1 when out of memory. */
static int plan_path(ff_crowd *c, size_t index, uint32_t cell, const uint8_t *avoid)
{
    ff_agent_plan *pl = &c->plan[index];
    ff_profile *f = ff_profiles_of(c->profiles, c->agent[index].cls);
    int found;

    drop_path(pl);
    pl->map_tick = c->profiles->map_tick;
    found = ff_astar_path(&f->astar, cell, avoid, &pl->path, &pl->len);
    if (found == 0 && !ff_grid_open(&f->grid, cell)) {
        /* A cell closed only by the clearance: step first to the first
         * neighbour (direction order) open for the profile, then on. */
        const ff_grid *g = c->grid;
        int x = (int)(cell % (uint32_t)g->w), y = (int)(cell / (uint32_t)g->w), d;
        for (d = 0; d < 8 && found == 0; d++) {
            uint32_t next, *rest, len, k;
            if (!ff_grid_step_ok(g, x, y, d))
                continue;
            next = (uint32_t)((y + ff_dir_dy[d]) * g->w + x + ff_dir_dx[d]);
            if (!ff_grid_open(&f->grid, next) || (avoid && avoid[next]))
                continue;
            found = ff_astar_path(&f->astar, next, avoid, &rest, &len);
            if (found != 1)
                continue;
            if (!(pl->path = malloc(((size_t)len + 1) * sizeof *pl->path))) {
                free(rest);
                return -1;
            }
            pl->path[0] = next;
            for (k = 0; k < len; k++)
                pl->path[k + 1] = rest[k];
            pl->len = len + 1;
            free(rest);
        }
    }
    c->agent[index].own_path = pl->path != NULL;
    pl->from = cell;
    pl->no_way = found != 1;
    if (found == 1)
        c->stats.fallbacks++;
    return found;
}

/* The next cell of index's own path as seen from cell (planning it when
 * there is none yet, when the map changed since, or when the agent was
 * pushed off it): 1 and *next, or 0 when no goal can be reached or the
 * agent stands at the path's end. */
static int own_next(ff_crowd *c, size_t index, uint32_t cell, uint32_t *next)
{
    ff_agent_plan *pl = &c->plan[index];

    if (pl->path && pl->pos < pl->len && cell == pl->path[pl->pos]) {
        pl->from = cell;
        pl->pos++;
    }
    if (!pl->path && pl->no_way && pl->map_tick == c->profiles->map_tick && cell == pl->from)
        return 0;  /* searched from here on this map already: no way */
    if (!pl->path || pl->map_tick != c->profiles->map_tick || cell != pl->from) {
        if (plan_path(c, index, cell, NULL) != 1)
            return 0;
    }
    if (pl->pos >= pl->len)
        return 0;
    *next = pl->path[pl->pos];
    return 1;
}

/* ff_world_to_cell (sample.c), the same arithmetic, inlined. */
static inline long long clamp_floor_ll(double v)
{
    double f = floor_fast(v);
    if (!(f > -9.0e18))
        return (long long)-9.0e18;
    if (f > 9.0e18)
        return (long long)9.0e18;
    return (long long)f;
}

static inline int world_to_cell(const ff_grid *g, double px, double py, long long *x, long long *y)
{
    *x = clamp_floor_ll((px - g->origin_x) / g->cell_size);
    *y = clamp_floor_ll((py - g->origin_y) / g->cell_size);
    return *x >= 0 && *y >= 0 && *x < g->w && *y < g->h;
}

static void step_agent(ff_crowd *c, size_t index, agent_ctx *qs)
{
    const ff_grid *g = c->grid;
    ff_agent *a = &c->agent[index];
    const ff_agent_class *cls = &c->scenario->cls[a->cls];
    double dt = c->scenario->tick_dt, sx, sy, len2, dvx, dvy, dv, amax, speed2, x0, y0, hx0, hy0;
    agent_ctx *q = qs;
    long long cx, cy;
    const uint8_t *dir = agent_dir(c, a->cls);
    uint32_t next;
    int inside, near;

    c->stats.agent_steps++;
    a->x0 = a->x;
    a->y0 = a->y;
    a->clear = 0;
    if (q->cells) {
        cx = (long long)q->fx;
        cy = (long long)q->fy;
        inside = 1;
    } else {
        inside = world_to_cell(g, a->x, a->y, &cx, &cy);
    }
    /* The near-wall map is 0 exactly on the blocked cells: a byte to read
     * rather than a cost. */
    near = inside ? c->walls.near[(size_t)cy * (size_t)g->w + (size_t)cx] : 0;
    if (near == 0) {
        escape(c, a, cls, cx, cy);
        /* Its velocity is its whole displacement (the end of the tick
         * measures it again if the resolution moves it). */
        a->vx = (a->x - a->x0) / dt;
        a->vy = (a->y - a->y0) / dt;
        return;
    }
    q->own = 0;
    if (cls->follows && !dir) {
        /* The field is stale: never follow it.  Wait, or walk an own
         * path on the current map. */
        if (c->scenario->fallback == FF_FALLBACK_ASTAR &&
            own_next(c, index, (uint32_t)((size_t)cy * (size_t)g->w + (size_t)cx), &next)) {
            q->own = 1;
            q->tx = cell_center_x(g, next);
            q->ty = cell_center_y(g, next);
        } else {
            a->state = FF_AGENT_WAITING_FIELD;
            a->vx = a->vy = 0;
            c->stats.stale_ticks++;
            return;
        }
    } else if (a->own_path) {
        drop_path(&c->plan[index]);  /* the new field is in: resume it */
        a->own_path = 0;
    }
    if (cls->follows && !q->own && dir[(size_t)cy * (size_t)g->w + (size_t)cx] == FF_DIR_NONE) {
        /* Unreachable: stop, and never keep the old heading going. */
        a->state = FF_AGENT_STUCK;
        a->vx = a->vy = 0;
        return;
    }
    a->state = q->own ? FF_AGENT_FALLBACK : FF_AGENT_MOVING;
    q->c = c;
    q->a = a;
    q->index = index;
    q->cls = cls;
    q->cx = cx;
    q->cy = cy;
    q->dir = dir;
    if (blend_groups(cls, propose, q, &sx, &sy) < 0)
        c->stats.group_fallbacks++;
    len2 = sx * sx + sy * sy;
    if (len2 > 1) {
        len2 = sqrt(len2);
        sx /= len2;
        sy /= len2;
    }
    /* Accelerate toward the desired velocity within the limit. */
    dvx = sx * cls->max_speed - a->vx;
    dvy = sy * cls->max_speed - a->vy;
    amax = cls->max_accel * dt;
    dv = dvx * dvx + dvy * dvy;
    /* (Well inside the limit the root cannot exceed it: no need of it.) */
    if (!(dv < amax * amax * (1 - 1e-12)) && (dv = sqrt(dv)) > amax) {
        dvx *= amax / dv;
        dvy *= amax / dv;
    }
    a->vx += dvx;
    a->vy += dvy;
    speed2 = a->vx * a->vx + a->vy * a->vy;
    if (speed2 > cls->max_speed * cls->max_speed) {
        double s = cls->max_speed / sqrt(speed2);
        a->vx *= s;
        a->vy *= s;
    }
    hx0 = a->hx;
    hy0 = a->hy;
    if (a->vx * a->vx + a->vy * a->vy >= 0.01 * cls->max_speed * cls->max_speed)
        turn_heading(a, a->vx, a->vy, c->turn_cos[a->cls], c->turn_sin[a->cls]);
    x0 = a->x;
    y0 = a->y;
    {
        int far;
        double mx = a->vx * dt, my = a->vy * dt;
        /* (mx * mx + my * my > 0: the slide's own test for a move at all,
         * false for NaN and for moves too small to square.) */
        if (q->cells && mx * mx + my * my > 0 && near > c->slide_far_k[a->cls]) {
            /* What the slide does with a move of one substep that the
             * near-wall map shows clear (slide_far_k), without the root
             * and the divisions. */
            a->x += mx;
            a->y += my;
            far = 1;
        } else if (q->cells) {
            ff_walls_slide_from(&c->walls, (long)cx, (long)cy, cls->radius, &a->x, &a->y, mx, my, &far);
        } else {
            ff_walls_slide_far(&c->walls, cls->radius, &a->x, &a->y, mx, my, &far);
        }
        a->clear = (uint8_t)far;
    }
    /* The velocity is what the move kept after sliding. */
    a->vx = (a->x - x0) / dt;
    a->vy = (a->y - y0) / dt;
    if (a->x != x0 || a->y != y0) {
        c->stats.jitter_moves++;
        if (a->hx != hx0 || a->hy != hy0) {
            double cross = hx0 * a->hy - hy0 * a->hx, dot = hx0 * a->hx + hy0 * a->hy;
            c->stats.jitter_sum += atan2(fabs(cross), dot) * (180 / PI);
        }
    }
}

/* ---- overlaps ---- */

/* Push a and b apart by o along n (from a to b): half each, and what a
 * wall keeps one of them from taking goes to the other. */
static void separate_pair(ff_crowd *c, ff_agent *a, double ri, ff_agent *b, double rj,
                          double nx, double ny, double o)
{
    double x0 = a->x, y0 = a->y, got_a, got_b;

    if (pinned(a) || pinned(b)) {
        if (!pinned(b))
            ff_walls_slide(&c->walls, rj, &b->x, &b->y, nx * o, ny * o);
        else if (!pinned(a))
            ff_walls_slide(&c->walls, ri, &a->x, &a->y, -nx * o, -ny * o);
        return;
    }
    ff_walls_slide(&c->walls, ri, &a->x, &a->y, -nx * 0.5 * o, -ny * 0.5 * o);
    got_a = -((a->x - x0) * nx + (a->y - y0) * ny);
    if (got_a < 0)
        got_a = 0;
    x0 = b->x;
    y0 = b->y;
    ff_walls_slide(&c->walls, rj, &b->x, &b->y, nx * (o - got_a), ny * (o - got_a));
    got_b = (b->x - x0) * nx + (b->y - y0) * ny;
    if (got_b < 0)
        got_b = 0;
    if (o - got_a - got_b > 1e-12 * c->grid->cell_size && got_a < 0.5 * o)
        return;  /* a was blocked and b took what it could */
    if (o - got_a - got_b > 1e-12 * c->grid->cell_size)
        ff_walls_slide(&c->walls, ri, &a->x, &a->y, -nx * (o - got_a - got_b), -ny * (o - got_a - got_b));
}

/* Record the contact of agents i < j, and mark both involved. */
static ff_status add_contact(ff_crowd *c, uint32_t i, uint32_t j, ff_error *err)
{
    if (c->ncontacts == c->cap_contacts) {
        size_t cap = c->cap_contacts ? 2 * c->cap_contacts : 1024;
        uint32_t *p = realloc(c->contact, 2 * cap * sizeof *p);
        uint64_t *key;
        if (p)
            c->contact = p;
        key = p ? realloc(c->contact_key, 2 * cap * sizeof *key) : NULL;
        if (!key)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for contacts");
        c->contact_key = key;
        c->cap_contacts = cap;
    }
    c->contact[2 * c->ncontacts] = i;
    c->contact[2 * c->ncontacts + 1] = j;
    c->ncontacts++;
    if (!c->involved[i]) {
        c->involved[i] = 1;
        c->involved_list[c->ninvolved++] = i;
    }
    if (!c->involved[j]) {
        c->involved[j] = 1;
        c->involved_list[c->ninvolved++] = j;
    }
    return FF_OK;
}

/* The pairs that may touch this tick: every pair of present agents, lower
 * index first, whose centers are nearer than the sum of their radii plus a
 * margin of a tenth of it, in the hash's order (fixed by the positions
 * and the indices, so deterministic, and kind to the cache).  Overlap passes walk this list, so only the first costs a
 * neighbour search. */
static ff_status find_contacts(ff_crowd *c, ff_error *err)
{
    const ff_shash *h = &c->hash;
    const ff_scenario *s = c->scenario;
    size_t k;

    c->ncontacts = 0;
    c->ninvolved = 0;
    c->contacts_valid = 1;
    /* Positions and classes come from the hash, just built: no agent is
     * read (at 100,000 agents each read is a cache miss). */
    for (k = 0; k < h->n; k++) {
        const ff_shash_entry *p = &h->entry[k], *e;
        double ri = s->cls[p->tag].radius, reach = 1.1 * (ri + c->max_radius);
        near_walk w;

        near_begin(&w, h, p->x, p->y, reach, p->bx, p->by);
        while ((e = near_next(&w))) {
            double dx = e->x - p->x, dy = e->y - p->y, near = 1.1 * (ri + s->cls[e->tag].radius);
            if (e->item > p->item && !(dx * dx + dy * dy >= near * near) &&
                add_contact(c, p->item, e->item, err) != FF_OK)
                return FF_ENOMEM;
        }
    }
    return FF_OK;
}

/* One Gauss-Seidel pass over the contacts: each pair nearer than the sum
 * of its radii is pushed apart along the line between the centers (not
 * scaled by the tick length), with wall sliding. */
static void resolve_pass(ff_crowd *c)
{
    const ff_scenario *s = c->scenario;
    size_t k;

    for (k = 0; k < c->ncontacts; k++) {
        ff_agent *a = &c->agent[c->contact[2 * k]], *b = &c->agent[c->contact[2 * k + 1]];
        double ri = s->cls[a->cls].radius, rj = s->cls[b->cls].radius, sum = ri + rj;
        double dx = b->x - a->x, dy = b->y - a->y, d2 = dx * dx + dy * dy, d, nx, ny;

        if (k + PREFETCH_AHEAD < c->ncontacts) {
            PREFETCH(&c->agent[c->contact[2 * (k + PREFETCH_AHEAD)]]);
            PREFETCH(&c->agent[c->contact[2 * (k + PREFETCH_AHEAD) + 1]]);
        }
        if (d2 >= sum * sum)
            continue;
        d = sqrt(d2);
        if (d > 0) {
            nx = dx / d;
            ny = dy / d;
        } else {
            nx = 1;  /* coincident: the higher id goes east */
            ny = 0;
        }
        separate_pair(c, a, ri, b, rj, nx, ny, sum - d);
    }
}

/* The larger of worst and the overlap of two disks whose radii sum to sum,
 * their centers (dx, dy) apart, as a fraction of sum. */
static double worse_overlap(double worst, double sum, double dx, double dy)
{
    double d2 = dx * dx + dy * dy, o;
    if (d2 >= sum * sum)
        return worst;
    o = (sum - sqrt(d2)) / sum;
    return o > worst ? o : worst;
}

/* The largest pair overlap over the sum of radii, among present agents
 * (the hash must be current). */
static double largest_overlap(const ff_crowd *c)
{
    const ff_shash *h = &c->hash;
    const ff_scenario *s = c->scenario;
    double worst = 0;
    size_t k;

    for (k = 0; k < h->n; k++) {
        const ff_shash_entry *p = &h->entry[k], *e;
        double ri = s->cls[p->tag].radius;
        near_walk w;

        near_begin(&w, h, p->x, p->y, ri + c->max_radius, p->bx, p->by);
        while ((e = near_next(&w)))
            if (e->item > p->item)
                worst = worse_overlap(worst, ri + s->cls[e->tag].radius, e->x - p->x, e->y - p->y);
    }
    return worst;
}

/* The same measure when this tick's contacts were found before the
 * resolution: a pair that overlaps now either is a contact pair or was at
 * least 1.1 times its radii sum apart and has moved since, and only agents
 * of contact pairs move in the resolution.  So only the pairs with an agent
 * of a contact pair need be measured, each with the same arithmetic (the
 * largest value does not depend on the order).  Clears the marks. */
static double largest_overlap_involved(ff_crowd *c)
{
    const ff_shash *h = &c->hash;
    const ff_scenario *s = c->scenario;
    double worst = 0;
    size_t k;

    for (k = 0; k < c->ninvolved; k++) {
        uint32_t i = c->involved_list[k];
        const ff_agent *a = &c->agent[i];
        const ff_shash_entry *e;
        double ri = s->cls[a->cls].radius;
        near_walk w;

        c->involved[i] = 0;
        if (k + PREFETCH_AHEAD < c->ninvolved)
            PREFETCH(&c->agent[c->involved_list[k + PREFETCH_AHEAD]]);
        near_begin(&w, h, a->x, a->y, ri + c->max_radius, ff_shash_bucket(h, a->x), ff_shash_bucket(h, a->y));
        while ((e = near_next(&w)))
            if (e->item != i)
                worst = worse_overlap(worst, ri + s->cls[e->tag].radius, e->x - a->x, e->y - a->y);
    }
    c->ninvolved = 0;
    c->contacts_valid = 0;
    return worst;
}

/* 1 when (x, y) is within the arrival distance of a goal cell's center. */
static int at_goal(const ff_crowd *c, int32_t cls, double x, double y)
{
    const ff_grid *g = c->grid;
    const long long *box = &c->goal_box[4 * cls];
    const double *world_box = &c->goal_world[4 * cls];
    const uint8_t *goal;
    double r = c->scenario->arrive, cs = g->cell_size;
    long long x0, x1, y0, y1, i, j;

    /* Far outside the goals' box (by a cell more than the range scanned
     * below, so rounding cannot matter): no goal, without the divisions. */
    if (x + r < world_box[0] || x - r > world_box[2] || y + r < world_box[1] || y - r > world_box[3])
        return 0;
    goal = goal_mask(c, cls);
    x0 = (long long)floor_fast((x - r - g->origin_x) / cs);
    x1 = (long long)floor_fast((x + r - g->origin_x) / cs);
    y0 = (long long)floor_fast((y - r - g->origin_y) / cs);
    y1 = (long long)floor_fast((y + r - g->origin_y) / cs);

    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 >= g->w) x1 = g->w - 1;
    if (y1 >= g->h) y1 = g->h - 1;
    if (x1 < box[0] || x0 > box[2] || y1 < box[1] || y0 > box[3])
        return 0;  /* no goal cell in the range: the mask need not be read */
    for (j = y0; j <= y1; j++)
        for (i = x0; i <= x1; i++) {
            double dx, dy;
            if (!goal[(size_t)j * (size_t)g->w + (size_t)i])
                continue;
            dx = g->origin_x + ((double)i + 0.5) * cs - x;
            dy = g->origin_y + ((double)j + 0.5) * cs - y;
            if (dx * dx + dy * dy <= r * r)
                return 1;
        }
    return 0;
}

/* ---- cell-to-cell moves ('move grid') ---- */

/* Footprint half-width in cells of a disk of radius r centered in a
 * cell: the cells its bounding box reaches beyond its own. */
static int32_t footprint_half(const ff_grid *g, double r)
{
    double k = ceil(r / g->cell_size - 0.5 - 1e-9);
    if (!(k < (double)g->w + (double)g->h))  /* (the reader refuses such radii) */
        k = (double)g->w + (double)g->h;
    return k > 0 ? (int32_t)k : 0;
}

/* Fill request q for agent index: its cell, and the next cells it may
 * take in order of preference; sets the agent's state. */
static void grid_request(ff_crowd *c, size_t index, ff_reserve_request *q)
{
    const ff_grid *g = c->grid;
    ff_agent *a = &c->agent[index];
    const ff_agent_class *cls = &c->scenario->cls[a->cls];
    ff_profile *f = ff_profiles_of(c->profiles, a->cls);
    const ff_grid *lg = &f->grid;
    const uint8_t *dir = agent_dir(c, a->cls);
    ff_agent_plan *pl = &c->plan[index];
    long long cx, cy;
    uint32_t cell, next;
    int d, e;

    ff_world_to_cell(g, a->x, a->y, &cx, &cy);
    cell = (uint32_t)((size_t)cy * (size_t)g->w + (size_t)cx);
    q->cell = cell;
    q->half = footprint_half(g, cls->radius);
    q->priority = cls->agent_priority;
    q->waited = pl->waited;
    q->id = a->id;
    q->ncand = 0;
    if (a->state == FF_AGENT_ARRIVED)
        return;
    if (!ff_grid_open(g, cell)) {
        /* Inside a newly closed cell: out to any open neighbour. */
        a->state = FF_AGENT_ESCAPING;
        c->stats.escapes++;
        for (d = 0; d < 8; d++) {
            long long nx = cx + ff_dir_dx[d], ny = cy + ff_dir_dy[d];
            if (nx >= 0 && ny >= 0 && nx < g->w && ny < g->h &&
                ff_grid_open(g, (size_t)ny * (size_t)g->w + (size_t)nx))
                q->cand[q->ncand++] = (uint32_t)(ny * g->w + nx);
        }
        return;
    }
    if (pl->path && dir && pl->map_tick == c->profiles->map_tick) {
        /* An own path asked for after waiting: walk it to its end. */
        if (own_next(c, index, cell, &next)) {
            a->state = FF_AGENT_FALLBACK;
            q->cand[q->ncand++] = next;
            return;
        }
        drop_path(pl);
    }
    if (!dir) {
        if (c->scenario->fallback == FF_FALLBACK_ASTAR && own_next(c, index, cell, &next)) {
            a->state = FF_AGENT_FALLBACK;
            q->cand[q->ncand++] = next;
        } else {
            a->state = FF_AGENT_WAITING_FIELD;
            c->stats.stale_ticks++;
        }
        return;
    }
    if (pl->path)
        drop_path(pl);
    d = dir[cell];
    if (d == FF_DIR_NONE) {
        a->state = FF_AGENT_STUCK;
        return;
    }
    if (a->state != FF_AGENT_DEADLOCKED)
        a->state = FF_AGENT_MOVING;
    if (d == FF_DIR_GOAL)
        return;
    q->cand[q->ncand++] = (uint32_t)((cy + ff_dir_dy[d]) * g->w + cx + ff_dir_dx[d]);
    /* The field's other optimal steps (ties), in code order. */
    for (e = 0; e < 8; e++) {
        size_t n;
        if (e == d || !(f->step_mask[cell] >> e & 1))
            continue;
        n = (size_t)(cy + ff_dir_dy[e]) * (size_t)g->w + (size_t)(cx + ff_dir_dx[e]);
        if (dir[n] != FF_DIR_NONE &&
            ff_step_tight(f->distance[cell], f->distance[n], ff_grid_step_cost(lg, cell, e)))
            q->cand[q->ncand++] = (uint32_t)n;
    }
}

/* Mark in c->avoid (value 1), or clear again (0), the cells within
 * AVOID_WINDOW of cell that are held for the next tick by another agent
 * than who, grown by half cells: far reservations will have moved on by
 * the time the agent gets there.  Goal cells are left free when agents
 * leave on arrival. */
#define AVOID_WINDOW 8
#define OWN_PATH_BUDGET 4000  /* A* expansions of a replan after waits */

static void mark_held(ff_crowd *c, uint32_t cell, uint32_t who, int32_t half, const uint8_t *goal,
                      uint8_t value)
{
    const ff_grid *g = c->grid;
    int32_t x = (int32_t)(cell % (uint32_t)g->w), y = (int32_t)(cell / (uint32_t)g->w), i, j, di, dj;
    int32_t r = AVOID_WINDOW;

    for (j = y - r; j <= y + r; j++)
        for (i = x - r; i <= x + r; i++) {
            uint32_t h;
            if (i < 0 || j < 0 || i >= g->w || j >= g->h)
                continue;
            h = ff_reserve_holder(&c->reserver, (uint32_t)j * (uint32_t)g->w + (uint32_t)i);
            if (h == FF_RESERVE_NONE || h == who)
                continue;
            for (dj = j - half; dj <= j + half; dj++)
                for (di = i - half; di <= i + half; di++) {
                    size_t k;
                    if (di < 0 || dj < 0 || di >= g->w || dj >= g->h)
                        continue;
                    k = (size_t)dj * (size_t)g->w + (size_t)di;
                    if (value && goal[k] && !c->scenario->stay)
                        continue;
                    c->avoid[k] = value;
                }
        }
}

/* One tick of cell-to-cell moves: requests, grants, moves, waits, own
 * paths after wait-limit waits, and wait-for cycles. */
static ff_status grid_moves(ff_crowd *c, ff_error *err)
{
    const ff_scenario *s = c->scenario;
    const ff_grid *g = c->grid;
    size_t k, n = 0, ncycles;
    ff_status st;

    for (k = 0; k < c->nagents; k++) {
        ff_agent *a = &c->agent[k];
        if (!present(a))
            continue;
        a->x0 = a->x;
        a->y0 = a->y;
        c->req_agent[n] = (uint32_t)k;
        grid_request(c, k, &c->req[n]);
        if (a->state != FF_AGENT_ARRIVED)
            c->stats.agent_steps++;
        n++;
    }
    c->nreq_last = n;
    if (s->reserve) {
        if ((st = ff_reserve_grant(&c->reserver, c->req, n, err)) != FF_OK)
            return st;
    } else {
        for (k = 0; k < n; k++) {
            c->req[k].granted = c->req[k].ncand > 0 ? 0 : -1;
            c->req[k].blocker = FF_RESERVE_NONE;
        }
    }
    for (k = 0; k < n; k++) {
        ff_reserve_request *q = &c->req[k];
        size_t i = c->req_agent[k];
        ff_agent *a = &c->agent[i];
        ff_agent_plan *pl = &c->plan[i];
        c->waits_on[k] = FF_RESERVE_NONE;
        if (q->granted >= 0) {
            uint32_t next = q->cand[q->granted];
            double hx0 = a->hx, hy0 = a->hy, dx, dy, len;
            a->x = cell_center_x(g, next);
            a->y = cell_center_y(g, next);
            dx = a->x - a->x0;
            dy = a->y - a->y0;
            len = sqrt(dx * dx + dy * dy);
            a->hx = dx / len;
            a->hy = dy / len;
            c->stats.jitter_moves++;
            if (a->hx != hx0 || a->hy != hy0)
                c->stats.jitter_sum += atan2(fabs(hx0 * a->hy - hy0 * a->hx), hx0 * a->hx + hy0 * a->hy) * (180 / PI);
            pl->waited = 0;
            pl->no_way = 0;
            if (a->state == FF_AGENT_DEADLOCKED)
                a->state = FF_AGENT_MOVING;
        } else if (q->ncand > 0) {
            pl->waited++;
            c->stats.reservation_waits++;
            if (pl->waited % s->wait_limit == 0) {
                /* Ask for an own path round the cells others hold. */
                ff_astar *as = &ff_profiles_of(c->profiles, a->cls)->astar;
                const uint8_t *goal = goal_mask(c, a->cls);
                int found;
                mark_held(c, q->cell, (uint32_t)k, q->half, goal, 1);
                as->max_expand = OWN_PATH_BUDGET;
                found = plan_path(c, i, q->cell, c->avoid);
                as->max_expand = 0;
                mark_held(c, q->cell, (uint32_t)k, q->half, goal, 0);
                if (found < 0)
                    return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for a path");
                pl->no_way = found != 1 || pl->len == 0;
                if (pl->no_way)
                    drop_path(pl);
            }
            /* A wait counts toward a deadlock only when the field's
             * every optimal step was refused (not an own path's) and no
             * way round was found. */
            if (pl->no_way && a->state != FF_AGENT_FALLBACK)
                c->waits_on[k] = q->blocker;
        }
        a->vx = (a->x - a->x0) / s->tick_dt;
        a->vy = (a->y - a->y0) / s->tick_dt;
    }
    /* Wait-for cycles among agents that have no way round. */
    ncycles = ff_reserve_cycles(c->waits_on, n, c->cycle, c->cycle_scratch);
    c->ndeadlocks = 0;
    c->deadlock_start[0] = 0;
    if (ncycles > 0) {
        size_t cyc, m = 0;
        for (cyc = 0; cyc < ncycles; cyc++) {
            size_t first = m;
            int fresh = 0;
            for (k = 0; k < n; k++)
                if (c->cycle[k] == (int32_t)cyc) {
                    ff_agent *a = &c->agent[c->req_agent[k]];
                    if (a->state != FF_AGENT_DEADLOCKED)
                        fresh = 1;
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
    return FF_OK;
}

/* Spawns of tick t in cell-to-cell moves: at their cell's center, when
 * (with reservations) its footprint is free; otherwise they try again
 * next tick. */
static void grid_spawns(ff_crowd *c, long long t)
{
    const ff_grid *g = c->grid;
    size_t k, due, waiting = 0, born = 0;

    for (due = c->next_spawn; due < c->nagents && c->agent[c->spawn_order[due]].spawn_tick <= t; due++)
        ;
    for (k = c->next_spawn; k < due; k++) {
        uint32_t i = c->spawn_order[k];
        ff_agent *a = &c->agent[i];
        long long cx, cy;
        uint32_t cell;
        ff_world_to_cell(g, a->x, a->y, &cx, &cy);
        cell = (uint32_t)((size_t)cy * (size_t)g->w + (size_t)cx);
        if (c->scenario->reserve &&
            !ff_reserve_claim(&c->reserver, cell, footprint_half(g, c->scenario->cls[a->cls].radius),
                              FF_RESERVE_NONE - 1)) {
            c->spawn_scratch[waiting++] = i;
            continue;
        }
        a->x = cell_center_x(g, cell);
        a->y = cell_center_y(g, cell);
        a->state = agent_dir(c, a->cls) ? FF_AGENT_MOVING : FF_AGENT_WAITING_FIELD;
        a->vx = a->vy = 0;
        a->x0 = a->x;
        a->y0 = a->y;
        c->spawn_order[c->next_spawn + born++] = i;
        c->live_dirty = 1;
    }
    memcpy(c->spawn_order + c->next_spawn + born, c->spawn_scratch, waiting * sizeof *c->spawn_scratch);
    c->next_spawn += born;
}

/* An agent arrives at tick t: it leaves, or stays as an obstacle. */
static void arrive(ff_crowd *c, ff_agent *a, long long t, int *changed)
{
    a->arrival_tick = t;
    c->stats.arrived++;
    if (c->scenario->stay) {
        a->state = FF_AGENT_ARRIVED;
        a->vx = a->vy = 0;
        a->clear = 0;
    } else {
        a->state = FF_AGENT_GONE;
        *changed = 1;
    }
}

/* 1 when agent a, of radius r, stands nearer than r to a wall. */
static int in_wall(const ff_crowd *c, const ff_agent *a, double r)
{
    return ff_walls_nearest(&c->walls, a->x, a->y, r, NULL, NULL) < r;
}

/* The end of a tick whose contacts came from the candidates, in the
 * start-of-tick hash's order: points[k] holds entry k's agent where its
 * move left it, the unclear list the entries whose moves did not end
 * clear of the walls (or that did not move).  The same bookkeeping as the
 * walk in ff_crowd_step, agent by agent, touching only the agents it
 * concerns: those the resolution moved (their points, velocities and wall
 * checks), the unclear ones (wall checks) and those near a goal
 * (arrivals); then the hash, from points nearly in its order. */
static ff_status end_by_hash(ff_crowd *c, long long t, size_t nunclear, int *changed,
                             ff_error *err)
{
    const ff_scenario *s = c->scenario;
    size_t k, n = c->hash.n;

    for (k = 0; k < c->ninvolved; k++) {
        uint32_t i = c->involved_list[k];
        ff_agent *a = &c->agent[i];
        c->points[c->entry_of[i]].x = a->x;
        c->points[c->entry_of[i]].y = a->y;
        if ((a->state == FF_AGENT_ESCAPING || a->state == FF_AGENT_MOVING ||
             a->state == FF_AGENT_FALLBACK) && a->spawn_tick < t) {
            a->vx = (a->x - a->x0) / s->tick_dt;
            a->vy = (a->y - a->y0) / s->tick_dt;
        }
        if (in_wall(c, a, s->cls[a->cls].radius))
            c->stats.wall_penetrations++;
    }
    for (k = 0; k < nunclear; k++) {
        uint32_t i = c->hash.entry[c->unclear[k]].item;
        const ff_agent *a = &c->agent[i];
        if (!c->involved[i] && in_wall(c, a, s->cls[a->cls].radius))
            c->stats.wall_penetrations++;
    }
    for (k = 0; k < n; k++) {
        const ff_shash_entry *p = &c->points[k];
        ff_agent *a;
        if (!at_goal(c, (int32_t)p->tag, p->x, p->y))
            continue;
        a = &c->agent[p->item];
        if (a->state != FF_AGENT_ARRIVED)
            arrive(c, a, t, changed);
    }
    c->hash_current = 1;
    return ff_shash_build(&c->hash, c->bucket_size, c->points, n, err);
}

/* An agent's position in cell units, computed a few agents early, when
 * its cells are asked for (see agent_ctx). */
typedef struct {
    double fx, fy;
    int cells;
} cell_facts;

/* The cell facts of hash entry k, and ask for the cache lines its step
 * will read: both lines of the agent, and the cells of the maps
 * (directions, near-wall) at the position the hash holds.  Changes
 * nothing but speed. */
static void cell_ahead(const ff_crowd *c, size_t k, size_t row_ahead, cell_facts *f)
{
    const ff_shash_entry *e = &c->hash.entry[k];
    const ff_agent *pa = &c->agent[e->item];
    const ff_grid *g = c->grid;
    int in;

    f->fx = (e->x - g->origin_x) * c->walls.inv_cell;
    f->fy = (e->y - g->origin_y) * c->walls.inv_cell;
    in = f->fx >= 0 && f->fy >= 0 && f->fx < (double)g->w && f->fy < (double)g->h;
    f->cells = in && c->pow2_cell;
    PREFETCH(pa);
    PREFETCH((const char *)pa + sizeof *pa - 1);
    {
        /* The next row of buckets, which the neighbour scans read before
         * the walk gets there: its slot, and the entries about a row of
         * the table further on. */
        const ff_shash *h = &c->hash;
        PREFETCH(&h->start[ff_shash_slot(h, e->bx, e->by + 1)]);
        if (k + row_ahead < h->n)
            PREFETCH(&h->entry[k + row_ahead]);
    }
    if (in) {
        size_t cell = (size_t)f->fy * (size_t)g->w + (size_t)f->fx;
        const uint8_t *d = agent_dir(c, (int32_t)e->tag);
        PREFETCH(&c->walls.near[cell]);
        if (d) {
            PREFETCH(&d[cell]);
            if (f->fy < (double)(g->h - 1))
                PREFETCH(&d[cell + (size_t)g->w]);
        }
    }
}

ff_status ff_crowd_step(ff_crowd *c, ff_error *err)
{
    const ff_scenario *s = c->scenario;
    long long t = ++c->tick;
    size_t k;
    int pass, changed = 0, stepped = 0, entered = 0, by_hash = 0;
    size_t nunclear = 0;
    ff_status st;

    c->ndeadlocks = 0;
    if (c->profiles) {
        int map_changed;
        if ((st = ff_profiles_tick(c->profiles, t, &map_changed, err)) != FF_OK)
            return st;
        if (map_changed) {
            ff_walls_free(&c->walls);
            if ((st = ff_walls_init(&c->walls, c->grid, err)) != FF_OK)
                return st;
        }
    }
    if (s->move == FF_MOVE_GRID) {
        if (t > 0) {
            if ((st = grid_moves(c, err)) != FF_OK)
                return st;
        } else if (s->reserve && (st = ff_reserve_grant(&c->reserver, c->req, 0, err)) != FF_OK) {
            return st;
        }
        grid_spawns(c, t);
    } else if (t > 0) {
        agent_ctx q;
        cell_facts ahead[PREFETCH_AHEAD];
        size_t row_ahead;
        int collect = s->passes > 0 && c->candidates_ok;
        double moved2 = 0;
        if (!c->hash_current && (st = build_hash(c, err)) != FF_OK)
            return st;
        memset(&q, 0, sizeof q);
        q.collect = collect ? c : NULL;
        c->ncand = 0;
        c->cand_failed = 0;
        if (collect && c->cap_cand < c->hash.n) {
            /* Room for a candidate an agent, at once rather than by
             * doublings in the middle of the walk. */
            uint32_t *p = realloc(c->cand, 2 * c->hash.n * sizeof *p);
            if (p) {
                c->cand = p;
                c->cap_cand = c->hash.n;
            }
        }
        /* Steering reads only the start-of-tick positions in the hash and
         * each move only its own agent, so the order of this walk changes
         * nothing but speed: the hash's order keeps neighbours in cache. */
        /* Entries in a row of the table (its columns times the points
         * per slot), and the walk's lead. */
        row_ahead = (size_t)(((uint64_t)c->hash.n << c->hash.cols_log2) / ((uint64_t)c->hash.mask + 1)) +
                    PREFETCH_AHEAD;
        for (k = 0; k < PREFETCH_AHEAD && k < c->hash.n; k++)
            cell_ahead(c, k, row_ahead, &ahead[k]);
        for (k = 0; k < c->hash.n; k++) {
            uint32_t i = c->hash.entry[k].item;
            int state;
            q.fx = ahead[k % PREFETCH_AHEAD].fx;
            q.fy = ahead[k % PREFETCH_AHEAD].fy;
            q.cells = ahead[k % PREFETCH_AHEAD].cells;
            if (k + PREFETCH_AHEAD < c->hash.n)  /* (in the place just read) */
                cell_ahead(c, k + PREFETCH_AHEAD, row_ahead, &ahead[k % PREFETCH_AHEAD]);
            state = c->agent[i].state;
            q.e = &c->hash.entry[k];
            q.scanned = 0;
            if (collect)
                q.cand_reach = c->cand_reach[q.e->tag];
            if (state >= FF_AGENT_MOVING && state <= FF_AGENT_DEADLOCKED) {
                ff_agent *a = &c->agent[i];
                double mx, my;
                step_agent(c, i, &q);
                mx = a->x - a->x0;
                my = a->y - a->y0;
                if (!(mx * mx + my * my <= moved2))  /* (a NaN breaks the bound) */
                    moved2 = mx * mx + my * my;
            }
            else
                c->agent[i].clear = 0;  /* (present, not stepped) */
            if (collect) {
                if (!q.scanned)
                    scan_candidates(c, k, q.cand_reach);
                c->points[k].x = c->agent[i].x;
                c->points[k].y = c->agent[i].y;
                c->points[k].item = i;
                c->points[k].tag = q.e->tag;
                if (!c->agent[i].clear)
                    c->unclear[nunclear++] = (uint32_t)k;
            }
        }
        /* The candidates serve when no move broke the bound (a slide
         * pushed along a wall, say) and nobody enters below. */
        stepped = collect && !c->cand_failed && sqrt(moved2) <= c->max_move * (1 + 1e-10);
    }
    /* Spawns, from the list sorted by spawn tick. */
    for (; s->move == FF_MOVE_STEER && c->next_spawn < c->nagents; c->next_spawn++) {
        ff_agent *a = &c->agent[c->spawn_order[c->next_spawn]];
        if (a->spawn_tick > t)
            break;
        /* One that enters while its field is stale waits for it. */
        a->state = agent_dir(c, a->cls) || !s->cls[a->cls].follows ? FF_AGENT_MOVING
                                                                    : FF_AGENT_WAITING_FIELD;
        a->vx = a->vy = 0;
        a->x0 = a->x;
        a->y0 = a->y;
        c->live_dirty = 1;
        entered = 1;
    }
    if (s->passes > 0 && s->move == FF_MOVE_STEER) {
        if (stepped && !entered && !c->fresh_contacts) {
            st = contacts_from_candidates(c, err);
            c->candidate_ticks++;
            by_hash = c->hash.n >= c->end_by_hash_min;
        } else {
            if ((st = build_hash(c, err)) != FF_OK)
                return st;
            st = find_contacts(c, err);
        }
        if (st != FF_OK)
            return st;
        for (pass = 0; pass < s->passes; pass++)
            resolve_pass(c);
    }
    if (by_hash) {
        if ((st = end_by_hash(c, t, nunclear, &changed, err)) != FF_OK)
            return st;
        goto measured;
    }
    /* The end of the tick: one walk over the present agents in index
     * order (through memory, not scattered in hash order) gathers the
     * hash's points and does each agent's own bookkeeping (velocity, wall
     * check, arrival), which reads and writes only that agent; then the
     * hash, then the overlap measure, which reads only the hash. */
    if (c->live_dirty)
        gather_live(c);
    for (k = 0; k < c->nlive; k++) {
        ff_agent *a = &c->agent[c->live[k]];
        double r = s->cls[a->cls].radius;
        if (k + PREFETCH_AHEAD < c->nlive) {
            const ff_agent *pa = &c->agent[c->live[k + PREFETCH_AHEAD]];
            PREFETCH(pa);
            PREFETCH((const char *)pa + sizeof *pa - 1);
        }
        c->points[k].x = a->x;
        c->points[k].y = a->y;
        c->points[k].item = c->live[k];
        c->points[k].tag = (uint32_t)a->cls;
        /* An agent held back by its neighbours carries that into its
         * velocity, as in position-based dynamics: a jam does not keep
         * pushing at full speed.  (The step left exactly this in an agent
         * that walked and was not pushed since: only agents of contact
         * pairs are.) */
        if ((a->state == FF_AGENT_ESCAPING || ((a->state == FF_AGENT_MOVING ||
                                                a->state == FF_AGENT_FALLBACK) &&
                                               c->involved[c->live[k]])) &&
            a->spawn_tick < t && s->move == FF_MOVE_STEER) {
            a->vx = (a->x - a->x0) / s->tick_dt;
            a->vy = (a->y - a->y0) / s->tick_dt;
        }
        /* A move that ended clear of the walls, as its slide found, and
         * was not pushed since (only agents of contact pairs are) needs
         * no check: it would find no wall within r. */
        if (!(a->clear && !c->involved[c->live[k]]) && in_wall(c, a, r))
            c->stats.wall_penetrations++;
        a->clear = 0;
        if (a->state != FF_AGENT_ARRIVED && at_goal(c, a->cls, a->x, a->y))
            arrive(c, a, t, &changed);
    }
    c->hash_current = 1;
    if ((st = ff_shash_build(&c->hash, c->bucket_size, c->points, c->nlive, err)) != FF_OK)
        return st;
measured:
    {
        double o = c->contacts_valid ? largest_overlap_involved(c) : largest_overlap(c);
        if (o > c->stats.max_overlap)
            c->stats.max_overlap = o;
    }
    if (changed) {
        c->hash_current = 0;
        c->live_dirty = 1;
    }
    return FF_OK;
}

void ff_crowd_moved(ff_crowd *c)
{
    c->hash_current = 0;  /* the next step builds it from the agents */
}

/* ---- output ---- */

/* Round to the printed precision so that -0.00001 prints as 0.0000. */
static double tidy(double v, double unit)
{
    return fabs(v) < 0.5 * unit ? 0 : v;
}

ff_status ff_crowd_write_header(FILE *f, const ff_crowd *c, ff_error *err)
{
    fprintf(f, "# ffsim trace: tick id x y vx vy heading radius state\n");
    fprintf(f, "# tick_dt %.9g ticks %lld direction %s agents %zu\n", c->scenario->tick_dt,
            c->scenario->ticks, c->smooth ? "smooth" : "raw", c->nagents);
    if (c->profiles && (c->scenario->profiles || c->scenario->nevents || c->scenario->move)) {
        size_t k;
        for (k = 0; k < c->profiles->nprofiles; k++)
            fprintf(f, "# field %zu radius %.9g id %016llx\n", k, c->profiles->profile[k].radius,
                    (unsigned long long)c->profiles->profile[k].id);
    }
    if (ferror(f))
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error");
    return FF_OK;
}

ff_status ff_crowd_write_tick(FILE *f, const ff_crowd *c, ff_error *err)
{
    size_t k;

    if (c->profiles) {
        const ff_scenario *s = c->scenario;
        for (k = 0; k < s->nevents; k++)
            if (s->event[k].tick == c->tick)
                fprintf(f, "# tick %lld %s %d,%d,%d,%d\n", c->tick, s->event[k].close ? "close" : "open",
                        (int)s->event[k].x0, (int)s->event[k].y0, (int)s->event[k].x1, (int)s->event[k].y1);
        for (k = 0; k < c->profiles->nprofiles; k++) {
            const ff_profile *p = &c->profiles->profile[k];
            if (c->tick > 0 && p->published_tick == c->tick)
                fprintf(f, "# tick %lld field %zu radius %.9g id %016llx published\n", c->tick, k,
                        p->radius, (unsigned long long)p->id);
        }
    }    for (k = 0; k < c->nagents; k++) {
        const ff_agent *a = &c->agent[k];
        double heading;
        if (!present(a) && !(a->state == FF_AGENT_GONE && a->arrival_tick == c->tick))
            continue;
        heading = atan2(a->hy, a->hx) * (180 / PI);
        if (heading < 0)
            heading += 360;
        if (heading >= 359.995)
            heading = 0;
        fprintf(f, "%lld %u %.4f %.4f %.4f %.4f %.2f %.4f %s\n", c->tick, a->id,
                tidy(a->x, 1e-4), tidy(a->y, 1e-4), tidy(a->vx, 1e-4), tidy(a->vy, 1e-4),
                tidy(heading, 1e-2), c->scenario->cls[a->cls].radius, ff_agent_state_name(a->state));
    }
    if (ferror(f))
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error");
    return FF_OK;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

ff_status ff_crowd_summarise(const ff_crowd *c, ff_crowd_summary *sum, ff_error *err)
{
    long long *ticks = malloc((c->nagents ? c->nagents : 1) * sizeof *ticks);
    size_t k, n = 0;

    if (!ticks)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the summary");
    memset(sum, 0, sizeof *sum);
    sum->agents = c->nagents;
    sum->stats = c->stats;
    sum->ticks = c->tick < 0 ? 0 : c->tick;
    sum->unreachable = c->unreachable;
    if (c->profiles) {
        sum->field_builds = c->profiles->builds;
        sum->field_bytes = c->profiles->build_bytes;
        sum->rebuild_seconds = c->profiles->rebuild_seconds_max;
    }
    for (k = 0; k < c->nagents; k++) {
        const ff_agent *a = &c->agent[k];
        if (a->state != FF_AGENT_UNBORN)
            sum->spawned++;
        if (a->arrival_tick >= 0)
            ticks[n++] = a->arrival_tick;
        else if (a->state == FF_AGENT_STUCK)
            sum->stuck++;
        else if (a->state == FF_AGENT_DEADLOCKED)
            sum->deadlocked++;
        else if (present(a))
            sum->remaining++;
    }
    sum->arrived = n;
    qsort(ticks, n, sizeof *ticks, cmp_ll);
    if (n == 0) {
        sum->arrival_median = NAN;
        sum->arrival_p95 = -1;
    } else {
        size_t rank = (95 * n + 99) / 100;  /* nearest rank: ceil(0.95 n) */
        sum->arrival_median = n % 2 ? (double)ticks[n / 2]
                                    : 0.5 * ((double)ticks[n / 2 - 1] + (double)ticks[n / 2]);
        sum->arrival_p95 = ticks[rank - 1];
    }
    free(ticks);
    return FF_OK;
}

ff_status ff_crowd_write_summary(FILE *f, const ff_crowd_summary *sum,
                                 double steps_per_second, ff_error *err)
{
    const ff_crowd_stats *st = &sum->stats;

    fprintf(f, "agents %zu\n", sum->agents);
    fprintf(f, "spawned %zu\n", sum->spawned);
    fprintf(f, "arrived %zu\n", sum->arrived);
    if (sum->arrived) {
        fprintf(f, "arrival_tick_median %.1f\n", sum->arrival_median);
        fprintf(f, "arrival_tick_p95 %lld\n", sum->arrival_p95);
    } else {
        fprintf(f, "arrival_tick_median -\n");
        fprintf(f, "arrival_tick_p95 -\n");
    }
    fprintf(f, "stuck %zu\n", sum->stuck);
    fprintf(f, "remaining %zu\n", sum->remaining);
    fprintf(f, "unreachable %zu\n", sum->unreachable);
    fprintf(f, "wall_penetrations %llu\n", st->wall_penetrations);
    fprintf(f, "max_overlap %.4f\n", st->max_overlap);
    fprintf(f, "heading_jitter %.4f\n", st->jitter_moves ? st->jitter_sum / (double)st->jitter_moves : 0.0);
    fprintf(f, "group_fallbacks %llu\n", st->group_fallbacks);
    fprintf(f, "escapes %llu\n", st->escapes);
    fprintf(f, "field_builds %llu\n", sum->field_builds);
    fprintf(f, "field_bytes %llu\n", sum->field_bytes);
    fprintf(f, "stale_ticks %llu\n", st->stale_ticks);
    fprintf(f, "fallbacks %llu\n", st->fallbacks);
    fprintf(f, "reservation_waits %llu\n", st->reservation_waits);
    fprintf(f, "deadlocks %llu\n", st->deadlocks);
    fprintf(f, "deadlocked %zu\n", sum->deadlocked);
    fprintf(f, "tick_overruns %llu\n", sum->tick_overruns);
    fprintf(f, "ticks %lld\n", sum->ticks);
    fprintf(f, "agent_steps %llu\n", st->agent_steps);
    if (steps_per_second >= 0) {
        fprintf(f, "rebuild_seconds %.6f\n", sum->rebuild_seconds);
        fprintf(f, "agent_steps_per_second %.0f\n", steps_per_second);
    }
    if (ferror(f))
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error");
    return FF_OK;
}
