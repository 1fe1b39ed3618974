/* crowdint.h - the state the crowd's parts share, for lib/crowd's own use
 * (not installed): the agents and their plans, the crowd (struct
 * ff_crowd: the scenario, the map and walls, the fields the agents
 * follow, the spatial hash, the contacts, the run's counters, and a
 * pointer to each part's own state), the agents' helpers (cells, the
 * directions and goals they follow, bucket boxes), and the entry points
 * of core/'s modules: agentview.c (an agent's view of its fields),
 * arrival.c and ownpath.c.
 *
 * It sits below every part that reads the crowd: steer/ (steer.h,
 * contact.h) and grid/ (gridmove.h, pibt.h, lacam.h) include it, and the
 * top of lib/crowd (crowd.c the set-up, the tick and freeing; crowdout.c
 * the trace and summary; crowdview.c, runend.c, crowdcheck.c) uses them
 * all.  It includes no part's header: a part's state is its own struct,
 * which the crowd only points to.
 */
#ifndef FF_CROWDINT_H
#define FF_CROWDINT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "congestion.h"
#include "crowdstate.h"
#include "footprint.h"
#include "goalchange.h"
#include "goalfield.h"
#include "goalgroup.h"
#include "profiles.h"
#include "sample.h"
#include "spatialhash.h"
#include "turn.h"
#include "walls.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An agent as the parts keep it (crowd.h's ff_agent_view is what a
 * caller reads of it). */
typedef struct {
    double x, y;          /* position, world units */
    double vx, vy;        /* velocity over the last tick: its whole
                             displacement (move and overlap correction)
                             over the tick length, world units/second */
    double x0, y0;        /* position at the start of the tick */
    double hx, hy;        /* heading, a unit vector (+x east, +y south) */
    uint32_t id;
    int32_t cls;          /* index into the scenario's classes */
    int32_t state;        /* ff_agent_state */
    uint8_t own_path;     /* 1 when it may hold an own path (its plan); kept
                             here, in the padding, so that the common step
                             never touches the plans */
    uint8_t clear;        /* 1 when this tick's move ended no nearer than
                             the radius to any wall, as its slide found
                             (cell to cell: as its open cell shows); set
                             by the step, used and reset at the end of
                             the tick */
    uint8_t jammed;       /* steering: 1 while reported stuck */
    int32_t progress_tick;/* steering: the tick it reached best_cost; -1:
                             its clock stopped.  This and jammed and
                             best_cost are standoff.c's alone, kept here
                             where the step has the agent in cache */
    double best_cost;     /* steering: its lowest cost to goal since */
    long long spawn_tick;
    long long arrival_tick; /* -1 until it arrives */
} ff_agent;

/* One agent's own path and waiting (cell-to-cell moves, fallbacks). */
typedef struct {
    uint32_t *path;       /* cells to walk, malloc'ed; NULL for none */
    uint32_t len, pos;    /* path[pos] is the next cell */
    uint32_t from;        /* the cell the agent was on at path[pos - 1] */
    long long map_tick;   /* the map it was planned on */
    long long waited;     /* ticks refused in a row */
    long long still;      /* ticks in a row it has not moved (cell-to-cell
                             moves) */
    long long away;       /* ticks since it last stood arrived on its goal
                             (the grant order with reservations) */
    double start_cost;    /* its field's cost to goal where it entered
                             (the grant order's next key); -1: no way */
    int no_way;           /* 1: its last own-path search found nothing */
    uint8_t sweep_blocked;/* cell-to-cell moves: 1 when its field's step of
                             this tick would sweep its disk over a wall */
    uint8_t sweep_stuck;  /* 1: after such waits no own path led round
                             the walls from where it stands (on the map of
                             map_tick): stuck until the map changes */
    uint8_t reported;     /* 1: in a deadlock reported since it last moved */
} ff_agent_plan;

struct ff_crowd {
    const ff_scenario *scenario;
    const ff_grid *grid;       /* the map of the walls (the current one) */
    const uint8_t *direction;  /* w*h codes of the field followed, when
                                  there are no profiles */
    const float *vectors;      /* NULL, or w*h unit vectors (an any-angle
                                  field's) that follow steers by instead
                                  of the codes; borrowed */
    ff_profiles *profiles;     /* borrowed, or NULL: the fields by class */
    ff_congestion congestion;  /* with 'congestion on' and profiles: the
                                  congestion fields the classes follow
                                  (crowd.c refreshes them) */
    int congested;             /* 1 when congestion is set up */
    ff_goal_groups goal_groups; /* every class's goal cells in groups */
    size_t *group_arrived;     /* per goal group: the agents that arrived
                                  at one of its cells (the nearest) */
    int smooth;                /* follow the smoothed (1) or raw (0) field */
    int pow2_cell;             /* 1: the cell size is a power of two, so
                                  (v - origin) * (1 / cell) is exact */
    ff_walls walls;
    uint8_t *goal;             /* w*h: 1 on goal cells */
    ff_agent *agent;           /* the scenario's agents, ascending id */
    size_t nagents;
    double *turn_cos, *turn_sin; /* per class: the largest turn of a tick */
    double *slide_far_k;       /* per class: near-wall entries above this
                                  need no slide (steer.c) */
    double *cand_reach;        /* per class: the reach of its contact
                                  candidates (contact.c) */
    double bucket_size;        /* of the spatial hash, world units */
    double max_radius;
    ff_shash hash;             /* present agents at their positions after
                                  the last resolution (or the last build) */
    int hash_current;          /* 1 when hash holds the present agents */
    ff_shash_entry *points;    /* scratch for building the hash */
    uint32_t *live;            /* indices of the present agents, ascending */
    size_t nlive;
    int live_dirty;            /* 1 when live must be gathered again */
    uint32_t *spawn_order;     /* agent indices by spawn tick, then index */
    size_t next_spawn;         /* spawn_order[next_spawn..] are unborn */
    uint32_t *contact;         /* pairs of agent indices that may touch */
    size_t ncontacts, cap_contacts;
    uint8_t *involved;         /* per agent: 1 when in a contact pair */
    uint32_t *involved_list;   /* those agents, in the order found */
    uint32_t *entry_of;        /* per involved agent: its entry in the
                                  start-of-tick hash (contact.c) */
    uint32_t *unclear;         /* entries whose moves did not end clear of
                                  the walls (crowd.c) */
    size_t ninvolved;
    int contacts_valid;        /* 1 when this tick's contacts were found */
    uint64_t *contact_key;     /* per contact: its place in the order of
                                  ff_contacts_find (two words, contact.c) */
    uint32_t *cand;            /* pairs of hash entries that may touch
                                  after the moves (contact.c) */
    size_t ncand, cap_cand;
    int cand_failed;           /* 1: no memory for more candidates */
    double max_move;           /* the fastest class's speed times the tick */
    int candidates_ok;         /* 1 when every class's candidate reach is
                                  within a bucket (contact.c) */
    int fresh_contacts;        /* 1: find the contacts afresh every tick,
                                  never from the candidates (the same
                                  pairs in the same order, slower: a check
                                  for tests); 0 after init */
    unsigned long long candidate_ticks; /* ticks whose contacts came from
                                  the candidates */
    size_t end_by_hash_min;    /* such ticks end in the hash's order from
                                  this many agents on (32768 after init;
                                  the same results either way) */
    long long tick;            /* the last tick done; -1 before tick 0 */
    ff_crowd_stats stats;
    ff_agent_plan *plan;       /* per agent */
    /* own goals ('agent ... goal', 'spawn ... scen') */
    ff_goalfields goals;       /* their fields */
    uint32_t *agent_goal;      /* per agent: its goal field, or
                                  FF_GOALFIELD_NONE; NULL when no agent
                                  has an own goal, nor a change of one */
    /* goal changes ('at T goal', goalevents.c) */
    ff_goalchanges goalchanges; /* classes': their fields' cache */
    size_t next_goal_event;    /* the scenario's goal events before it
                                  are applied */
    unsigned long long own_goal_changes; /* agents' goal changes */
    unsigned long long own_goal_hits;    /* of those, to a field built
                                  for the published profile already */
    /* The parts' own state, each changed only by its file: cell-to-cell
       moves ('move grid': the requests, waits and cycles, gridmove.c),
       with reservations priority inheritance (pibt.c) and its complement
       (lacam.c, made when first needed); NULL when not in use.  The grid
       moves make and free the other two: they call them. */
    struct ff_gridmove *gridmove;
    struct ff_pibt *pibt;
    /* deadlocks found at the last tick: cycle k holds the ids
       deadlock_id[deadlock_start[k] .. deadlock_start[k + 1]) */
    uint32_t *deadlock_id;
    size_t *deadlock_start;
    size_t ndeadlocks;
    size_t on_goal;            /* agents standing arrived on their goals
                                  (or gone from them) */
    struct ff_lacam *lacam;
    struct ff_planwalk *planwalk; /* a MAPF plan being walked (planwalk.c,
                                  made by crowdplan.c); NULL when none */
    struct ff_prefsteps *prefsteps; /* preferred next cells (prefsteps.c:
                                  a plan's scatter, given by crowdplan.c
                                  to the crowd of its first plan); NULL
                                  when none */
    struct ff_standoff *standoff; /* steering: progress and standoffs
                                  (standoff.c); NULL with grid moves */
    struct ff_angular *angular; /* steering: the turn rates of steered
                                  headings (angular.c); NULL when no class
                                  has an angular behaviour */
    long long makespan;        /* first tick with every agent on its goal;
                                  -1 before */
    int over;                  /* FF_OVER_*: why nothing can change any
                                  more after the last tick (0: it can) */
    /* at the start: agents whose class's field gives no way to a goal */
    size_t *class_unreachable; /* per class: how many */
    uint32_t *class_first_unreachable; /* per class: the lowest such id */
    size_t unreachable;
    /* per class: the goal cells' bounding box x0 y0 x1 y1 (x1 < x0 when
       there is none), so that the arrival test need not read the goal
       mask far from every goal */
    long long *goal_box;
    double *goal_world;        /* per class: the goal box widened by a
                                  cell, world units (x0, y0, x1, y1) */
};

/* Set up crowd c (its memory the caller's, as ff_crowd_new's) and free
 * what it holds: for tests and ff_crowd_new. */
ff_status ff_crowd_init(ff_crowd *c, const ff_scenario *s, const ff_grid *g,
                        const uint8_t *dir, int smooth, ff_error *err);
ff_status ff_crowd_init_profiles(ff_crowd *c, const ff_scenario *s, ff_profiles *p, int smooth,
                                 ff_error *err);
void ff_crowd_free(ff_crowd *c);

/* Tell the crowd that the caller moved agents (their x, y) since the last
 * step: the next step then finds their neighbours, cells and contacts
 * where they are now (tests move agents by hand).  A move from outside
 * without this call leaves the next step working from where they stood. */
void ff_crowd_moved(ff_crowd *c);

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



/* ---- agentview.c ---- */

/* Agent a's heading at the start: heading_deg (degrees, +x east, +y
 * south) when a number, else its field's smoothed direction where it
 * stands (east where there is none). */
void ff_agent_initial_heading(const ff_crowd *c, ff_agent *a, double heading_deg);

/* Agent i enters: its own goal's field built when it is not yet, its
 * heading from it when the scenario gives none, and counted unreachable
 * when it has no way from where it stands.  FF_ENOMEM. */
ff_status ff_agent_enter(ff_crowd *c, size_t i, ff_error *err);

/* The cost to goal agent i's moves are chosen by (its own goal's field,
 * its congestion field's or its profile's); no cells while stale.  Taken
 * again after a field is built or a profile publishes (its arrays move). */
ff_cost_view ff_agent_cost(const ff_crowd *c, size_t i);
/* The same for agent i following directions dir (agent_dir_of's). */
static inline ff_cost_view ff_agent_cost_dir(const ff_crowd *c, size_t i, const uint8_t *dir)
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

/* ---- arrival.c ---- */

/* Each of the nclasses classes' goal cells' bounding box (c->goal_box)
 * and the box widened by a cell in world units (c->goal_world), at the
 * start. */
void ff_goal_boxes_init(ff_crowd *c, size_t nclasses);
/* Class cls's boxes after a goal change: its n goal cells. */
void ff_goal_box_cells(ff_crowd *c, int32_t cls, const uint32_t *cells, size_t n);
/* 1 when (x, y) is within the arrival distance of the center of one of
 * class cls's goal cells (ff_agent_at_goal has found it near their box). */
int ff_class_at_goal(const ff_crowd *c, int32_t cls, double x, double y);
/* 1 when agent i of class cls at (x, y) is within the arrival distance
 * of its own goal cell's center, or of one of its class's: decided here
 * for an agent far outside its class's goal box (by a cell more than the
 * range ff_class_at_goal scans, so rounding cannot matter), as most are
 * at most ticks. */
static inline int ff_agent_at_goal(const ff_crowd *c, size_t i, int32_t cls, double x, double y)
{
    const double *world_box = &c->goal_world[4 * cls];
    double r = c->scenario->arrive;

    if (own_goal(c, i)) {
        uint32_t goal = c->goals.field[c->agent_goal[i]].goal;
        double dx = cell_center_x(c->grid, goal) - x, dy = cell_center_y(c->grid, goal) - y;
        return dx * dx + dy * dy <= r * r;
    }
    if (x + r < world_box[0] || x - r > world_box[2] || y + r < world_box[1] || y - r > world_box[3])
        return 0;
    return ff_class_at_goal(c, cls, x, y);
}
/* Agent i arrives at tick t: counted (on its goal, its goal group), and
 * it stays as an obstacle or leaves (then *changed is set). */
void ff_agent_arrive(ff_crowd *c, size_t i, long long t, int *changed);

/* ---- goalevents.c ---- */

/* Apply the scenario's goal changes of tick t (after the map events'):
 * a class's through its profile (goalchange.h), its goal box and its
 * agents that stood arrived where no goal is now (they go on); an
 * agent's: its own goal's field found (made when needed, as on
 * entering), and it goes on if it stood arrived.  When a goal change's
 * field is published at t, what was planned on the old one is stale
 * from then (ff_profiles_fields_changed).  FF_ENOMEM. */
ff_status ff_crowd_goal_events(ff_crowd *c, long long t, ff_error *err);

/* ---- ownpath.c ---- */

/* Forget the own path pl. */
void ff_ownpath_drop(ff_agent_plan *pl);
/* Plan agent index's own path from cell to its own goal or its
 * profile's goals, avoiding the cells marked in avoid (or none); for a
 * grid move's footprint fp (NULL: none) its footprint's cells too, and
 * every step whose sweep touches a wall: 1 found, 0 no way, -1 out of
 * memory. */
int ff_ownpath_plan(ff_crowd *c, size_t index, uint32_t cell, const uint8_t *avoid, const ff_footprint *fp);
/* The next cell of index's own path from cell (planned when needed, for
 * footprint fp as ff_ownpath_plan): 1 and *next, or 0. */
int ff_ownpath_next(ff_crowd *c, size_t index, uint32_t cell, const ff_footprint *fp, uint32_t *next);

#ifdef __cplusplus
}
#endif

#endif
