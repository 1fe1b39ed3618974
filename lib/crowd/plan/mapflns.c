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
} node;

typedef struct {
    ff_mapf_plan *pl;
    size_t cells;
    int32_t w;
    cell_list *at;             /* per cell: the intervals held there */
    /* the search's pool, open heap and seen table (reused) */
    node *node;
    uint32_t *heap;
    size_t nnode, nheap, cap_node;
    uint64_t *seen_key;
    uint32_t *seen_stamp;
    size_t seen_mask;
    uint32_t stamp;
    size_t nseen;              /* states in it this search */
    int32_t *seen_t;
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
    int32_t x = (int32_t)(cell % (uint32_t)L->w) + dx4[d], y = (int32_t)(cell / (uint32_t)L->w) + dy4[d];
    uint32_t n;
    if (x < 0 || y < 0 || x >= L->w || y >= L->pl->grid->h)
        return UINT32_MAX;
    n = (uint32_t)y * (uint32_t)L->w + (uint32_t)x;
    return ff_grid_open(L->pl->grid, n) ? n : UINT32_MAX;
}

/* ---- the intervals ---- */

static int add_interval(lns *L, uint32_t cell, int32_t t0, int32_t t1, uint32_t a)
{
    cell_list *c = &L->at[cell];
    uint32_t k;
    if (c->n == c->cap) {
        size_t cap = c->cap;
        interval *e = ff_grow(c->e, &cap, (size_t)c->n + 1, sizeof *e, 4);
        if (!e)
            return -1;
        c->e = e;
        c->cap = (uint32_t)cap;
    }
    for (k = c->n; k > 0 && c->e[k - 1].t0 > t0; k--)
        c->e[k] = c->e[k - 1];  /* (kept in order of t0) */
    c->e[k].t0 = t0;
    c->e[k].t1 = t1;
    c->e[k].agent = a;
    c->n++;
    return 0;
}

static void drop_interval(lns *L, uint32_t cell, int32_t t0, uint32_t a)
{
    cell_list *c = &L->at[cell];
    uint32_t k;
    for (k = 0; k < c->n; k++)
        if (c->e[k].agent == a && c->e[k].t0 == t0) {
            memmove(&c->e[k], &c->e[k + 1], (c->n - k - 1) * sizeof *c->e);
            c->n--;
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
 * (while a steps from -> cell: a swap). */
static int swapped(const lns *L, uint32_t a, uint32_t from, uint32_t cell, int64_t t)
{
    const cell_list *c = &L->at[cell];
    uint32_t k;
    for (k = 0; k < c->n; k++) {
        const interval *e = &c->e[k];
        if (e->agent != a && e->t0 <= t - 1 && t - 1 <= e->t1 && at_tick(L->pl, e->agent, (int32_t)t) == from)
            return 1;
    }
    return 0;
}

/* The safe intervals of cell (Phillips and Likhachev 2011) that meet
 * the ticks [lo, hi]: those no agent held stands there, in order, into
 * L->safe; their number, or -1 out of memory.  (The intervals held on a
 * cell are in order and never overlap, the plan keeping the rules: a
 * binary search finds the first that ends at lo or later.) */
static long safe_intervals(lns *L, uint32_t cell, int64_t lo, int64_t hi)
{
    const cell_list *c = &L->at[cell];
    uint32_t k = 0, top = c->n;
    int64_t from;
    long n = 0;

    if (c->n + 1 > L->cap_safe) {
        interval *more = ff_grow(L->safe, &L->cap_safe, (size_t)c->n + 1, sizeof *more, 8);
        if (!more)
            return -1;
        L->safe = more;
    }
    while (k < top) {
        uint32_t mid = k + (top - k) / 2;
        if (c->e[mid].t1 < lo)
            k = mid + 1;
        else
            top = mid;
    }
    from = k > 0 ? (int64_t)c->e[k - 1].t1 + 1 : 0;
    for (; k < c->n && from <= hi; k++) {
        const interval *e = &c->e[k];
        if (e->t0 > from)
            L->safe[n++] = (interval){ (int32_t)from, e->t0 - 1, 0 };
        from = e->t1 == FOREVER ? FOREVER : (int64_t)e->t1 + 1;
    }
    if (from <= hi && from < FOREVER)
        L->safe[n++] = (interval){ (int32_t)from, FOREVER, 0 };
    return n;
}

/* ---- safe-interval path planning ---- */

static inline int before(const node *a, const node *b)
{
    /* (then nearer its goal, then deeper) */
    return a->f != b->f ? a->f < b->f : a->h != b->h ? a->h < b->h : a->t > b->t;
}

static void heap_push(lns *L, uint32_t v)
{
    size_t k = L->nheap++;
    while (k > 0) {
        size_t up = (k - 1) / 2;
        if (!before(&L->node[v], &L->node[L->heap[up]]))
            break;
        L->heap[k] = L->heap[up];
        k = up;
    }
    L->heap[k] = v;
}

static uint32_t heap_pop(lns *L)
{
    uint32_t top = L->heap[0], v = L->heap[--L->nheap];
    size_t k = 0, n = L->nheap;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&L->node[L->heap[c + 1]], &L->node[L->heap[c]]))
            c++;
        if (!before(&L->node[L->heap[c]], &L->node[v]))
            break;
        L->heap[k] = L->heap[c];
        k = c;
    }
    if (n)
        L->heap[k] = v;
    return top;
}

/* The best tick a state (cell, first tick of its safe interval) was
 * reached at in this search, INT32_MAX when never; *slot its entry, made
 * when new (SIZE_MAX when the table holds half its size already: then
 * the state is not offered, as past the pool's end). */
static int32_t seen_at(lns *L, uint32_t cell, int32_t from, size_t *slot)
{
    uint64_t key = (uint64_t)(uint32_t)from << 32 | cell;
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & L->seen_mask;
    while (L->seen_stamp[h] == L->stamp) {
        if (L->seen_key[h] == key) {
            *slot = h;
            return L->seen_t[h];
        }
        h = (h + 1) & L->seen_mask;
    }
    if (2 * L->nseen >= L->seen_mask + 1) {
        *slot = SIZE_MAX;
        return INT32_MAX;
    }
    L->nseen++;
    L->seen_stamp[h] = L->stamp;
    L->seen_key[h] = key;
    L->seen_t[h] = INT32_MAX;
    *slot = h;
    return INT32_MAX;
}

/* Offer state (cell, its safe interval [from, until]) reached at tick t
 * from node parent: pushed when reached earlier than before. */
static void offer(lns *L, uint32_t a, uint32_t cell, int32_t from, int32_t until, int64_t t, uint32_t parent)
{
    const ff_mapf_plan *pl = L->pl;
    size_t slot;
    long h;
    if (t >= seen_at(L, cell, from, &slot) || slot == SIZE_MAX || (h = pl->steps(pl->ctx, a, cell)) < 0 ||
        t + h > L->limit || L->nnode == L->cap_node)
        return;
    L->seen_t[slot] = (int32_t)t;
    L->node[L->nnode] = (node){ cell, (int32_t)t, from, until, (int32_t)(t + h > L->stay ? t + h : L->stay),
                                (int32_t)h, parent };
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
        memset(L->seen_stamp, 0, (L->seen_mask + 1) * sizeof *L->seen_stamp);
        L->stamp = 1;
    }
    L->nnode = L->nheap = L->nseen = 0;
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
    offer(L, a, start, 0, L->safe[0].t1, 0, UINT32_MAX);
    while (L->nheap > 0 && spent < bound) {
        uint32_t v = heap_pop(L);
        node cur = L->node[v];
        size_t slot;
        if (cur.t > seen_at(L, cur.cell, cur.from, &slot))
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
                while (t <= last && swapped(L, a, cur.cell, next, t))
                    t++;
                if (t <= last)
                    offer(L, a, next, L->safe[j].t0, L->safe[j].t1, t, v);
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
    free(L->node);
    free(L->heap);
    free(L->seen_key);
    free(L->seen_stamp);
    free(L->seen_t);
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
    for (L->seen_mask = 1; L->seen_mask < 2 * L->cap_node; L->seen_mask *= 2)
        ;
    for (k = 0; k < pl->n; k++)
        longest = pl->len[k] > longest ? pl->len[k] : longest;
    L->at = calloc(cells, sizeof *L->at);
    L->node = malloc(L->cap_node * sizeof *L->node);
    L->heap = malloc(L->cap_node * sizeof *L->heap);
    L->seen_key = malloc(L->seen_mask * sizeof *L->seen_key);
    L->seen_stamp = calloc(L->seen_mask, sizeof *L->seen_stamp);
    L->seen_mask--;
    L->seen_t = malloc(L->seen_mask * sizeof *L->seen_t);
    L->group = malloc(n * sizeof *L->group);
    L->in_group = calloc(n, 1);
    L->tabu = calloc(n, 1);
    L->first = malloc(PLAN_ROUNDS * sizeof *L->first);
    L->crossing = malloc(cells * sizeof *L->crossing);
    L->queue = malloc(cells * sizeof *L->queue);
    L->queued = calloc(cells, 1);
    L->old_path = malloc(n * sizeof *L->old_path);
    L->old_len = malloc(n * sizeof *L->old_len);
    if (!L->at || !L->node || !L->heap || !L->seen_key || !L->seen_stamp || !L->seen_t || !L->group ||
        !L->in_group || !L->tabu || !L->first || !L->crossing || !L->queue || !L->queued || !L->old_path || !L->old_len)
        return -1;
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
