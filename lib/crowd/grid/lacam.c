/* lacam.c - the complement of priority inheritance with backtracking for
 * cell-to-cell moves with reservations: when PIBT is livelocked (no
 * progress for a while), a complete search from the current configuration
 * plans every agent to its goal; its plan is then walked tick by tick, and
 * dropped when a spawn, a map event or a field change makes it stale (see
 * man 1 ffsim, "THE COMPLEMENT").
 *
 * The search is LaCAM (Okumura, "LaCAM: search-based algorithm for quick
 * multi-agent pathfinding", AAAI 2023): a depth-first search over
 * configurations (one cell per agent) whose successors PIBT generates
 * under constraints.  Each configuration carries a breadth-first tree of
 * constraints (agent k, the k-th in its order, goes to that cell), grown
 * one level each time it is visited; a visit takes the next constraint,
 * applies it and lets PIBT move the others.  As every joint move is some
 * leaf of that tree, every configuration reachable from the start is
 * generated in the end: the search finds a plan when there is one, and
 * when it runs out of configurations it has proved there is none.  The
 * moves are the crowd's: the steps the agent's profile allows, clear of
 * the walls on the way (the sweep), to cells with a way to its goal; no
 * two agents on one cell, no swap, no two diagonal steps through one grid
 * corner.  Its PIBT swaps agents head-on in corridors (see "the swap"
 * below).  With 'arrived leave' an agent that reaches its goal leaves:
 * in a configuration it keeps that cell, moves no more and holds no cell
 * (see gone), so a plan may bring agents to one goal cell in turn, and a
 * plan stays valid as agents leave before it says (a conflict is between
 * two agents: taking one away makes none).  Footprints wider than a cell are not handled: with such agents
 * the complement does not run (PIBT goes on alone).
 *
 * Bounded: at most LACAM_BYTES of memory and a quarter of LACAM_WORK
 * agent-visits of PIBT, twice as many after each search that gave up, up
 * to LACAM_WORK; past either it gives up (counted), and PIBT goes on.
 * Deterministic: the ties are broken by a hash, never by time.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "lacam.h"
#include "direction.h"
#include "prefsteps.h"
#include "prioorder.h"

#define LACAM_BYTES ((size_t)64 << 20)   /* the search's memory */
#define LACAM_WORK 20000000ULL           /* agent-visits of its PIBT */
#define LIVELOCK_TICKS 32                /* ticks without progress */
#define PIBT_DEPTH 4096                  /* pushes in one chain */
#define NONE UINT32_MAX

/* A constraint: agent who (an index into the configuration) goes to
 * cell where; its parent the constraints before it. */
typedef struct {
    uint32_t parent, who, where, depth, next;  /* next: in its node's queue */
} constraint;

/* A configuration reached, with its own tree of constraints (a queue). */
typedef struct {
    uint32_t parent;      /* node it was reached from; NONE for the start */
    uint32_t head, tail;  /* its queue of constraints; head NONE: empty */
} node;

struct ff_lacam {
    /* the plan walked: nsteps configurations of n agents */
    uint32_t *plan;
    size_t n, nsteps, step;
    uint32_t *plan_agent;  /* per agent of the plan: its agent index */
    long long map_tick;
    /* the livelock watch */
    size_t best_on;
    double best_cost;
    long long stall, patience;
    int proved;            /* the last search proved no plan exists */
    int force;             /* search at the next tick (a wait-for cycle) */
    int forced_in_vain;    /* such a search found nothing since the last
                              progress */
    unsigned long long work;  /* a search's largest bound: LACAM_WORK
                                 agent-visits (ff_lacam_set_work) */
    unsigned long long bound; /* the next search's: work / 4, doubled
                                 after each that gave up, up to work */
    long long gave_up;     /* the tick of the last search that gave up
                              (LLONG_MIN: none): none is asked for until
                              patience ticks after it */
    size_t last_n;         /* the agents and map the watch is of */
    long long watch_map_tick;
    /* per class: cached steps (bit 8: known; bits 0-7: the legal steps) */
    uint16_t **steps;
    size_t nclasses;
    long long steps_map_tick;
};

/* ---- the moves ---- */

/* The steps class cls may take from cell v, worked out (see
 * class_steps). */
static unsigned class_steps_make(ff_crowd *c, struct ff_lacam *L, int32_t cls, uint32_t v)
{
    const ff_grid *g = c->grid;
    const ff_profile *f = ff_profiles_of(c->profiles, cls);
    double r = c->scenario->cls[cls].radius;
    int x = (int)(v % (uint32_t)g->w), y = (int)(v / (uint32_t)g->w), d;
    unsigned m = 0;

    for (d = 0; d < 8; d++) {
        uint32_t to;
        if (ff_grid_open(&f->grid, v) ? !(f->step_mask[v] >> d & 1) : !ff_grid_step_ok(g, x, y, d))
            continue;
        to = (uint32_t)((y + ff_dir_dy[d]) * g->w + x + ff_dir_dx[d]);
        if (ff_grid_open(g, to) && ff_footprint_sweep_clear(&c->walls, v, to, r))
            m |= 1u << d;
    }
    L->steps[cls][v] = (uint16_t)(0x100 | m);
    return m;
}

/* The steps class cls may take from cell v (see moves_make), cached. */
static inline unsigned class_steps(ff_crowd *c, struct ff_lacam *L, int32_t cls, uint32_t v)
{
    unsigned s = L->steps[cls][v];
    return s & 0x100 ? s & 0xff : class_steps_make(c, L, cls, v);
}

/* The grid corner a diagonal step from a to b passes, or SIZE_MAX. */
static size_t corner_of(const ff_grid *g, uint32_t a, uint32_t b)
{
    uint32_t ax = a % (uint32_t)g->w, ay = a / (uint32_t)g->w;
    uint32_t bx = b % (uint32_t)g->w, by = b / (uint32_t)g->w;
    if (ax == bx || ay == by)
        return SIZE_MAX;
    return (size_t)(ay > by ? ay : by) * ((size_t)g->w + 1) + (ax > bx ? ax : bx);
}

static inline uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* ---- the search ---- */

/* A cell agent i may take from its cell (see lmoves). */
typedef struct {
    double cost;      /* its cost to goal */
    size_t corner;    /* the grid corner the step passes, or SIZE_MAX */
    uint32_t cell;
    uint32_t code;    /* its tie code: the direction, 8 for staying */
} lmove;

/* Agent i's cells from the cell it stands on: where it stays first, then
 * its legal steps in direction order, sorted by cost (a stable sort: the
 * order of equal costs is the tie hash's, drawn at each visit); but its
 * preferred next cell there, when it has one (prefsteps.h), before them
 * all, a cost of its own.  Kept per
 * agent for the last two cells it was asked at: an agent stands on a cell
 * in many configurations, and its moves there are the same in each (its
 * field is settled round the cell the first time). */
typedef struct {
    uint32_t cell;    /* NONE: not made yet */
    unsigned steps;   /* bit d: a legal step in direction d */
    int n;            /* moves */
    uint8_t end[9];   /* per move: one past the last of the same cost */
    lmove move[9];
} lmoves;

typedef struct {
    ff_crowd *c;
    struct ff_lacam *L;
    int32_t offset[8];     /* the cell offset of a step in each direction */
    const ff_grid *g;
    size_t n;               /* agents */
    const uint32_t *agent;  /* per agent: its crowd index */
    ff_cost_view *cost;     /* per agent: its cost to goal */
    /* the nodes: configurations, priorities, in arenas of n each */
    node *nodes;
    uint32_t *cfg;
    float *prio;
    size_t nnodes, cap_nodes;
    constraint *cons;
    size_t ncons, cap_cons;
    /* the closed set: configuration hash -> node */
    uint32_t *slot;
    size_t nslots;
    /* the successor generator's scratch */
    lmoves *moves;          /* per agent: two */
    uint8_t *moves_last;    /* per agent: the one it used last */
    uint32_t *now, *next, *order;
    uint32_t order_node;    /* the node s->order is of (NONE: none) */
    uint32_t *key, *order_tmp;  /* order_of's */
    uint32_t goal;          /* a node with every agent on its goal */
    int leave;              /* 'arrived leave': an agent on its goal is gone */
    uint32_t *occ_now, *occ_next, *stamp_now, *stamp_next, *corner;
    uint32_t stamp;
    size_t corner_step[8];  /* per direction: from a cell's corner to the
                               step's, or SIZE_MAX (a straight step) */
    unsigned long long work, iter;
    size_t bytes;
} search;

/* The closed set's hash of configuration q: a polynomial of its cells
 * (two a word), mixed at the end. */
static uint64_t cfg_hash(const uint32_t *q, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15u;
    size_t k;
    for (k = 0; k + 1 < n; k += 2)
        h = (h ^ ((uint64_t)q[k] | (uint64_t)q[k + 1] << 32)) * 0xff51afd7ed558ccdu;
    if (k < n)
        h = (h ^ q[k]) * 0xff51afd7ed558ccdu;
    return mix(h);
}

/* Memory for one more of an array: 0, or -1 past the budget. */
static int reserve(search *s, void **p, size_t *cap, size_t len, size_t size)
{
    size_t ncap = *cap;
    void *q;
    if (len < *cap)
        return 0;
    /* (what ff_grow takes for one more: the capacity doubled, 64 at first) */
    if (s->bytes + ((*cap ? 2 * *cap : 64) - *cap) * size > LACAM_BYTES)
        return -1;
    if (!(q = ff_grow(*p, &ncap, len + 1, size, 64)))
        return -1;
    s->bytes += (ncap - *cap) * size;
    *p = q;
    *cap = ncap;
    return 0;
}

static int new_constraint(search *s, uint32_t parent, uint32_t who, uint32_t where)
{
    constraint *m;
    if (reserve(s, (void **)&s->cons, &s->cap_cons, s->ncons, sizeof *s->cons) < 0)
        return -1;
    m = &s->cons[s->ncons];
    m->parent = parent;
    m->who = who;
    m->where = where;
    m->depth = parent == NONE ? 0 : s->cons[parent].depth + 1;
    m->next = NONE;
    s->ncons++;
    return 0;
}

static void enqueue(search *s, node *v, uint32_t m)
{
    if (v->head == NONE)
        v->head = m;
    else
        s->cons[v->tail].next = m;
    v->tail = m;
}

/* Find configuration q (its cfg_hash h) in the closed set: its node, or
 * NONE; *at the slot where it goes. */
static uint32_t closed_find(const search *s, const uint32_t *q, uint64_t h, size_t *at)
{
    size_t k = (size_t)h & (s->nslots - 1);
    while (s->slot[k] != NONE) {
        if (memcmp(&s->cfg[(size_t)s->slot[k] * s->n], q, s->n * sizeof *q) == 0)
            return s->slot[k];
        k = (k + 1) & (s->nslots - 1);
    }
    *at = k;
    return NONE;
}

static int closed_grow(search *s)
{
    size_t n = s->nslots ? 2 * s->nslots : 1024, k;
    uint32_t *slot;
    if (s->bytes + n * sizeof *slot > LACAM_BYTES || !(slot = malloc(n * sizeof *slot)))
        return -1;
    s->bytes += n * sizeof *slot;
    for (k = 0; k < n; k++)
        slot[k] = NONE;
    free(s->slot);
    s->slot = slot;
    s->nslots = n;
    for (k = 0; k < s->nnodes; k++) {
        const uint32_t *q = &s->cfg[k * s->n];
        size_t at = 0;
        closed_find(s, q, cfg_hash(q, s->n), &at);
        s->slot[at] = (uint32_t)k;
    }
    return 0;
}

/* The order of node v's agents in s->order (see prioorder.h): from its
 * parent's when s->order holds that (a node is first visited right after
 * its parent), else sorted from the order held (of a node near v).  Kept
 * for the next visit of v. */
static void order_of(search *s, uint32_t v)
{
    const float *p = &s->prio[(size_t)v * s->n];
    uint32_t held = s->order_node;

    if (held == v)
        return;
    s->order_node = v;
    if (held != NONE && s->nodes[v].parent == held && ff_prio_order_child(s->order, p, s->n, s->order_tmp, s->key))
        return;
    ff_prio_order(s->order, p, s->n, held != NONE, s->key, s->order_tmp);
}

/* Add configuration q (its cfg_hash h) reached from node parent: its
 * node, its priorities (as LaCAM's: grown by one a step away from the
 * goal, the fraction kept on it), its root constraint; s->goal when every
 * agent is on its goal; NONE when out of budget. */
static uint32_t add_node(search *s, const uint32_t *q, uint64_t h, uint32_t parent)
{
    size_t v = s->nnodes, k, at = 0;
    size_t capn = s->cap_nodes;
    int on_goals = 1;
    if (2 * (s->nnodes + 1) > s->nslots && closed_grow(s) < 0)
        return NONE;
    if (reserve(s, (void **)&s->nodes, &s->cap_nodes, v, sizeof *s->nodes) < 0)
        return NONE;
    if (s->cap_nodes != capn) {
        /* the arenas follow the node array */
        uint32_t *cfg;
        float *prio;
        size_t add = (s->cap_nodes - capn) * s->n;
        if (s->bytes + add * (sizeof *cfg + sizeof *prio) > LACAM_BYTES)
            return NONE;
        cfg = realloc(s->cfg, s->cap_nodes * s->n * sizeof *cfg);
        if (!cfg)
            return NONE;
        s->cfg = cfg;
        prio = realloc(s->prio, s->cap_nodes * s->n * sizeof *prio);
        if (!prio)
            return NONE;
        s->prio = prio;
        s->bytes += add * (sizeof *cfg + sizeof *prio);
    }
    memcpy(&s->cfg[v * s->n], q, s->n * sizeof *q);
    for (k = 0; k < s->n; k++) {
        float *p = &s->prio[v * s->n + k];
        double d = ff_cost_at(s->cost[k], q[k]);
        on_goals &= d == 0;
        if (parent == NONE)
            *p = (float)(d / (double)s->n);
        else if (d != 0)
            *p = s->prio[(size_t)parent * s->n + k] + 1;
        else
            *p = s->prio[(size_t)parent * s->n + k] - floorf(s->prio[(size_t)parent * s->n + k]);
    }
    s->nodes[v].parent = parent;
    s->nodes[v].head = s->nodes[v].tail = NONE;
    if (new_constraint(s, NONE, 0, 0) < 0)
        return NONE;
    enqueue(s, &s->nodes[v], (uint32_t)(s->ncons - 1));
    closed_find(s, q, h, &at);
    s->slot[at] = (uint32_t)v;
    s->nnodes++;
    if (on_goals)
        s->goal = (uint32_t)v;
    return (uint32_t)v;
}

/* 1 when agent k standing on cell has left the crowd ('arrived leave',
 * on its goal): it moves no more and holds no cell. */
static inline int gone(const search *s, uint32_t k, uint32_t cell)
{
    return s->leave && ff_cost_at(s->cost[k], cell) == 0;
}

static inline uint32_t who_now(const search *s, uint32_t cell)
{
    return s->stamp_now[cell] == s->stamp ? s->occ_now[cell] : NONE;
}

static inline uint32_t who_next(const search *s, uint32_t cell)
{
    return s->stamp_next[cell] == s->stamp ? s->occ_next[cell] : NONE;
}

static inline void take_next(search *s, uint32_t cell, uint32_t who)
{
    s->occ_next[cell] = who;
    s->stamp_next[cell] = s->stamp;
}

/* Agent i's moves from cell v into mv: the legal steps, as the crowd's
 * PIBT allows them (see pibt.c), to cells with a way to its goal (cost
 * finite).  The steps are its class's, cached.  An own goal's field is
 * settled at v and one step round it first: every cell the search reads
 * a cost of (a configuration's, a step's) is one of those, or a
 * request's. */
static void moves_make(search *s, uint32_t i, uint32_t v, lmoves *mv)
{
    ff_crowd *c = s->c;
    size_t a = s->agent[i];
    ff_cost_view cost = s->cost[i];
    /* (corner_of's: the corner at the larger x and y) */
    size_t corner = (size_t)(v / (uint32_t)s->g->w) * ((size_t)s->g->w + 1) + v % (uint32_t)s->g->w;
    unsigned m = class_steps(c, s->L, c->agent[a].cls, v);
    int n = 1, k, pref = 0;

    if (own_goal(c, a))
        ff_goalfields_settle_steps(&c->goals, c->profiles, c->agent_goal[a], c->grid, v);
    mv->cell = v;
    mv->steps = 0;
    mv->move[0].cell = v;
    mv->move[0].cost = ff_cost_at(cost, v);
    mv->move[0].corner = SIZE_MAX;
    mv->move[0].code = 8;
    for (; m; m &= m - 1) {  /* each put in its place by cost */
        int d = __builtin_ctz(m);
        uint32_t to = v + (uint32_t)s->offset[d];
        double t = ff_cost_at(cost, to);
        if (!(t < INFINITY))
            continue;
        for (k = n; k > 0 && t < mv->move[k - 1].cost; k--)
            mv->move[k] = mv->move[k - 1];
        mv->move[k].cell = to;
        mv->move[k].cost = t;
        mv->move[k].corner = s->corner_step[d] == SIZE_MAX ? SIZE_MAX : corner + s->corner_step[d];
        mv->move[k].code = (uint32_t)d;
        mv->steps |= 1u << d;
        n++;
    }
    mv->n = n;
    if (c->prefsteps) {
        /* A preferred next cell (a plan's scatter) first, alone in its
         * tie, as LaCAM3's PIBT has it (Okumura, AAMAS 2024). */
        uint32_t p = ff_prefsteps_next(c->prefsteps, a, v, NONE);
        for (k = 0; k < n && mv->move[k].cell != p; k++)
            ;
        if (k < n) {
            lmove t = mv->move[k];
            for (; k > 0; k--)
                mv->move[k] = mv->move[k - 1];
            mv->move[0] = t;
            pref = 1;
        }
    }
    mv->end[n - 1] = (uint8_t)n;
    for (k = n - 2; k >= 0; k--)
        mv->end[k] = mv->move[k].cost == mv->move[k + 1].cost && !(pref && k == 0) ? mv->end[k + 1] : (uint8_t)(k + 1);
}

/* Agent i's moves from cell v (see lmoves), made when neither of the
 * last two cells it was asked at is v (over the one used less lately). */
static inline const lmoves *moves_of(search *s, uint32_t i, uint32_t v)
{
    lmoves *mv = &s->moves[2 * (size_t)i];
    int k;
    if (mv[0].cell == v)
        k = 0;
    else if (mv[1].cell == v)
        k = 1;
    else {
        k = !s->moves_last[i];
        moves_make(s, i, v, &mv[k]);
    }
    s->moves_last[i] = (uint8_t)k;
    return &mv[k];
}

/* Agent i's moves mv from a to mv->end[a] (of one cost) in the order it
 * tries them at this visit, in at[a..]: by a hash of the agent, the visit
 * and the move.  (Drawn only for the moves it comes to.) */
static void order_ties(const search *s, uint32_t i, const lmoves *mv, int a, uint8_t *at)
{
    uint64_t tie[9];
    int b = mv->end[a], k, j;
    for (k = a; k < b; k++) {
        tie[k] = mix((uint64_t)i << 40 ^ s->iter << 4 ^ mv->move[k].code);
        at[k] = (uint8_t)k;
    }
    for (k = a + 1; k < b; k++) {
        uint8_t t = at[k];
        for (j = k; j > a && tie[t] < tie[at[j - 1]]; j--)
            at[j] = at[j - 1];
        at[j] = t;
    }
}

/* ---- the swap ----
 * Two agents head-on in a corridor never pass by PIBT alone: the one
 * pushed back goes a cell at a time and the other follows it, so neither
 * reaches the branch where they could.  The swap (after Okumura,
 * "Engineering LaCAM*", AAMAS 2024) has the agent that would push turn
 * round instead and pull the other one after it, into its own cell, up to
 * the branch.  It is asked for when the corridor ahead does not branch
 * before the pushed one would stop being in the way, and it is possible
 * when the corridor behind does branch.  Both walk the corridor on the
 * steps of the asking agent's class. */

#define SWAP_WALK 65536  /* cells a walk goes at most */

/* Agent k's cost at cell v, its own goal's field settled there. */
static inline double cost_of(search *s, uint32_t k, uint32_t v)
{
    ff_crowd *c = s->c;
    size_t a = s->agent[k];
    if (own_goal(c, a))
        ff_goalfields_settle(&c->goals, c->profiles, c->agent_goal[a], v);
    return ff_cost_at(s->cost[k], v);
}

/* The ways on from cell at, walked from cell from, for agent k's class:
 * its steps out of at, but not back to from nor into a dead end where an
 * agent stands on its goal; *on the last of them.  Their count. */
static int ways_on(search *s, uint32_t k, uint32_t at, uint32_t from, uint32_t *on)
{
    ff_crowd *c = s->c;
    int32_t cls = c->agent[s->agent[k]].cls;
    unsigned m;
    int n = 0;
    for (m = class_steps(c, s->L, cls, at); m; m &= m - 1) {
        uint32_t u = at + (uint32_t)s->offset[__builtin_ctz(m)], a;
        unsigned out;
        if (u == from)
            continue;
        out = class_steps(c, s->L, cls, u);
        if (out && !(out & (out - 1)) && (a = who_now(s, u)) != NONE && cost_of(s, a, u) == 0)
            continue;
        *on = u;
        n++;
    }
    return n;
}

/* 1 when puller must turn round for pusher: walking pusher on (from
 * pusher_at to puller_at, on while the corridor does not branch and
 * pusher gets nearer its goal), puller would still be in its way and
 * want the way back. */
static int swap_required(search *s, uint32_t walker, uint32_t pusher, uint32_t puller, uint32_t pusher_at,
                         uint32_t puller_at)
{
    uint32_t on = NONE;
    int n;
    size_t steps = 0;
    /* (pusher's costs at pusher_at and puller_at) */
    double here = cost_of(s, pusher, pusher_at), ahead = cost_of(s, pusher, puller_at);
    while (ahead < here && steps++ < SWAP_WALK) {
        n = ways_on(s, walker, puller_at, pusher_at, &on);
        if (n >= 2)
            return 0;  /* a branch: PIBT passes there */
        if (n <= 0)
            break;
        pusher_at = puller_at;
        puller_at = on;
        here = ahead;
        ahead = cost_of(s, pusher, puller_at);
    }
    return cost_of(s, puller, pusher_at) < cost_of(s, puller, puller_at) && (here == 0 || ahead < here);
}

/* 1 when the corridor from pusher_at through puller_at branches before it
 * ends (or comes back): there the pulled one can pass. */
static int swap_possible(search *s, uint32_t walker, uint32_t pusher_at, uint32_t puller_at)
{
    uint32_t from = pusher_at, at = puller_at, on = NONE;
    size_t steps = 0;
    while (at != pusher_at && steps++ < SWAP_WALK) {
        int n = ways_on(s, walker, at, from, &on);
        if (n >= 2)
            return 1;
        if (n <= 0)
            return 0;
        from = at;
        at = on;
    }
    return 0;
}

/* The agent agent i should pull after it, best its best cell, or NONE:
 * the one on best, head-on; or one beside it, when i itself would be in
 * that one's way. */
static uint32_t swap_partner(search *s, uint32_t i, uint32_t best)
{
    ff_crowd *c = s->c;
    uint32_t v = s->now[i], j;
    unsigned m;
    if (best == v)
        return NONE;
    j = who_now(s, best);
    if (j != NONE && s->next[j] == NONE && swap_required(s, i, i, j, v, best) && swap_possible(s, i, best, v))
        return j;
    for (m = class_steps(c, s->L, c->agent[s->agent[i]].cls, v); m; m &= m - 1) {
        uint32_t u = v + (uint32_t)s->offset[__builtin_ctz(m)];
        if (u == best || (j = who_now(s, u)) == NONE)
            continue;
        if (swap_required(s, i, j, i, v, best) && swap_possible(s, i, best, v))
            return j;
    }
    return NONE;
}

/* Pull agent j into cell v, left by agent i: when j is still free to
 * move, v still free, and the step is one j may take (no swap with i, no
 * crossing). */
static void pull(search *s, uint32_t j, uint32_t i, uint32_t v)
{
    uint32_t from = s->now[j];
    const lmoves *mv;
    size_t corner;
    int k;
    if (s->next[j] != NONE || who_next(s, v) != NONE || s->next[i] == from)
        return;
    mv = moves_of(s, j, from);
    for (k = 0; k < mv->n && mv->move[k].cell != v; k++)
        ;
    if (k == mv->n)
        return;  /* (not a move of j's) */
    corner = mv->move[k].corner;
    if (corner != SIZE_MAX) {
        if (s->corner[corner] == s->stamp)
            return;
        s->corner[corner] = s->stamp;
    }
    take_next(s, v, j);
    s->next[j] = v;
}

/* PIBT for agent i, pushed by parent (NONE at the top): 1 when it took a
 * cell. */
static int lpibt(search *s, uint32_t i, uint32_t parent, int depth)
{
    uint32_t v = s->now[i];
    const lmoves *mv = moves_of(s, i, v);
    uint8_t at[9];
    int k, ordered = mv->end[0], tied = ordered > 1, all = 0;
    uint32_t sw;

    s->work++;
    if (tied)
        order_ties(s, i, mv, 0, at);
    if ((sw = swap_partner(s, i, mv->move[tied ? at[0] : 0].cell)) != NONE) {
        /* turn round: the worst first (every cost's ties drawn) */
        if (!tied)
            at[0] = 0;
        for (k = ordered; k < mv->n; k = mv->end[k])
            if (mv->end[k] - k > 1)
                order_ties(s, i, mv, k, at);
            else
                at[k] = (uint8_t)k;
        for (k = 0; k < mv->n / 2; k++) {
            uint8_t t = at[k];
            at[k] = at[mv->n - 1 - k];
            at[mv->n - 1 - k] = t;
        }
        all = 1;
    }
    for (k = 0; k < mv->n; k++) {
        const lmove *t;
        uint32_t u, ak;
        size_t corner;
        if (k == ordered && !all) {  /* the next cost: its ties */
            ordered = mv->end[k];
            tied = ordered - k > 1;
            if (tied)
                order_ties(s, i, mv, k, at);
        }
        t = &mv->move[all || tied ? at[k] : k];
        u = t->cell;
        corner = t->corner;
        if (who_next(s, u) != NONE)
            continue;
        if (parent != NONE && u == s->now[parent])
            continue;
        ak = who_now(s, u);
        if (ak != NONE && ak != i && s->next[ak] == v)
            continue;  /* a swap with one decided */
        if (corner != SIZE_MAX && s->corner[corner] == s->stamp)
            continue;  /* a crossing */
        take_next(s, u, i);
        s->next[i] = u;
        if (corner != SIZE_MAX)
            s->corner[corner] = s->stamp;
        if (ak != NONE && ak != i && s->next[ak] == NONE &&
            (depth >= PIBT_DEPTH || !lpibt(s, ak, i, depth + 1))) {
            if (corner != SIZE_MAX)
                s->corner[corner] = 0;
            continue;
        }
        if (k == 0 && sw != NONE)
            pull(s, sw, i, v);
        return 1;
    }
    take_next(s, v, i);
    s->next[i] = v;
    return 0;
}

/* The successor of node v under constraint m, in s->next: 1, or 0 when
 * the constraint or PIBT fails. */
static int successor(search *s, uint32_t v, uint32_t m)
{
    const uint32_t *q = &s->cfg[(size_t)v * s->n];
    size_t k;

    if (++s->stamp == 0) {
        size_t cells = (size_t)s->g->w * (size_t)s->g->h;
        memset(s->stamp_now, 0, cells * sizeof *s->stamp_now);
        memset(s->stamp_next, 0, cells * sizeof *s->stamp_next);
        memset(s->corner, 0, ((size_t)s->g->w + 1) * ((size_t)s->g->h + 1) * sizeof *s->corner);
        s->stamp = 1;
    }
    for (k = 0; k < s->n; k++) {
        s->now[k] = q[k];
        if (gone(s, (uint32_t)k, q[k])) {
            s->next[k] = q[k];  /* (decided: lpibt passes it by) */
            continue;
        }
        s->next[k] = NONE;
        s->occ_now[q[k]] = (uint32_t)k;
        s->stamp_now[q[k]] = s->stamp;
    }
    for (; m != NONE && s->cons[m].depth > 0; m = s->cons[m].parent) {
        const constraint *x = &s->cons[m];
        uint32_t ak = who_now(s, x->where);
        size_t corner = corner_of(s->g, q[x->who], x->where);
        if (s->leave && gone(s, x->who, q[x->who])) {
            if (x->where != q[x->who])
                return 0;
            continue;  /* (it stays where it left: grow_tree's only one) */
        }
        if (who_next(s, x->where) != NONE)
            return 0;
        if (ak != NONE && ak != x->who && s->next[ak] == q[x->who])
            return 0;
        if (corner != SIZE_MAX) {
            if (s->corner[corner] == s->stamp)
                return 0;
            s->corner[corner] = s->stamp;
        }
        s->next[x->who] = x->where;
        take_next(s, x->where, x->who);
    }
    for (k = 0; k < s->n; k++) {
        uint32_t i = s->order[k];
        if (s->next[i] == NONE && !lpibt(s, i, NONE, 0))
            return 0;
    }
    return 1;
}

/* Grow node v's tree of constraints below m one level: the next agent in
 * its order to each cell it may take.  -1 out of budget. */
static int grow_tree(search *s, uint32_t v, uint32_t m)
{
    uint32_t depth = s->cons[m].depth, i, cell;
    unsigned steps;
    int d;
    if (depth >= s->n)
        return 0;
    i = s->order[depth];
    cell = s->cfg[(size_t)v * s->n + i];
    steps = gone(s, i, cell) ? 0 : moves_of(s, i, cell)->steps;
    if (new_constraint(s, m, i, cell) < 0)
        return -1;
    enqueue(s, &s->nodes[v], (uint32_t)(s->ncons - 1));
    for (d = 0; d < 8; d++)
        if (steps >> d & 1) {
            uint32_t to = cell + (uint32_t)s->offset[d];
            if (new_constraint(s, m, i, to) < 0)
                return -1;
            enqueue(s, &s->nodes[v], (uint32_t)(s->ncons - 1));
        }
    return 0;
}

static void search_free(search *s)
{
    free(s->nodes);
    free(s->cfg);
    free(s->prio);
    free(s->cons);
    free(s->slot);
    free(s->now);
    free(s->next);
    free(s->order);
    free(s->key);
    free(s->order_tmp);
    free(s->moves);
    free(s->moves_last);
    free(s->occ_now);
    free(s->occ_next);
    free(s->stamp_now);
    free(s->stamp_next);
    free(s->corner);
    free(s->cost);
    memset(s, 0, sizeof *s);  /* a second free is harmless */
}

/* The search from the requests' cells: 1 a plan (in L), 0 proved none,
 * -1 gave up (budget, memory). */
static int run_search(ff_crowd *c, struct ff_lacam *L, const ff_requests *rq, size_t n)
{
    const ff_grid *g = c->grid;
    size_t cells = (size_t)g->w * (size_t)g->h, k;
    search s;
    uint32_t *stack = NULL, start;
    size_t nstack = 0, cap_stack = 0;
    int result = -1;

    memset(&s, 0, sizeof s);
    s.c = c;
    s.L = L;
    s.g = g;
    s.n = n;
    s.agent = rq->agent;
    s.cost = malloc(n * sizeof *s.cost);
    s.now = malloc(n * sizeof *s.now);
    s.next = malloc(n * sizeof *s.next);
    s.order = malloc(n * sizeof *s.order);
    s.key = malloc(n * sizeof *s.key);
    s.order_tmp = malloc(n * sizeof *s.order_tmp);
    s.moves = malloc(2 * n * sizeof *s.moves);
    s.moves_last = calloc(n, sizeof *s.moves_last);
    s.order_node = s.goal = NONE;
    s.leave = !c->scenario->stay;
    for (k = 0; k < 8; k++)
        s.offset[k] = ff_dir_dy[k] * g->w + ff_dir_dx[k];
    for (k = 0; k < 8; k++)
        s.corner_step[k] = ff_dir_dx[k] && ff_dir_dy[k]
                               ? (size_t)(ff_dir_dy[k] > 0) * ((size_t)g->w + 1) + (ff_dir_dx[k] > 0)
                               : SIZE_MAX;
    s.occ_now = malloc(cells * sizeof *s.occ_now);
    s.occ_next = malloc(cells * sizeof *s.occ_next);
    s.stamp_now = calloc(cells, sizeof *s.stamp_now);
    s.stamp_next = calloc(cells, sizeof *s.stamp_next);
    s.corner = calloc(((size_t)g->w + 1) * ((size_t)g->h + 1), sizeof *s.corner);
    if (!s.cost || !s.now || !s.next || !s.order || !s.key || !s.order_tmp || !s.moves || !s.moves_last || !s.occ_now || !s.occ_next || !s.stamp_now ||
        !s.stamp_next || !s.corner)
        goto done;
    for (k = 0; k < n; k++) {
        s.cost[k] = ff_agent_cost(c, rq->agent[k]);
        s.now[k] = rq->req[k].cell;
        s.moves[2 * k].cell = s.moves[2 * k + 1].cell = NONE;
    }
    if ((start = add_node(&s, s.now, cfg_hash(s.now, n), NONE)) == NONE)
        goto done;
    if (reserve(&s, (void **)&stack, &cap_stack, nstack, sizeof *stack) < 0)
        goto done;
    stack[nstack++] = start;
    while (nstack > 0) {
        uint32_t v = stack[nstack - 1], m, w;
        uint64_t h;
        size_t at;
        if (s.work > L->bound)
            goto done;
        s.iter++;
        if (v == s.goal) {  /* (a node is visited first when it is made) */
            size_t len = 0;
            for (w = v; w != NONE; w = s.nodes[w].parent)
                len++;
            free(L->plan);
            free(L->plan_agent);
            L->plan = malloc(len * n * sizeof *L->plan);
            L->plan_agent = malloc(n * sizeof *L->plan_agent);
            if (!L->plan || !L->plan_agent)
                goto done;
            L->n = n;
            L->nsteps = len;
            L->step = 0;
            for (w = v; w != NONE; w = s.nodes[w].parent)
                memcpy(&L->plan[--len * n], &s.cfg[(size_t)w * n], n * sizeof *L->plan);
            memcpy(L->plan_agent, rq->agent, n * sizeof *L->plan_agent);
            result = 1;
            goto done;
        }
        m = s.nodes[v].head;
        if (m == NONE) {
            nstack--;  /* its every successor tried */
            continue;
        }
        s.nodes[v].head = s.cons[m].next;
        order_of(&s, v);
        if (grow_tree(&s, v, m) < 0)
            goto done;
        if (!successor(&s, v, m))
            continue;
        h = cfg_hash(s.next, n);
        w = closed_find(&s, s.next, h, &at);
        if (w == NONE && (w = add_node(&s, s.next, h, v)) == NONE)
            goto done;
        if (reserve(&s, (void **)&stack, &cap_stack, nstack, sizeof *stack) < 0)
            goto done;
        stack[nstack++] = w;
    }
    result = 0;  /* every configuration reachable tried: no plan */
done:
    c->stats.complement_nodes += s.nnodes;
    free(stack);
    search_free(&s);
    return result;
}

/* ---- the crowd's side ---- */

void ff_lacam_free(ff_crowd *c)
{
    struct ff_lacam *L = c->lacam;
    size_t k;
    if (!L)
        return;
    free(L->plan);
    free(L->plan_agent);
    for (k = 0; k < L->nclasses; k++)
        free(L->steps[k]);
    free(L->steps);
    free(L);
    c->lacam = NULL;
}

static void drop_plan(struct ff_lacam *L)
{
    free(L->plan);
    free(L->plan_agent);
    L->plan = L->plan_agent = NULL;
    L->nsteps = L->step = 0;
}

/* 1 when the complement may run on requests 0..n: everyone born and
 * present with a field, one cell each, nobody in a closed cell.  asked:
 * 1 before this tick's moves, when each request's cost view is its
 * agent's (ff_agent_cost); 0 after them (a heading may have changed).
 * With on (then sum too), the watch's measures in the same pass: how
 * many stand on their goals and the sum of their finite costs to them
 * (added in request order). */
static int applicable(const ff_crowd *c, const ff_requests *rq, size_t n, int asked, size_t *on, double *sum)
{
    size_t k, m = 0;
    double total = 0;
    if (!c->profiles || !c->scenario->reserve || c->next_spawn < c->nagents || n == 0)
        return 0;
    for (k = 0; k < n; k++) {
        const ff_reserve_request *q = &rq->req[k];
        ff_cost_view cost = asked ? q->cost : ff_agent_cost(c, rq->agent[k]);
        double d;
        if (q->half != 0 || !cost.cells || !ff_grid_open(c->grid, q->cell))
            return 0;
        if (!on)
            continue;
        d = ff_cost_at(cost, q->cell);
        m += d == 0;
        if (d < INFINITY)
            total += d;
    }
    if (on) {
        *on = m;
        *sum = total;
    }
    return 1;
}

/* The plan's next step for requests 0..n in rq->req[k].next: 1, or 0 (and
 * the plan dropped) when it does not fit where they stand.  With 'arrived
 * leave' the plan's agents that ask no more have left: the plan holds
 * without them. */
static int walk_plan(ff_crowd *c, struct ff_lacam *L, ff_requests *rq, size_t n)
{
    const uint32_t *q, *next;
    size_t k, j;
    if ((c->scenario->stay && L->n != n) || L->map_tick != c->profiles->map_tick ||
        L->step + 1 >= L->nsteps)
        goto stale;
    q = &L->plan[L->step * L->n];
    next = q + L->n;
    /* (both in ascending agent order: rq's as make_requests asks) */
    for (k = j = 0; k < n; k++, j++) {
        while (j < L->n && rq->agent[k] != L->plan_agent[j] && !c->scenario->stay)
            j++;
        if (j == L->n || rq->agent[k] != L->plan_agent[j] || rq->req[k].cell != q[j] ||
            !rq->req[k].cost.cells)
            goto stale;
    }
    for (k = j = 0; k < n; k++, j++) {
        while (rq->agent[k] != L->plan_agent[j])
            j++;
        rq->req[k].next = next[j];
    }
    L->step++;
    c->stats.complement_ticks++;
    return 1;
stale:
    drop_plan(L);
    return 0;
}

static struct ff_lacam *lacam_of(ff_crowd *c);

static int oom(ff_error *err)
{
    ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the complement");
    return -1;
}

static int cmp_u32(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a < b ? -1 : a > b;
}

/* 1 when two of requests 0..n have one own goal cell (whatever their
 * profiles): no configuration has both on it, and a search could only
 * prove it by trying them all, or give up; -1 out of memory. */
static int goal_shared(const ff_crowd *c, const ff_requests *rq, size_t n)
{
    uint32_t *goal = malloc((n ? n : 1) * sizeof *goal);
    size_t k, m = 0;
    int shared = 0;
    if (!goal)
        return -1;
    for (k = 0; k < n; k++)
        if (own_goal(c, rq->agent[k]))
            goal[m++] = c->goals.field[c->agent_goal[rq->agent[k]]].goal;
    qsort(goal, m, sizeof *goal, cmp_u32);
    for (k = 1; k < m && !shared; k++)
        shared = goal[k] == goal[k - 1];
    free(goal);
    return shared;
}

int ff_lacam_tick(ff_crowd *c, ff_requests *rq, size_t n, ff_error *err)
{
    struct ff_lacam *L = c->lacam;
    size_t k, on = 0;
    double sum = 0;
    int r;

    if (!applicable(c, rq, n, 1, &on, &sum))
        return 0;
    if (!L && !(L = lacam_of(c)))
        return oom(err);
    if (L->plan && walk_plan(c, L, rq, n))
        return 1;
    /* The watch: progress is more agents on their goals, or a lower sum
     * of the costs to them, than ever since the last change. */
    if (L->last_n != n || L->watch_map_tick != c->profiles->map_tick) {
        L->watch_map_tick = c->profiles->map_tick;
        L->best_on = 0;
        L->best_cost = INFINITY;
        L->stall = 0;
        L->patience = LIVELOCK_TICKS;
        L->bound = L->work / 4;
        L->gave_up = LLONG_MIN;
        L->proved = 0;
        L->last_n = n;
    }
    if (on > L->best_on || sum < L->best_cost) {
        L->best_on = on > L->best_on ? on : L->best_on;
        L->best_cost = sum < L->best_cost ? sum : L->best_cost;
        L->stall = 0;
        L->forced_in_vain = 0;
        if (!L->force)
            return 0;
    }
    if (L->force) {
        L->force = 0;
        L->forced_in_vain = 1;  /* unless it finds a plan */
    } else if (on == n || L->proved || ++L->stall < L->patience) {
        return 0;
    }
    /* Livelocked: search; but two agents that share a goal cell prove at
     * once that no plan brings every agent to its goal (when they stay:
     * when they leave, one after the other may). */
    L->stall = 0;
    if (c->scenario->stay && (r = goal_shared(c, rq, n)) != 0) {
        if (r < 0)
            return oom(err);
        L->proved = 1;
        return 0;
    }
    if (L->steps_map_tick != c->profiles->map_tick || L->nclasses != c->scenario->nclasses) {
        size_t cells = (size_t)c->grid->w * (size_t)c->grid->h;
        for (k = 0; k < L->nclasses; k++)
            free(L->steps[k]);
        free(L->steps);
        L->nclasses = 0;
        if (!(L->steps = calloc(c->scenario->nclasses, sizeof *L->steps)))
            return oom(err);
        L->nclasses = c->scenario->nclasses;
        for (k = 0; k < L->nclasses; k++)
            if (!(L->steps[k] = calloc(cells, sizeof *L->steps[k])))
                return oom(err);
        L->steps_map_tick = c->profiles->map_tick;
    }
    c->stats.complement_searches++;
    r = run_search(c, L, rq, n);
    if (ff_goalfields_status(&c->goals, err) != FF_OK)
        return -1;  /* (a field it settled stopped short) */
    if (r == 0) {
        L->proved = 1;
        return 0;
    }
    if (r < 0) {
        c->stats.complement_failures++;
        L->patience *= 2;  /* try again later, less often */
        L->gave_up = c->tick;
        L->bound = L->bound < L->work / 2 ? 2 * L->bound : L->work;
        return 0;
    }
    L->map_tick = c->profiles->map_tick;
    L->forced_in_vain = 0;
    return walk_plan(c, L, rq, n);
}

/* The crowd's state for the complement, made when first needed. */
static struct ff_lacam *lacam_of(ff_crowd *c)
{
    struct ff_lacam *L = c->lacam;
    if (L)
        return L;
    if (!(L = calloc(1, sizeof *L)))
        return NULL;
    c->lacam = L;
    L->best_cost = INFINITY;
    L->patience = LIVELOCK_TICKS;
    L->steps_map_tick = LLONG_MIN;
    L->watch_map_tick = LLONG_MIN;
    L->gave_up = LLONG_MIN;
    L->work = LACAM_WORK;
    L->bound = LACAM_WORK / 4;
    return L;
}

int ff_lacam_set_work(ff_crowd *c, unsigned long long work)
{
    struct ff_lacam *L = lacam_of(c);
    if (!L)
        return -1;
    L->work = work;
    L->bound = work / 4;
    return 0;
}

unsigned long long ff_lacam_bound(const ff_crowd *c)
{
    return c->lacam ? c->lacam->bound : LACAM_WORK / 4;
}

int ff_lacam_defer(ff_crowd *c, const ff_requests *rq, size_t n)
{
    struct ff_lacam *L;
    if (!applicable(c, rq, n, 0, NULL, NULL) || !(L = lacam_of(c)) || L->proved || L->forced_in_vain || L->plan ||
        (L->gave_up != LLONG_MIN && c->tick - L->gave_up < L->patience))
        return 0;
    L->force = 1;
    return 1;
}

int ff_lacam_proved(const ff_crowd *c)
{
    return c->lacam && c->lacam->proved;
}
