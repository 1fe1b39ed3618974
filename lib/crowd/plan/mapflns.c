/* mapflns.c - large-neighbourhood search over a multi-agent plan; see
 * mapflns.h and man 1 ffsim ("PLANS").
 *
 * The others' paths are held cell by cell as intervals of ticks (an agent
 * standing on a cell from t0 to t1; to the end of time on its goal), so
 * that a search asks a cell, not a tick, and a wait costs nothing to hold.
 * A neighbourhood (Li et al. 2021) is one of: the agents met by a random
 * walk along a shorter way of the agent the most delayed (agent-based),
 * the agents that pass the cells nearest a random crossing of the map
 * (map-based), agents at random, or the agent the most delayed and those
 * that stand on its goal after it could have arrived (goal blockers);
 * which one is drawn by weights that follow the cost each has saved
 * (adaptive LNS, reaction 0.01).  Its agents are planned again by
 * safe-interval path planning (each wait or step one tick), in a random
 * order (the goal blockers' in theirs: the delayed agent first), round
 * the paths of the others and of those already planned again, and kept
 * when their sum of costs is lower.  Before the first neighbourhood,
 * every agent is planned afresh so (prioritised planning), and that plan
 * kept when it costs less.
 */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "mapflns.h"
#include "placement.h"

#define NEIGHBOURHOOD 8        /* agents a neighbourhood takes (Li et al.) */
#define REACTION 0.01          /* adaptive LNS: how fast weights follow */
#define WEIGHT_MIN 0.001        /* no way of choosing is dropped for good */
#define PLAN_ROUNDS 8          /* prioritised planning's rounds at most */
#define SEARCH_BOUND 20000     /* expansions one search may take at most */
#define FOREVER INT32_MAX
#define H_UNASKED (-2)         /* (the heuristic gives -1 or more) */
#define SEEN_NONE INT32_MIN

typedef struct {
    int32_t t0, t1;            /* ticks it stands there, t1 FOREVER */
    uint32_t agent;
} interval;

typedef struct {
    interval *e;
    uint32_t n, cap;
} cell_list;

typedef struct {
    uint32_t cell;
    int32_t t;                 /* the tick it is reached at */
    int32_t from, until;       /* its safe interval there */
    int32_t f;                 /* its cost at least: t + h, and no less
                                  than the tick its goal is free for good */
    int32_t h;                 /* the steps left at least */
    uint32_t parent;
    uint32_t seen;             /* its state's entry in seen_t */
} node;

/* An entry of the open heap: its node's order (f, then h, then t) kept
 * beside it, so that a comparison reads the heap alone. */
typedef struct {
    uint64_t fh;               /* f << 32 | h: both >= 0 */
    int32_t t;
    uint32_t node;
} open_entry;

/* What a search has seen of a cell, valid when stamp is the search's.
 * Its states are its safe intervals, each the gap before one of the
 * intervals held there (k, 0 .. n - 1) or after the last (n): the n + 1
 * entries of seen_t from base are the best ticks they were reached at. */
typedef struct {
    uint32_t stamp;
    uint32_t base;
    int32_t h;                 /* the heuristic there, H_UNASKED before asked */
    uint32_t hint;             /* the interval safe_intervals began at last */
} cell_seen;

typedef struct {
    ff_mapf_plan *pl;
    size_t cells;
    int32_t w;
    uint8_t *open4;            /* per cell: bit d, the step toward d is legal */
    int64_t off4[4];           /* the offsets of those neighbours */
    cell_list *at;             /* per cell: the intervals held there */
    /* the search's pool, open heap and seen states (reused) */
    node *node;
    open_entry *heap;
    size_t nnode, nheap, cap_node;
    cell_seen *cs;
    int32_t *seen_t;           /* SEEN_NONE: a state not seen yet */
    size_t used_t, cap_t;      /* of seen_t: taken this search, allocated */
    size_t nintervals;         /* held on every cell (bounds used_t) */
    size_t nseen, cap_seen;    /* states seen this search; at most */
    uint32_t stamp;
    interval *safe;            /* a cell's safe intervals (safe_intervals) */
    size_t cap_safe;
    /* neighbourhoods */
    uint32_t *group;
    size_t ngroup;
    uint8_t *in_group;
    uint8_t *tabu;
    uint32_t *first;           /* prioritised planning: the agents first */
    uint32_t *crossing;        /* cells with 3 open neighbours or more */
    size_t ncrossing;
    uint32_t *queue;           /* a breadth-first walk's cells */
    uint8_t *queued;
    uint32_t **old_path;
    size_t *old_len;
    uint64_t rng;
    unsigned long long expansions;
    int64_t limit;             /* the search's bound on its cost */
    int64_t stay;              /* the tick its goal is free from for good */
} lns;

static const int dx4[4] = { 0, 1, 0, -1 }, dy4[4] = { -1, 0, 1, 0 };

static uint32_t draw(lns *L, size_t n)
{
    return (uint32_t)(ff_splitmix64(&L->rng) % (n ? n : 1));
}

/* Agent a's cell at tick t (on its goal after its path). */
static inline uint32_t at_tick(const ff_mapf_plan *pl, uint32_t a, int32_t t)
{
    return pl->path[a][(size_t)t < pl->len[a] ? (size_t)t : pl->len[a] - 1];
}

/* The open neighbour of cell in direction d, or UINT32_MAX. */
static inline uint32_t neighbour(const lns *L, uint32_t cell, int d)
{
    return L->open4[cell] >> d & 1u ? (uint32_t)((int64_t)cell + L->off4[d]) : UINT32_MAX;
}

/* ---- the intervals ---- */

/* The first of the intervals held on c that ends at tick t or later (c->n
 * when none): they are in order of t0 and never overlap (the plan keeps
 * the rules), so in order of t1 too.  A binary search without branches
 * on the data (Khuong and Morin 2017, "Array layouts for
 * comparison-based searching"): the lists are short and the branches
 * would be mispredicted half the time. */
static inline uint32_t first_ending(const cell_list *c, int64_t t)
{
    const interval *base = c->e;
    uint32_t n = c->n;
    if (n == 0)
        return 0;
    while (n > 1) {
        uint32_t half = n / 2;
        base = base[half].t1 < t ? base + half : base;
        n -= half;
    }
    return (uint32_t)(base - c->e) + (base->t1 < t);
}

static int add_interval(lns *L, uint32_t cell, int32_t t0, int32_t t1, uint32_t a)
{
    cell_list *c = &L->at[cell];
    uint32_t at;
    if (c->n == c->cap) {
        size_t cap = c->cap;
        interval *e = ff_grow(c->e, &cap, (size_t)c->n + 1, sizeof *e, 4);
        if (!e)
            return -1;
        c->e = e;
        c->cap = (uint32_t)cap;
    }
    /* (kept in order of t0: after the last that begins at t0 or before,
     * found by binary search when the new one meets none) */
    at = first_ending(c, t0);
    if ((at > 0 && c->e[at - 1].t0 > t0) || (at < c->n && c->e[at].t0 <= t0))
        for (at = c->n; at > 0 && c->e[at - 1].t0 > t0; at--)
            ;
    memmove(&c->e[at + 1], &c->e[at], (c->n - at) * sizeof *c->e);
    c->e[at] = (interval){ t0, t1, a };
    c->n++;
    L->nintervals++;
    return 0;
}

static void drop_interval(lns *L, uint32_t cell, int32_t t0, uint32_t a)
{
    cell_list *c = &L->at[cell];
    uint32_t k = first_ending(c, t0);  /* (the one held at t0, as a rule) */
    if (k == c->n || c->e[k].agent != a || c->e[k].t0 != t0)
        k = 0;
    for (; k < c->n; k++)
        if (c->e[k].agent == a && c->e[k].t0 == t0) {
            memmove(&c->e[k], &c->e[k + 1], (c->n - k - 1) * sizeof *c->e);
            c->n--;
            L->nintervals--;
            return;
        }
}

/* Hold (add 1) or free (add 0) agent a's path p of len cells: a run on
 * one cell is an interval, the last to the end of time.  -1 out of
 * memory (what was held stays held: the caller frees it again). */
static int hold_path(lns *L, uint32_t a, const uint32_t *p, size_t len, int add)
{
    size_t t0 = 0, t;
    for (t = 1; t <= len; t++)
        if (t == len || p[t] != p[t0]) {
            if (!add)
                drop_interval(L, p[t0], (int32_t)t0, a);
            else if (add_interval(L, p[t0], (int32_t)t0, t == len ? FOREVER : (int32_t)t - 1, a) < 0)
                return -1;
            t0 = t;
        }
    return 0;
}

/* 1 when another agent than a steps from cell to from at t - 1 -> t
 * (while a steps from -> cell: a swap).  Its stay on cell ends at t - 1:
 * the intervals held there are in order of t0 and never overlap, so a
 * binary search finds the one that holds t - 1, the only one to ask. */
static int swapped(const lns *L, uint32_t a, uint32_t from, uint32_t cell, int64_t t)
{
    const cell_list *c = &L->at[cell];
    uint32_t k = first_ending(c, t - 1);
    const interval *e;
    if (k == c->n)
        return 0;
    e = &c->e[k];
    return e->agent != a && e->t0 <= t - 1 && e->t1 == t - 1 && at_tick(L->pl, e->agent, (int32_t)t) == from;
}

/* What this search has seen of cell: made afresh at its first look
 * (seen_t has room: search makes it). */
static inline cell_seen *seen_cell(lns *L, uint32_t cell)
{
    cell_seen *cs = &L->cs[cell];
    if (cs->stamp != L->stamp) {
        uint32_t k, n = L->at[cell].n;
        *cs = (cell_seen){ L->stamp, (uint32_t)L->used_t, H_UNASKED, 0 };
        for (k = 0; k <= n; k++)
            L->seen_t[L->used_t++] = SEEN_NONE;
    }
    return cs;
}

/* The safe intervals of cell (Phillips and Likhachev 2011) that meet
 * the ticks [lo, hi]: those no agent held stands there, in order, into
 * L->safe (each with the index of its gap in agent: see cell_seen);
 * their number, or -1 out of memory. */
static long safe_intervals(lns *L, uint32_t cell, int64_t lo, int64_t hi)
{
    const cell_list *c = &L->at[cell];
    cell_seen *cs;
    uint32_t k;
    int64_t from;
    long n = 0;

    if (c->n + 1 > L->cap_safe) {
        interval *more = ff_grow(L->safe, &L->cap_safe, (size_t)c->n + 1, sizeof *more, 8);
        if (!more)
            return -1;
        L->safe = more;
    }
    /* (the search asks a cell again and again at ticks near the last:
     * there or at the next interval, found without a search) */
    cs = seen_cell(L, cell);
    k = cs->hint;
    if (!(k <= c->n && (k == c->n || c->e[k].t1 >= lo) && (k == 0 || c->e[k - 1].t1 < lo))) {
        if (k < c->n && c->e[k].t1 < lo && (k + 1 == c->n || c->e[k + 1].t1 >= lo))
            k++;
        else
            k = first_ending(c, lo);
    }
    cs->hint = k;
    from = k > 0 ? (int64_t)c->e[k - 1].t1 + 1 : 0;
    for (; k < c->n && from <= hi; k++) {
        const interval *e = &c->e[k];
        if (e->t0 > from)
            L->safe[n++] = (interval){ (int32_t)from, e->t0 - 1, k };
        from = e->t1 == FOREVER ? FOREVER : (int64_t)e->t1 + 1;
    }
    if (from <= hi && from < FOREVER)
        L->safe[n++] = (interval){ (int32_t)from, FOREVER, k };
    return n;
}

/* ---- safe-interval path planning ---- */

static inline int before(const open_entry *a, const open_entry *b)
{
    /* (f, then nearer its goal, then deeper) */
    return a->fh != b->fh ? a->fh < b->fh : a->t > b->t;
}

static void heap_push(lns *L, uint32_t v)
{
    const node *n = &L->node[v];
    open_entry e = { (uint64_t)(uint32_t)n->f << 32 | (uint32_t)n->h, n->t, v };
    size_t k = L->nheap++;
    while (k > 0) {
        size_t up = (k - 1) / 2;
        if (!before(&e, &L->heap[up]))
            break;
        L->heap[k] = L->heap[up];
        k = up;
    }
    L->heap[k] = e;
}

static uint32_t heap_pop(lns *L)
{
    uint32_t top = L->heap[0].node;
    open_entry v = L->heap[--L->nheap];
    size_t k = 0, n = L->nheap;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&L->heap[c + 1], &L->heap[c]))
            c++;
        if (!before(&L->heap[c], &v))
            break;
        L->heap[k] = L->heap[c];
        k = c;
    }
    if (n)
        L->heap[k] = v;
    return top;
}

/* The best tick a state (cell, its safe interval: the gap gap) was
 * reached at in this search, INT32_MAX when never; *slot its entry in
 * seen_t (SIZE_MAX when cap_seen states are seen already: then the state
 * is not offered, as past the pool's end). */
static int32_t seen_at(lns *L, uint32_t cell, uint32_t gap, size_t *slot)
{
    size_t k = seen_cell(L, cell)->base + (size_t)gap;
    if (L->seen_t[k] == SEEN_NONE) {
        if (L->nseen == L->cap_seen) {
            *slot = SIZE_MAX;
            return INT32_MAX;
        }
        L->nseen++;
        L->seen_t[k] = INT32_MAX;
    }
    *slot = k;
    return L->seen_t[k];
}

/* The heuristic of agent a at cell, a cell seen_at has stamped for this
 * search: asked once a search (the first time, as before: asking settles
 * the goal's field that far), then remembered. */
static inline long steps_at(lns *L, uint32_t a, uint32_t cell)
{
    const ff_mapf_plan *pl = L->pl;
    cell_seen *cs = &L->cs[cell];  /* (stamped by seen_at) */
    if (cs->h == H_UNASKED)
        cs->h = (int32_t)pl->steps(pl->ctx, a, cell);
    return cs->h;
}

/* Offer state (cell, its safe interval s) reached at tick t from node
 * parent: pushed when reached earlier than before. */
static void offer(lns *L, uint32_t a, uint32_t cell, interval s, int64_t t, uint32_t parent)
{
    size_t slot;
    long h;
    if (t >= seen_at(L, cell, s.agent, &slot) || slot == SIZE_MAX || (h = steps_at(L, a, cell)) < 0 ||
        t + h > L->limit || L->nnode == L->cap_node)
        return;
    L->seen_t[slot] = (int32_t)t;
    L->node[L->nnode] = (node){ cell, (int32_t)t, s.t0, s.t1, (int32_t)(t + h > L->stay ? t + h : L->stay),
                                (int32_t)h, parent, (uint32_t)slot };
    heap_push(L, (uint32_t)L->nnode++);
}

/* Plan agent a from its start to its goal round every path held, by
 * safe-interval path planning (Phillips and Likhachev 2011; A* over
 * cells and their safe intervals, each reached as early as it can be,
 * waits where it stands in between): the node of its goal's last safe
 * interval (to the end of time), or UINT32_MAX when the search found none
 * of cost limit or less within bound expansions (or out of memory: *oom
 * 1). */
static uint32_t search(lns *L, uint32_t a, int64_t limit, unsigned long long bound, int *oom)
{
    const ff_mapf_plan *pl = L->pl;
    uint32_t start = pl->path[a][0], goal = pl->goal[a];
    unsigned long long spent = 0;
    long m, j;
    int d;

    if (++L->stamp == 0) {
        memset(L->cs, 0, L->cells * sizeof *L->cs);
        L->stamp = 1;
    }
    L->nnode = L->nheap = L->nseen = L->used_t = 0;
    if (L->nintervals + L->cells > L->cap_t) {  /* (every cell's gaps) */
        int32_t *more = ff_grow(L->seen_t, &L->cap_t, L->nintervals + L->cells, sizeof *more, 1024);
        if (!more) {
            *oom = 1;
            return UINT32_MAX;
        }
        L->seen_t = more;
    }
    L->limit = limit < INT32_MAX / 2 ? limit : INT32_MAX / 2;
    if ((m = safe_intervals(L, goal, FOREVER - 1, FOREVER)) < 0) {
        *oom = 1;
        return UINT32_MAX;
    }
    if (m == 0 || L->safe[m - 1].t1 != FOREVER || L->safe[m - 1].t0 > L->limit)
        return UINT32_MAX;  /* (another stays there, or leaves too late) */
    L->stay = L->safe[m - 1].t0;
    if ((m = safe_intervals(L, start, 0, 0)) < 0) {
        *oom = 1;
        return UINT32_MAX;
    }
    if (m == 0 || L->safe[0].t0 != 0)
        return UINT32_MAX;
    offer(L, a, start, L->safe[0], 0, UINT32_MAX);
    while (L->nheap > 0 && spent < bound) {
        uint32_t v = heap_pop(L);
        node cur = L->node[v];
        if (cur.t > L->seen_t[cur.seen])
            continue;  /* (reached earlier since) */
        spent++;
        if (cur.cell == goal && cur.until == FOREVER) {
            L->expansions += spent;
            return v;
        }
        for (d = 0; d < 4; d++) {
            uint32_t next = neighbour(L, cur.cell, d);
            if (next == UINT32_MAX)
                continue;
            if ((m = safe_intervals(L, next, (int64_t)cur.t + 1,
                                    cur.until == FOREVER ? FOREVER : (int64_t)cur.until + 1)) < 0) {
                *oom = 1;
                return UINT32_MAX;
            }
            for (j = 0; j < m; j++) {
                /* Arrive in [cur.t + 1, cur.until + 1] (waiting here),
                 * within the interval, and not by a swap. */
                int64_t t = cur.t + 1 > L->safe[j].t0 ? cur.t + 1 : L->safe[j].t0;
                int64_t last = cur.until == FOREVER ? FOREVER : (int64_t)cur.until + 1;
                if (last > L->safe[j].t1)
                    last = L->safe[j].t1;
                /* (a swap brings another onto this cell at t: only at
                 * cur.until + 1, the ticks before being safe here) */
                if (t == (int64_t)cur.until + 1 && t <= last && swapped(L, a, cur.cell, next, t))
                    t++;
                if (t <= last)
                    offer(L, a, next, L->safe[j], t, v);
            }
        }
    }
    L->expansions += spent;
    return UINT32_MAX;
}

/* The cells a tick of the path that search ended at node v (its t + 1
 * of them) into p: each node's cell from its tick to the next node's. */
static void path_of(const lns *L, uint32_t v, uint32_t *p)
{
    int32_t t = L->node[v].t;
    p[t] = L->node[v].cell;
    for (; L->node[v].parent != UINT32_MAX; v = L->node[v].parent) {
        const node *up = &L->node[L->node[v].parent];
        while (--t >= up->t)
            p[t] = up->cell;
        t = up->t;
        p[t] = up->cell;
    }
}

/* ---- neighbourhoods ---- */

static void join(lns *L, uint32_t a)
{
    if (L->ngroup < NEIGHBOURHOOD && !L->in_group[a]) {
        L->in_group[a] = 1;
        L->group[L->ngroup++] = a;
    }
}

/* The agent with the largest delay not taken lately (then taken), or
 * UINT32_MAX when none is delayed. */
static uint32_t most_delayed(lns *L)
{
    const ff_mapf_plan *pl = L->pl;
    long worst = 0;
    uint32_t a = UINT32_MAX, k;
    int tries;

    for (tries = 0; tries < 2 && a == UINT32_MAX; tries++) {
        for (k = 0; k < pl->n; k++) {
            long delay = (long)pl->len[k] - 1 - pl->steps(pl->ctx, k, pl->path[k][0]);
            if (!L->tabu[k] && delay > worst) {
                worst = delay;
                a = k;
            }
        }
        if (a == UINT32_MAX)
            memset(L->tabu, 0, pl->n);  /* (all taken: afresh) */
    }
    if (a != UINT32_MAX)
        L->tabu[a] = 1;
    return a;
}

/* Join the agents met by random walks from points of agent a's path
 * along ways that could be shorter than its own. */
static void walk_from(lns *L, uint32_t a)
{
    const ff_mapf_plan *pl = L->pl;
    uint32_t k;
    int tries;

    for (tries = 0; tries < 10 && L->ngroup < NEIGHBOURHOOD; tries++) {
        int32_t cost = (int32_t)pl->len[a] - 1, t = (int32_t)draw(L, pl->len[a]);
        uint32_t cell = pl->path[a][t];
        for (; t < cost && L->ngroup < NEIGHBOURHOOD; t++) {
            uint32_t next[5];
            int m = 0, d;
            const cell_list *c;
            for (d = -1; d < 4; d++) {
                uint32_t n = d < 0 ? cell : neighbour(L, cell, d);
                long h = n == UINT32_MAX ? -1 : pl->steps(pl->ctx, a, n);
                if (h >= 0 && t + 1 + h < cost)
                    next[m++] = n;
            }
            if (m == 0)
                break;
            cell = next[draw(L, (size_t)m)];
            c = &L->at[cell];
            for (k = 0; k < c->n; k++)
                if (c->e[k].agent != a && c->e[k].t0 <= t + 1 && t + 1 <= c->e[k].t1)
                    join(L, c->e[k].agent);
        }
    }
}

/* Agent-based: the agent with the largest delay not taken lately, then
 * the agents met by its walks. */
static void by_agent(lns *L)
{
    uint32_t a = most_delayed(L);
    if (a == UINT32_MAX)
        return;
    join(L, a);
    walk_from(L, a);
}

/* Goal blockers: the agent with the largest delay not taken lately, the
 * agents that stand on its goal at or after the tick it could arrive at
 * the soonest (its steps from its start), and theirs in turn, breadth
 * first; then the agents met by its walks.  When others cross an agent's
 * goal late, it cannot arrive sooner alone, however it is planned: they
 * must pass sooner or elsewhere, and it is planned first (replan_group
 * keeps this order) so that they are planned round its earlier arrival. */
static void by_blocker(lns *L)
{
    const ff_mapf_plan *pl = L->pl;
    uint32_t a = most_delayed(L);
    size_t i;

    if (a == UINT32_MAX)
        return;
    join(L, a);
    for (i = 0; i < L->ngroup && L->ngroup < NEIGHBOURHOOD; i++) {
        uint32_t x = L->group[i], k;
        const cell_list *c = &L->at[pl->goal[x]];
        long soonest = pl->steps(pl->ctx, x, pl->path[x][0]);
        for (k = 0; k < c->n; k++)
            if (c->e[k].agent != x && c->e[k].t1 >= soonest)
                join(L, c->e[k].agent);
    }
    walk_from(L, a);
}

/* Map-based: the agents that pass the cells nearest a random crossing,
 * breadth first from it. */
static void by_crossing(lns *L)
{
    size_t head = 0, tail = 0, k;
    uint32_t j;
    int d;

    if (L->ncrossing == 0)
        return;
    L->queue[tail++] = L->crossing[draw(L, L->ncrossing)];
    L->queued[L->queue[0]] = 1;
    while (head < tail && L->ngroup < NEIGHBOURHOOD && head < 64) {
        uint32_t cell = L->queue[head++];
        const cell_list *c = &L->at[cell];
        for (j = 0; j < c->n; j++)
            join(L, c->e[j].agent);
        for (d = 0; d < 4; d++) {
            uint32_t n = neighbour(L, cell, d);
            if (n != UINT32_MAX && !L->queued[n]) {
                L->queued[n] = 1;
                L->queue[tail++] = n;
            }
        }
    }
    for (k = 0; k < tail; k++)
        L->queued[L->queue[k]] = 0;
}

static void at_random(lns *L)
{
    int tries;
    for (tries = 0; tries < 4 * NEIGHBOURHOOD && L->ngroup < NEIGHBOURHOOD; tries++)
        join(L, draw(L, L->pl->n));
}

/* ---- the loop ---- */

/* Plan the group again, in its order, or in a random one (shuffle): 1
 * kept (a lower sum of costs), 0 not (the old paths back; *failed the
 * agent no path was found for, or UINT32_MAX), -1 out of memory (the old
 * paths back). */
static int replan_group(lns *L, unsigned long long budget, int shuffle, long long *saved, uint32_t *failed)
{
    ff_mapf_plan *pl = L->pl;
    long long old_cost = 0, new_cost = 0;
    size_t k, done = 0;
    long long rest = 0;
    int ok = 1, oom = 0;

    *failed = UINT32_MAX;
    for (k = shuffle ? L->ngroup : 0; k > 1; k--) {  /* (Fisher-Yates) */
        size_t j = draw(L, k);
        uint32_t tmp = L->group[k - 1];
        L->group[k - 1] = L->group[j];
        L->group[j] = tmp;
    }
    for (k = 0; k < L->ngroup; k++) {
        uint32_t a = L->group[k];
        old_cost += (long long)pl->len[a] - 1;
        rest += pl->steps(pl->ctx, a, pl->path[a][0]);
        L->old_path[k] = pl->path[a];
        L->old_len[k] = pl->len[a];
        hold_path(L, a, pl->path[a], pl->len[a], 0);
    }
    for (done = 0; done < L->ngroup && ok; done++) {
        uint32_t a = L->group[done], *p;
        unsigned long long left = budget > L->expansions ? budget - L->expansions : 0;
        uint32_t v;
        size_t m;
        /* (the group's cost must fall: what is left of the old one, less
         * the steps of the agents still to plan) */
        rest -= pl->steps(pl->ctx, a, pl->path[a][0]);
        v = search(L, a, old_cost - new_cost - rest - 1, left < SEARCH_BOUND ? left + 1 : SEARCH_BOUND, &oom);
        if (v == UINT32_MAX || (new_cost += L->node[v].t) >= old_cost) {
            *failed = v == UINT32_MAX ? a : UINT32_MAX;
            ok = 0;
            break;
        }
        m = (size_t)L->node[v].t + 1;
        if (!(p = malloc(m * sizeof *p))) {
            ok = 0;
            oom = 1;
            break;
        }
        path_of(L, v, p);
        pl->path[a] = p;
        pl->len[a] = m;
        if (hold_path(L, a, p, m, 1) < 0) {
            done++;
            ok = 0;
            oom = 1;
            break;
        }
    }
    for (k = 0; k < L->ngroup; k++) {
        uint32_t a = L->group[k];
        L->in_group[a] = 0;
        if (ok) {
            free(L->old_path[k]);
            continue;
        }
        if (k < done) {
            hold_path(L, a, pl->path[a], pl->len[a], 0);
            free(pl->path[a]);
        }
        pl->path[a] = L->old_path[k];
        pl->len[a] = L->old_len[k];
    }
    if (!ok)
        for (k = 0; k < L->ngroup; k++)
            if (hold_path(L, L->group[k], pl->path[L->group[k]], pl->len[L->group[k]], 1) < 0)
                oom = 1;
    *saved = ok ? old_cost - new_cost : 0;
    return oom ? -1 : ok;
}

static void lns_free(lns *L)
{
    size_t k;
    if (L->at)
        for (k = 0; k < L->cells; k++)
            free(L->at[k].e);
    free(L->at);
    free(L->open4);
    free(L->node);
    free(L->heap);
    free(L->seen_t);
    free(L->cs);
    free(L->safe);
    free(L->group);
    free(L->in_group);
    free(L->tabu);
    free(L->first);
    free(L->crossing);
    free(L->queue);
    free(L->queued);
    free(L->old_path);
    free(L->old_len);
}

static int lns_init(lns *L, ff_mapf_plan *pl, uint64_t seed)
{
    size_t cells = (size_t)pl->grid->w * (size_t)pl->grid->h, n = pl->n ? pl->n : 1, k, longest = 1;
    uint32_t c;
    int d;

    memset(L, 0, sizeof *L);
    L->pl = pl;
    L->cells = cells;
    L->w = pl->grid->w;
    L->rng = seed;
    L->cap_node = 5 * (size_t)SEARCH_BOUND + 8;
    for (L->cap_seen = 1; L->cap_seen < L->cap_node; L->cap_seen *= 2)
        ;
    for (k = 0; k < pl->n; k++)
        longest = pl->len[k] > longest ? pl->len[k] : longest;
    L->at = calloc(cells, sizeof *L->at);
    L->open4 = calloc(cells, 1);
    L->node = malloc(L->cap_node * sizeof *L->node);
    L->heap = malloc(L->cap_node * sizeof *L->heap);
    L->cs = calloc(cells, sizeof *L->cs);
    L->group = malloc(n * sizeof *L->group);
    L->in_group = calloc(n, 1);
    L->tabu = calloc(n, 1);
    L->first = malloc(PLAN_ROUNDS * sizeof *L->first);
    L->crossing = malloc(cells * sizeof *L->crossing);
    L->queue = malloc(cells * sizeof *L->queue);
    L->queued = calloc(cells, 1);
    L->old_path = malloc(n * sizeof *L->old_path);
    L->old_len = malloc(n * sizeof *L->old_len);
    if (!L->at || !L->open4 || !L->node || !L->heap || !L->cs || !L->group ||
        !L->in_group || !L->tabu || !L->first || !L->crossing || !L->queue || !L->queued || !L->old_path || !L->old_len)
        return -1;
    for (d = 0; d < 4; d++)
        L->off4[d] = (int64_t)dy4[d] * L->w + dx4[d];
    /* (the grid's legal steps: open cells, one-way masks and terrain
     * classes; dx4, dy4 are FF_DIR_N to FF_DIR_W, its first four bits) */
    ff_grid_step_masks(pl->grid, L->open4);
    for (c = 0; c < cells; c++)
        L->open4[c] &= 0xFu;
    for (c = 0; c < cells; c++) {
        int m = 0;
        if (!ff_grid_open(pl->grid, c))
            continue;
        for (d = 0; d < 4; d++)
            m += neighbour(L, c, d) != UINT32_MAX;
        if (m >= 3)
            L->crossing[L->ncrossing++] = c;
    }
    for (k = 0; k < pl->n; k++)
        if (hold_path(L, (uint32_t)k, pl->path[k], pl->len[k], 1) < 0)
            return -1;
    return 0;
}

/* Prioritised planning from scratch (Silver 2005; Li et al. 2021 begin
 * from it): every agent in turn round those before it, first the agents
 * it failed for in earlier rounds (their priority raised), then the rest
 * in a random order; kept when whole and cheaper than the plan as it is.
 * At most PLAN_ROUNDS rounds.  1 kept, 0 not, -1 out of memory. */
static int plan_afresh(lns *L, unsigned long long budget, ff_mapf_stats *st)
{
    size_t nfirst = 0, k, j;
    int round, r = 0;

    for (round = 0; round < PLAN_ROUNDS && L->expansions < budget; round++) {
        long long saved;
        uint32_t failed;
        for (k = 0; k < L->pl->n; k++)
            L->tabu[k] = 0;
        for (k = 0; k < nfirst; k++)
            L->tabu[L->first[k]] = 1;
        memcpy(L->group, L->first, nfirst * sizeof *L->group);
        for (j = nfirst, k = 0; k < L->pl->n; k++)
            if (!L->tabu[k])
                L->group[j++] = (uint32_t)k;
        for (k = L->pl->n; k > nfirst + 1; k--) {  /* (Fisher-Yates over the rest) */
            size_t m = nfirst + draw(L, k - nfirst);
            uint32_t tmp = L->group[k - 1];
            L->group[k - 1] = L->group[m];
            L->group[m] = tmp;
        }
        L->ngroup = L->pl->n;
        r = replan_group(L, budget, 0, &saved, &failed);
        st->iterations++;
        st->improved += r > 0;
        if (r != 0 || failed == UINT32_MAX)
            break;
        for (k = 0; k < nfirst && L->first[k] != failed; k++)
            ;
        if (k < nfirst)
            break;  /* (first already, and failed: no order helps it) */
        L->first[nfirst++] = failed;
    }
    memset(L->tabu, 0, L->pl->n);
    L->ngroup = 0;
    return r;
}

static long long sum_of_costs(const ff_mapf_plan *pl)
{
    long long s = 0;
    size_t k;
    for (k = 0; k < pl->n; k++)
        s += (long long)pl->len[k] - 1;
    return s;
}

ff_status ff_mapf_improve(ff_mapf_plan *pl, unsigned long long budget, uint64_t seed, ff_mapf_stats *st,
                          ff_error *err)
{
    double weight[4] = { 1, 1, 1, 1 };
    lns L;
    int r = 0;

    memset(st, 0, sizeof *st);
    st->cost_before = st->cost_after = sum_of_costs(pl);
    if (pl->n < 2 || budget == 0)
        return FF_OK;
    if (lns_init(&L, pl, seed) < 0) {
        lns_free(&L);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the plan");
    }
    r = plan_afresh(&L, budget, st);
    while (L.expansions < budget && r >= 0) {
        double u = (double)(ff_splitmix64(&L.rng) >> 11) * 0x1p-53 * (weight[0] + weight[1] + weight[2] + weight[3]);
        int how = 0;
        long long saved = 0;
        uint32_t failed;
        while (how < 3 && u >= weight[how])
            u -= weight[how++];
        L.ngroup = 0;
        if (how == 0)
            by_agent(&L);
        else if (how == 1)
            by_crossing(&L);
        else if (how == 2)
            at_random(&L);
        else
            by_blocker(&L);
        L.expansions++;  /* (a neighbourhood's choice: every turn costs) */
        st->iterations++;
        if (L.ngroup < 2) {
            while (L.ngroup)
                L.in_group[L.group[--L.ngroup]] = 0;
            continue;
        }
        r = replan_group(&L, budget, how != 3, &saved, &failed);
        st->improved += r > 0;
        weight[how] = REACTION * (double)saved + (1 - REACTION) * weight[how];
        if (weight[how] < WEIGHT_MIN)
            weight[how] = WEIGHT_MIN;  /* (never out of the draw) */
    }
    st->expansions = L.expansions;
    st->cost_after = sum_of_costs(pl);
    lns_free(&L);
    return r < 0 ? ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the plan") : FF_OK;
}
