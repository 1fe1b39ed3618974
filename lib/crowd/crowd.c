/* crowd.c - the per-tick crowd simulation: set-up, the tick, and freeing;
 * see crowd.h and man 1 ffsim.
 *
 * The set-up (setup) is one call a part: the crowd's own arrays from one
 * table (owned_arrays, which ff_crowd_free frees from too), the grid
 * moves' state (grid/gridmove.c), own goals' fields, the classes' facts,
 * the agents, the goal boxes (core/arrival.c), goal groups, congestion.
 *
 * A tick (ff_crowd_step) runs, in order:
 *   0. at tick 0 of a MAPF crowd, its plan (plan_before_moving: the
 *      online rule's run on a crowd of its own, steered by a scatter
 *      (plan/scatter.c), improved by crowdplan.c and plan/mapflns.c,
 *      walked by grid/planwalk.c);
 *   1. map_events: the map events of the tick, and the near-wall map
 *      repaired where the map changed (fields/profiles.c, geometry/nearwall.c);
 *   2. the moves: with 'move grid' the grid moves' tick and spawns
 *      (grid/gridmove.c, which calls the grant: grid/pibt.c, or the plan
 *      of its complement, grid/lacam.c); otherwise steer_tick: each
 *      agent's steering step in the start-of-tick hash's order
 *      (steer/steer.c, with core/ownpath.c), which also gathers the
 *      contact candidates, then the spawns, the contacts and the overlap
 *      resolution passes (steer/contact.c);
 *   3. one end of the tick, agent by agent (in the hash's order after a
 *      tick of candidates in a large crowd, else in index order):
 *      velocities, wall checks, arrivals (core/arrival.c); the next hash;
 *      then the overlap measure (steer/contact.c, or the grid moves').
 * The trace and summary writers are in crowdout.c; the state the parts
 * share is core/crowdint.h.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "angular.h"
#include "contact.h"
#include "crowd.h"
#include "crowdint.h"
#include "crowdplan.h"
#include "gridmove.h"
#include "hugepage.h"
#include "sample.h"
#include "standoff.h"
#include "steer.h"

/* ---- set-up ---- */

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

/* c->spawn_order, 0 .. nagents - 1, in the order of spawning; left as it
 * is when the agents are listed in that order already (their spawn
 * ticks never fall: the order is the identity). */
static void qsort_agents_by_spawn(ff_crowd *c)
{
    size_t k;
    for (k = 1; k < c->nagents && c->agent[k - 1].spawn_tick <= c->agent[k].spawn_tick; k++)
        ;
    if (k >= c->nagents)
        return;
    sort_agents = c->agent;
    qsort(c->spawn_order, c->nagents, sizeof *c->spawn_order, cmp_spawn);
    sort_agents = NULL;
}

/* The crowd's own arrays of fixed size: where each is kept, how many
 * elements of what size, and whether zeroed.  ff_crowd_init allocates
 * them from this one table and ff_crowd_free frees them from it. */
typedef struct {
    void *where;        /* the crowd's pointer to the array */
    size_t n, size;
    int zeroed;
} owned_array;

#define OWNED(field, count, zero) { &c->field, (count), sizeof *c->field, (zero) }

/* The table of crowd c's arrays, for na agents, nc classes and a map of
 * cells cells (each at least 1); returns how many it wrote to t. */
static size_t owned_arrays(ff_crowd *c, size_t na, size_t nc, size_t cells, owned_array *t)
{
    const owned_array table[] = {
        OWNED(goal, cells, 1),
        OWNED(agent, na, 1),
        OWNED(points, na, 0),
        OWNED(live, na, 0),
        OWNED(spawn_order, na, 0),
        OWNED(plan, na, 1),
        OWNED(involved, na, 1),
        OWNED(involved_list, na, 0),
        OWNED(entry_of, na, 0),
        OWNED(unclear, na, 0),
        OWNED(deadlock_id, na, 0),
        OWNED(deadlock_start, na + 1, 0),
        OWNED(turn_cos, nc, 0),
        OWNED(turn_sin, nc, 0),
        OWNED(slide_far_k, nc, 0),
        OWNED(cand_reach, nc, 0),
        OWNED(class_unreachable, nc, 1),
        OWNED(class_first_unreachable, nc, 1),
        OWNED(goal_box, 4 * nc, 0),
        OWNED(goal_world, 4 * nc, 0),
        /* grown as needed (contact.c, steer.c), or only with own goals */
        OWNED(contact, 0, 0),
        OWNED(contact_key, 0, 0),
        OWNED(cand, 0, 0),
        OWNED(agent_goal, 0, 0),
        OWNED(group_arrived, 0, 0),
    };
    memcpy(t, table, sizeof table);
    return sizeof table / sizeof *table;
}

#define MAX_OWNED 32

/* Allocate the arrays of owned_arrays (those of a count); FF_ENOMEM. */
static ff_status alloc_arrays(ff_crowd *c, size_t na, size_t nc, size_t cells, ff_error *err)
{
    owned_array t[MAX_OWNED];
    size_t k, m = owned_arrays(c, na, nc, cells, t);

    for (k = 0; k < m; k++) {
        void *p;
        if (t[k].n == 0)
            continue;
        p = t[k].zeroed ? calloc(t[k].n, t[k].size) : malloc(t[k].n * t[k].size);
        memcpy(t[k].where, &p, sizeof p);  /* (a pointer to the element type) */
        if (!p)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu agents",
                                c->scenario->nagents);
    }
    /* The agents and their points are walked every tick, the agents in
     * the hash's order: huge pages spare TLB misses at 100,000 agents. */
    ff_want_huge_pages(c->agent, na * sizeof *c->agent);
    ff_want_huge_pages(c->points, na * sizeof *c->points);
    return FF_OK;
}

/* Each class's facts for the steps: its largest turn of a tick, its
 * slide's far bound, its contact candidates' reach; and the spatial
 * hash's bucket size, the largest radius and move. */
static void classes_init(ff_crowd *c, const ff_scenario *s, const ff_grid *g)
{
    size_t k;

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
            if ((cls->behaviour[b].kind == FF_BEHAVE_SEPARATE || cls->behaviour[b].kind == FF_BEHAVE_ALIGN) &&
                cls->behaviour[b].range > c->bucket_size)
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
}

/* The agents with a goal of their own ('agent ... goal', 'spawn ...
 * scen'): their goal fields found or made (built on entering). */
static ff_status own_goals_init(ff_crowd *c, const ff_scenario *s, ff_profiles *p, ff_error *err)
{
    size_t k, j;
    ff_status st;

    /* Cell-to-cell moves with reservations read an own goal's field only
     * round where its agents stand, and ask first (gridmove.c, the
     * complement): their fields grow as far as asked. */
    c->goals.lazy = s->move == FF_MOVE_GRID && s->reserve;
    for (k = 0; k < s->nagents && s->agent[k].goal < 0; k++)
        ;
    for (j = 0; k == s->nagents && j < s->ngoal_events; j++)
        if (s->goal_event[j].agent >= 0)
            k = 0;  /* (an agent's goal change: it will have one) */
    if (k == s->nagents || s->nagents == 0)
        return FF_OK;
    if (!p)
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0, "own goals need profiles");
    if (!(c->agent_goal = malloc(s->nagents * sizeof *c->agent_goal)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for %zu agents", s->nagents);
    for (k = 0; k < s->nagents; k++) {
        c->agent_goal[k] = FF_GOALFIELD_NONE;
        if (s->agent[k].goal >= 0 &&
            (st = ff_goalfields_find(&c->goals, p->class_profile[s->agent[k].cls],
                                     (uint32_t)s->agent[k].goal, &c->agent_goal[k], err)) != FF_OK)
            return st;
    }
    return FF_OK;
}

/* The scenario's agents, unborn, in the order of spawning; those whose
 * class's field gives no way to a goal from their start counted (own
 * goals: on entering). */
static void agents_init(ff_crowd *c, const ff_scenario *s)
{
    const ff_grid *g = c->grid;
    size_t k;

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
        ff_agent_initial_heading(c, a, s->agent[k].heading);
        c->spawn_order[k] = (uint32_t)k;
        c->plan[k].map_tick = -1;
        if ((c->direction || c->profiles) && !own_goal(c, k)) {
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
}

/* The exits: every class's goal cells in groups, and a count of
 * arrivals for each. */
static ff_status goal_groups_init(ff_crowd *c, ff_profiles *p, ff_error *err)
{
    size_t nmasks = p ? p->nprofiles : 1, k;
    const uint8_t **masks = malloc((nmasks + 1) * sizeof *masks);
    uint8_t *changed_goals = NULL;
    ff_status st;

    if (!masks)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the goal groups");
    for (k = 0; k < nmasks; k++)
        masks[k] = p ? p->profile[k].goal_mask : c->goal;
    /* The goals of changes to come are exits too. */
    if (p && c->scenario->ngoal_events &&
        !(masks[nmasks++] = changed_goals = ff_goal_events_mask(c->scenario->goal_event, c->scenario->ngoal_events,
                                                     (size_t)c->grid->w * (size_t)c->grid->h))) {
        free(masks);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the goal groups");
    }
    st = ff_goal_groups_init(&c->goal_groups, c->grid->w, c->grid->h, masks, nmasks, err);
    free(masks);
    free(changed_goals);
    if (st == FF_OK && !(c->group_arrived = calloc(c->goal_groups.ngroups + 1, sizeof *c->group_arrived)))
        st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the goal groups");
    return st;
}

/* With 'congestion on' and profiles: the congestion fields. */
static ff_status congestion_init(ff_crowd *c, const ff_scenario *s, ff_profiles *p, ff_error *err)
{
    ff_status st;

    if (!p || !s->congestion)
        return FF_OK;
    if ((st = ff_congestion_init(&c->congestion, p, s->congestion_weight, s->congestion_threshold,
                                 s->congestion_ticks, err)) != FF_OK)
        return st;
    c->congested = 1;
    return FF_OK;
}

/* The crowd's parts, set up in turn; on failure ff_crowd_free frees what
 * was taken. */
static ff_status setup(ff_crowd *c, const ff_scenario *s, const ff_grid *g, const uint8_t *dir,
                       ff_profiles *p, int smooth, ff_error *err)
{
    size_t cells = (size_t)g->w * (size_t)g->h, k;
    size_t na = s->nagents ? s->nagents : 1, nc = s->nclasses ? s->nclasses : 1;
    ff_status st;
    int e;

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
    c->makespan = -1;
    c->stats.plan_online_cost = -1;
    /* Crowds at least this large end a candidate tick in the hash's order
     * (end_by_hash): the walk in index order scatters the next hash's
     * entries over more memory than the caches hold.  Smaller ones are
     * faster the other way (measured on 1,000 and 10,000 agents). */
    c->end_by_hash_min = 32768;
    c->pow2_cell = isfinite(g->cell_size) && g->cell_size > 0 && frexp(g->cell_size, &e) == 0.5;
    if ((st = ff_walls_init(&c->walls, g, err)) != FF_OK)
        return st;
    ff_goalfields_init(&c->goals);
    ff_goalchanges_init(&c->goalchanges);
    if ((st = alloc_arrays(c, na, nc, cells ? cells : 1, err)) != FF_OK ||
        (s->move == FF_MOVE_GRID && (st = ff_gridmove_init(c, na, err)) != FF_OK) ||
        (s->move != FF_MOVE_GRID && (st = ff_standoff_init(c, na, err)) != FF_OK) ||
        (s->move != FF_MOVE_GRID && (st = ff_angular_init(c, na, err)) != FF_OK) ||
        (st = own_goals_init(c, s, p, err)) != FF_OK) {
        ff_crowd_free(c);
        return st;
    }
    for (k = 0; k < g->ngoals; k++)
        c->goal[g->goals[k]] = 1;
    classes_init(c, s, g);
    agents_init(c, s);
    ff_goal_boxes_init(c, s->nclasses);
    if ((st = goal_groups_init(c, p, err)) != FF_OK || (st = congestion_init(c, s, p, err)) != FF_OK) {
        ff_crowd_free(c);
        return st;
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
    owned_array t[MAX_OWNED];
    size_t k, m = owned_arrays(c, 0, 0, 0, t);

    if (c->plan)
        for (k = 0; k < c->nagents; k++)
            ff_ownpath_drop(&c->plan[k]);
    for (k = 0; k < m; k++) {
        void *p;
        memcpy(&p, t[k].where, sizeof p);
        free(p);
        p = NULL;
        memcpy(t[k].where, &p, sizeof p);
    }
    ff_walls_free(&c->walls);
    ff_shash_free(&c->hash);
    ff_goal_groups_free(&c->goal_groups);
    if (c->congested)
        ff_congestion_free(&c->congestion);
    c->congested = 0;
    ff_goalfields_free(&c->goals);
    ff_goalchanges_free(&c->goalchanges);
    ff_gridmove_free(c);
    ff_standoff_free(c);
    ff_angular_free(c);
    c->ncontacts = c->cap_contacts = c->ncand = c->cap_cand = c->ninvolved = 0;
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

/* Own goals' fields that their profiles have republished since they were
 * built (a map event): built again, for the agents that use them. */
static ff_status refresh_goal_fields(ff_crowd *c, ff_error *err)
{
    size_t k;
    ff_status st;

    for (k = 0; k < c->goals.nfields; k++) {
        const ff_goalfield *f = &c->goals.field[k];
        if (f->built && f->built_id != c->profiles->profile[f->profile].id &&
            (st = ff_goalfields_ensure(&c->goals, c->profiles, (uint32_t)k, err)) != FF_OK)
            return st;
    }
    return FF_OK;
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
        if (!ff_agent_at_goal(c, p->item, (int32_t)p->tag, p->x, p->y))
            continue;
        a = &c->agent[p->item];
        if (a->state != FF_AGENT_ARRIVED)
            ff_agent_arrive(c, p->item, t, changed);
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
        if (c->standoff && c->profiles) {
            /* (the cost the standoffs measure progress by, standoff.c) */
            const double *dist = ff_profiles_of(c->profiles, (int32_t)e->tag)->distance;
            if (dist)
                PREFETCH(&dist[cell]);
        }
        if (d) {
            PREFETCH(&d[cell]);
            if (f->fy < (double)(g->h - 1))
                PREFETCH(&d[cell + (size_t)g->w]);
        }
    }
}

/* Refresh the congestion fields from where every present agent stood at
 * the end of the last tick, in index order. */
static ff_status refresh_congestion(ff_crowd *c, ff_error *err)
{
    size_t k;

    if (c->live_dirty)
        gather_live(c);
    ff_congestion_begin(&c->congestion);
    for (k = 0; k < c->nlive; k++)
        ff_congestion_add(&c->congestion, c->agent[c->live[k]].x, c->agent[c->live[k]].y);
    return ff_congestion_finish(&c->congestion, err);
}

/* What a tick's moves leave for its end. */
typedef struct {
    int changed;        /* an agent left: the live list and hash are stale */
    int stepped;        /* the steps gathered every contact candidate */
    int entered;        /* an agent entered this tick */
    int by_hash;        /* end the tick in the hash's order (end_by_hash) */
    size_t nunclear;    /* entries of c->unclear */
} tick_moves;

/* The map events of tick t (with profiles) and its goal changes: the
 * near-wall map repaired where the map changed, the congestion fields
 * when due, and own goals' fields that their profiles republished. */
static ff_status map_events(ff_crowd *c, long long t, ff_error *err)
{
    int map_changed;
    size_t k;
    ff_status st;

    if ((st = ff_profiles_tick(c->profiles, t, &map_changed, err)) != FF_OK ||
        (st = ff_crowd_goal_events(c, t, err)) != FF_OK)
        return st;
    if (c->agent_goal && c->profiles->late_tick == t)
        for (k = 0; k < c->profiles->nprofiles; k++) {
            const ff_profile *f = &c->profiles->profile[k];
            if (f->late_id != f->unbuilt_id)  /* (built late) */
                ff_goalfields_rename(&c->goals, (int32_t)k, f->unbuilt_id, f->late_id);
        }
    if (map_changed)
        ff_walls_repair(&c->walls, c->profiles->changed, c->profiles->nchanged);
    ff_profiles_event_done(c->profiles);  /* (the walls are the event's work) */
    if (c->congested && ff_congestion_due(&c->congestion, t) &&
        (st = refresh_congestion(c, err)) != FF_OK)
        return st;
    /* (Before the first map event no profile publishes again.) */
    if (c->agent_goal && c->profiles->map_tick >= 0 && (st = refresh_goal_fields(c, err)) != FF_OK)
        return st;
    return FF_OK;
}

/* Every present agent's steering step (tick >= 1), in the start-of-tick
 * hash's order, which also gathers the contact candidates when asked
 * (collect): each entry's agent after its move in points, the entries
 * whose moves did not end clear in c->unclear.  m->stepped when the
 * candidates serve (no move broke the bound: a slide pushed along a
 * wall, say). */
static ff_status steer_all(ff_crowd *c, int collect, tick_moves *m, ff_error *err)
{
    agent_ctx q;
    cell_facts ahead[PREFETCH_AHEAD];
    size_t row_ahead, k;
    double moved2 = 0;
    ff_status st;

    if (!c->hash_current && (st = build_hash(c, err)) != FF_OK)
        return st;
    ff_angular_begin(c);
    memset(&q, 0, sizeof q);
    q.collect = collect ? c : NULL;
    ff_contacts_begin(c, collect);
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
            ff_steer_agent(c, i, &q);
            mx = a->x - a->x0;
            my = a->y - a->y0;
            if (!(mx * mx + my * my <= moved2))  /* (a NaN breaks the bound) */
                moved2 = mx * mx + my * my;
        }
        else
            c->agent[i].clear = 0;  /* (present, not stepped) */
        if (collect) {
            if (!q.scanned)
                ff_contacts_scan(c, k, q.cand_reach);
            c->points[k].x = c->agent[i].x;
            c->points[k].y = c->agent[i].y;
            c->points[k].item = i;
            c->points[k].tag = q.e->tag;
            if (!c->agent[i].clear)
                c->unclear[m->nunclear++] = (uint32_t)k;
        }
    }
    m->stepped = collect && !c->cand_failed && sqrt(moved2) <= c->max_move * (1 + 1e-10);
    return FF_OK;
}

/* The steering agents' spawns of tick t, from the list sorted by spawn
 * tick. */
static ff_status steer_spawns(ff_crowd *c, long long t, tick_moves *m, ff_error *err)
{
    const ff_scenario *s = c->scenario;
    ff_status st;

    for (; c->next_spawn < c->nagents; c->next_spawn++) {
        uint32_t i = c->spawn_order[c->next_spawn];
        ff_agent *a = &c->agent[i];
        if (a->spawn_tick > t)
            break;
        if ((st = ff_agent_enter(c, i, err)) != FF_OK)
            return st;
        /* One that enters while its field is stale waits for it. */
        a->state = agent_dir_of(c, i, a->cls) || !s->cls[a->cls].follows ? FF_AGENT_MOVING
                                                                          : FF_AGENT_WAITING_FIELD;
        a->vx = a->vy = 0;
        a->x0 = a->x;
        a->y0 = a->y;
        c->live_dirty = 1;
        m->entered = 1;
    }
    return FF_OK;
}

/* The contacts of the tick (from the candidates when they serve and
 * nobody entered) and the overlap resolution passes. */
static ff_status resolve_overlaps(ff_crowd *c, tick_moves *m, ff_error *err)
{
    ff_status st;
    int pass;

    if (m->stepped && !m->entered && !c->fresh_contacts) {
        st = ff_contacts_from_candidates(c, err);
        c->candidate_ticks++;
        m->by_hash = c->hash.n >= c->end_by_hash_min;
    } else {
        if ((st = build_hash(c, err)) != FF_OK)
            return st;
        st = ff_contacts_find(c, err);
    }
    if (st != FF_OK)
        return st;
    for (pass = 0; pass < c->scenario->passes; pass++)
        ff_contacts_resolve_pass(c);
    return FF_OK;
}

/* The moves of a steering tick t: the steps, the spawns, the contacts. */
static ff_status steer_tick(ff_crowd *c, long long t, tick_moves *m, ff_error *err)
{
    const ff_scenario *s = c->scenario;
    int collect = s->passes > 0 && c->candidates_ok;
    ff_status st;

    if (t > 0 && (st = steer_all(c, collect, m, err)) != FF_OK)
        return st;
    if ((st = steer_spawns(c, t, m, err)) != FF_OK)
        return st;
    return s->passes > 0 ? resolve_overlaps(c, m, err) : FF_OK;
}

/* The end of the tick in index order: one walk over the present agents
 * (through memory, not scattered in hash order) gathers the hash's
 * points and does each agent's own bookkeeping (velocity, wall check,
 * arrival), which reads and writes only that agent; then the hash.
 * Cell-to-cell moves need the hash for the overlap measure alone, and
 * most crowds not even for that: *overlap is then the measure
 * (ff_gridmove_overlap), else -1. */
static ff_status end_by_index(ff_crowd *c, long long t, int *changed, double *overlap, ff_error *err)
{
    const ff_scenario *s = c->scenario;
    size_t k;

    if (c->live_dirty)
        gather_live(c);
    *overlap = s->move == FF_MOVE_GRID ? ff_gridmove_overlap(c) : -1;
    for (k = 0; k < c->nlive; k++) {
        ff_agent *a = &c->agent[c->live[k]];
        if (k + PREFETCH_AHEAD < c->nlive) {
            const ff_agent *pa = &c->agent[c->live[k + PREFETCH_AHEAD]];
            PREFETCH(pa);
            PREFETCH((const char *)pa + sizeof *pa - 1);
        }
        if (*overlap < 0) {
            c->points[k].x = a->x;
            c->points[k].y = a->y;
            c->points[k].item = c->live[k];
            c->points[k].tag = (uint32_t)a->cls;
        }
        /* An agent held back by its neighbours carries that into its
         * velocity, as in position-based dynamics: a jam does not keep
         * pushing at full speed.  (The step left exactly this in an agent
         * that walked and was not pushed since: only agents of contact
         * pairs are.) */
        if (s->move == FF_MOVE_STEER &&
            (a->state == FF_AGENT_ESCAPING || ((a->state == FF_AGENT_MOVING ||
                                                a->state == FF_AGENT_FALLBACK) &&
                                               c->involved[c->live[k]])) &&
            a->spawn_tick < t) {
            a->vx = (a->x - a->x0) / s->tick_dt;
            a->vy = (a->y - a->y0) / s->tick_dt;
        }
        /* A move that ended clear of the walls, as its slide found, and
         * was not pushed since (only agents of contact pairs are) needs
         * no check: it would find no wall within r. */
        if (!(a->clear && !c->involved[c->live[k]]) && in_wall(c, a, s->cls[a->cls].radius))
            c->stats.wall_penetrations++;
        a->clear = 0;
        if (a->state != FF_AGENT_ARRIVED && ff_agent_at_goal(c, c->live[k], a->cls, a->x, a->y))
            ff_agent_arrive(c, c->live[k], t, changed);
    }
    if (*overlap >= 0)
        return FF_OK;
    c->hash_current = 1;
    return ff_shash_build(&c->hash, c->bucket_size, c->points, c->nlive, err);
}

/* Run crowd run to its end (the scenario's ticks at most, or as many as
 * rec holds), recording where its agents stand after each tick.
 * FF_ENOMEM. */
static ff_status play_recorded(ff_crowd *run, ff_plan_record *rec, ff_error *err)
{
    ff_status st = FF_OK;

    while (st == FF_OK && run->tick < run->scenario->ticks && !rec->refused) {
        if ((st = ff_crowd_step(run, err)) == FF_OK)
            st = ff_crowd_plan_record(run, rec, err);
        if (st == FF_OK && ff_crowd_check_over(run))
            break;
    }
    return st;
}

/* A MAPF plan for crowd c (crowdplan.h), before its tick 0: the online
 * rule's runs of the agents of tick 0 (plan-effort 0, no event, profiles
 * of its own), each steered by a scatter and recorded on a crowd of its
 * own while ff_crowd_plan_try_again asks; the cheapest improved, handed to
 * the grid moves, whose walk an event ends (grid/planwalk.h).  FF_ENOMEM. */
static ff_status plan_before_moving(ff_crowd *c, ff_error *err)
{
    const ff_scenario *s = c->scenario;
    ff_scenario online = *s;
    ff_plan_record rec = { 0 };
    ff_plan_tries tries;
    ff_profiles prof;
    ff_crowd *run = malloc(sizeof *run);
    uint32_t *index = malloc(s->nagents * sizeof *index);
    size_t k;
    int again = 1;
    ff_status st = FF_OK;

    online.plan_effort = 0;
    online.event = NULL;
    online.nevents = 0;
    online.goal_event = NULL;
    online.ngoal_events = 0;
    online.nagents = 0;
    online.agent = malloc(s->nagents * sizeof *online.agent);
    if (!run || !index || !online.agent)
        st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the plan");
    for (k = 0; st == FF_OK && k < s->nagents; k++)
        if (s->agent[k].spawn_tick == 0) {
            index[online.nagents] = (uint32_t)k;
            online.agent[online.nagents++] = s->agent[k];
        }
    ff_crowd_plan_tries_init(&tries);
    if (st == FF_OK && online.nagents >= 2 &&
        (st = ff_profiles_init(&prof, &online, &c->profiles->map, "plan", err)) == FF_OK) {
        while (st == FF_OK && again && (st = ff_crowd_init_profiles(run, &online, &prof, c->smooth, err)) == FF_OK) {
            if ((st = ff_crowd_plan_scatter(run, &rec, &tries, err)) == FF_OK &&
                (st = play_recorded(run, &rec, err)) == FF_OK &&
                !(again = ff_crowd_plan_try_again(&tries, run, &rec, run->over == FF_OVER_ARRIVED)) &&
                ff_crowd_plan_tries_best(&tries, &rec))
                st = ff_crowd_plan_make(c, run, &rec, tries.work, index, err);
            ff_crowd_free(run);
        }
        ff_profiles_free(&prof);
    }
    ff_crowd_plan_tries_free(&tries);
    free(run);
    free(online.agent);
    free(index);
    ff_crowd_plan_record_free(&rec);
    return st;
}

ff_status ff_crowd_step(ff_crowd *c, ff_error *err)
{
    long long t = ++c->tick;
    tick_moves m;
    double overlap = -1;
    ff_status st;

    memset(&m, 0, sizeof m);
    c->ndeadlocks = 0;
    if (t == 0 && ff_crowd_plan_applies(c) && (st = plan_before_moving(c, err)) != FF_OK)
        return st;
    if (c->profiles && (st = map_events(c, t, err)) != FF_OK)
        return st;
    st = c->scenario->move == FF_MOVE_GRID ? ff_gridmove_step(c, t, err) : steer_tick(c, t, &m, err);
    if (st != FF_OK)
        return st;
    /* The end of the tick: velocities, wall checks, arrivals, the next
     * hash; then the overlap measure, which reads only the hash. */
    st = m.by_hash ? end_by_hash(c, t, m.nunclear, &m.changed, err)
                   : end_by_index(c, t, &m.changed, &overlap, err);
    if (st != FF_OK)
        return st;
    if (overlap < 0)
        overlap = c->contacts_valid ? ff_contacts_largest_overlap_involved(c) : ff_contacts_largest_overlap(c);
    if (overlap > c->stats.max_overlap)
        c->stats.max_overlap = overlap;
    if (c->standoff && t > 0)
        ff_standoff_tick(c, t);
    if (m.changed) {
        c->hash_current = 0;
        c->live_dirty = 1;
    }
    return FF_OK;
}

void ff_crowd_moved(ff_crowd *c)
{
    c->hash_current = 0;  /* the next step builds it from the agents */
}
