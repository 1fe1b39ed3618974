/* scatter.c - the agents' paths in space spread over the map; see
 * scatter.h and man 1 ffsim ("PLANS").
 *
 * After Okumura, AAMAS 2024 (LaCAM3's scatter): each agent's search is an
 * A* over cells (a cell expanded once, at its first reach) whose open
 * list orders by the collisions met on the way, then by steps + bound,
 * and which never steps back onto its start nor past its bound of steps.
 * The others' paths are held tick by tick in a dense table, 16 bits a
 * cell and tick: how many stand on the cell then, how many step out of it
 * then in each direction (for the swaps); and on each cell the agents
 * whose goal it is.
 */
#include <stdlib.h>
#include <string.h>

#include "placement.h"
#include "scatter.h"

#define ROUNDS_MAX 16          /* rounds at most, however they fall */
#define TABLE_MAX ((size_t)1 << 25) /* cell-ticks of the table (64 MB) */
#define ON_BITS 4              /* a tick's count on a cell (saturates) */
#define OUT_BITS 3             /* a tick's count out of it one way (too) */

static const int dx4[4] = { 0, 1, 0, -1 }, dy4[4] = { -1, 0, 1, 0 };

/* An entry of the open list: a cell reached, with what orders it. */
typedef struct {
    uint32_t collisions, f, g, cell, parent;
} entry;

typedef struct {
    const ff_grid *g;
    size_t n, cells;
    const uint32_t *goal;
    ff_mapf_scatter *sc;
    int32_t ticks;             /* the tables' ticks: every path's bound + 1 */
    uint16_t *at;              /* ticks x cells: agents on the cell then
                                  (ON_BITS), and stepping out of it then,
                                  by direction (OUT_BITS each): one load
                                  a step's collisions */
    uint32_t *goal_first;      /* per cell: an agent whose goal it is ... */
    uint32_t *goal_next;       /* ... per agent: the next one of that cell */
    entry *heap;               /* the open list (a binary heap) */
    size_t nheap;
    uint32_t *parent;          /* per cell: where it was reached from ... */
    uint32_t *closed;          /* ... when this is the search's stamp */
    uint32_t *seen;            /* per cell: the search's stamp when ... */
    int32_t *h;                /* ... its bound of steps is known, and ... */
    uint64_t *best;            /* ... the best key it was offered with */
    uint32_t stamp;
    uint32_t *back;            /* a path traced back */
    uint8_t *step;             /* per cell: the legal steps (bit d) */
    long long collisions;
} scatter;

/* The neighbour of cell in direction d (dx4, dy4: FF_DIR_N to FF_DIR_W)
 * when the step there is legal (step: the grid's step masks, one-way
 * cells and terrain classes with them), or UINT32_MAX. */
static inline uint32_t neighbour(const ff_grid *g, const uint8_t *step, uint32_t cell, int d)
{
    if (!(step[cell] >> d & 1u))
        return UINT32_MAX;
    return (uint32_t)((int64_t)cell + (int64_t)dy4[d] * g->w + dx4[d]);
}

/* The direction (dx4, dy4) of the step from cell v to its neighbour u. */
static inline int direction(const ff_grid *g, uint32_t v, uint32_t u)
{
    return u == v - (uint32_t)g->w ? 0 : u == v + 1 ? 1 : u == v + (uint32_t)g->w ? 2 : 3;
}

static inline unsigned on_of(uint16_t r)
{
    return r & ((1u << ON_BITS) - 1);
}

static inline unsigned out_of(uint16_t r, int d)
{
    return r >> (ON_BITS + OUT_BITS * (unsigned)d) & ((1u << OUT_BITS) - 1);
}

/* The collisions of agent i's step from v to u at tick t (t + 1 on u)
 * with the paths held (i's own held nowhere). */
static long step_collisions(const scatter *s, uint32_t i, uint32_t v, uint32_t u, int32_t t)
{
    long k = 0;
    uint32_t j;
    if (t + 1 < s->ticks) {
        k += on_of(s->at[(size_t)(t + 1) * s->cells + u]);
        k += out_of(s->at[(size_t)t * s->cells + u], direction(s->g, u, v));
    }
    for (j = s->goal_first[u]; j != UINT32_MAX; j = s->goal_next[j])
        if (j != i && s->sc->len[j] > 0 && (size_t)t + 1 > s->sc->len[j] - 1)
            k++;
    return k;
}

/* Count one more (up 1) or one less in the field of width bits at
 * shift of *r, which saturates (then stays). */
static inline void count(uint16_t *r, unsigned shift, unsigned bits, int up)
{
    unsigned max = (1u << bits) - 1, v = (unsigned)*r >> shift & max;
    if (v != max)
        *r = (uint16_t)(up ? *r + (1u << shift) : *r - (1u << shift));
}

/* Hold agent i's path (up 1) or take it away (up 0), adding its
 * collisions to the count or taking them off: each collision of two
 * paths is counted by the one held later, so taking a path away in the
 * same order takes off what holding it added. */
static void hold(scatter *s, uint32_t i, int up)
{
    const uint32_t *p = s->sc->path[i];
    size_t len = s->sc->len[i], t;
    long long k = 0;
    uint32_t last;

    if (len == 0)
        return;
    for (t = 0; t < len; t++) {
        if (up && t > 0)
            k += step_collisions(s, i, p[t - 1], p[t], (int32_t)t - 1);
        count(&s->at[t * s->cells + p[t]], 0, ON_BITS, up);
        if (t > 0)
            count(&s->at[(t - 1) * s->cells + p[t - 1]], ON_BITS + OUT_BITS * (unsigned)direction(s->g, p[t - 1], p[t]),
                  OUT_BITS, up);
        if (!up && t > 0)
            k += step_collisions(s, i, p[t - 1], p[t], (int32_t)t - 1);
    }
    last = p[len - 1];
    for (t = len; t < (size_t)s->ticks; t++)
        k += on_of(s->at[t * s->cells + last]);  /* (the others on its goal after it stays) */
    s->collisions += up ? k : -k;
}

/* 1 when a comes out of the open list before b: fewer collisions, then
 * the lower f, then the farther reached, then the lower cell. */
static inline int first(const entry *a, const entry *b)
{
    if (a->collisions != b->collisions)
        return a->collisions < b->collisions;
    if (a->f != b->f)
        return a->f < b->f;
    if (a->g != b->g)
        return a->g > b->g;
    return a->cell < b->cell;
}

static void push(scatter *s, entry e)
{
    size_t k = s->nheap++;
    while (k > 0 && first(&e, &s->heap[(k - 1) / 2])) {
        s->heap[k] = s->heap[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    s->heap[k] = e;
}

static entry pop(scatter *s)
{
    entry top = s->heap[0], e = s->heap[--s->nheap];
    size_t k = 0, n = s->nheap;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= n)
            break;
        if (c + 1 < n && first(&s->heap[c + 1], &s->heap[c]))
            c++;
        if (!first(&s->heap[c], &e))
            break;
        s->heap[k] = s->heap[c];
        k = c;
    }
    if (n > 0)
        s->heap[k] = e;
    return top;
}

/* Agent i's path of fewest collisions from start within bound steps into
 * sc->path[i] (malloc'd; the last one freed).  1 when found, 0 when none
 * is (or *work ran out: the last one stays), -1 for want of memory. */
static int search(scatter *s, uint32_t i, uint32_t start, long bound, ff_mapf_steps_fn steps, void *ctx,
                  unsigned long long *work)
{
    const ff_grid *g = s->g;
    uint32_t goal = s->goal[i], *path;
    size_t len = 0;
    long h0 = steps(ctx, i, start);
    entry e;

    if (h0 < 0 || h0 > bound)
        return 0;
    if (++s->stamp == 0) {
        memset(s->closed, 0, s->cells * sizeof *s->closed);
        memset(s->seen, 0, s->cells * sizeof *s->seen);
        s->stamp = 1;
    }
    s->nheap = 0;
    e = (entry){ 0, (uint32_t)h0, 0, start, UINT32_MAX };
    push(s, e);
    while (s->nheap > 0) {
        int d;
        e = pop(s);
        if (s->closed[e.cell] == s->stamp)
            continue;
        if (*work == 0)
            return 0;
        --*work;
        s->sc->expansions++;
        s->closed[e.cell] = s->stamp;
        s->parent[e.cell] = e.parent;
        if (e.cell == goal)
            break;
        for (d = 0; d < 4; d++) {
            uint32_t u = neighbour(g, s->step, e.cell, d);
            entry o;
            uint64_t key;
            if (u == UINT32_MAX || u == start || s->closed[u] == s->stamp)
                continue;
            if (s->seen[u] != s->stamp) {
                long h = steps(ctx, i, u);
                s->seen[u] = s->stamp;
                s->h[u] = h < 0 ? -1 : (int32_t)h;
                s->best[u] = UINT64_MAX;
            }
            if (s->h[u] < 0 || (long)e.g + 1 + s->h[u] > bound)
                continue;
            o = (entry){ e.collisions + (uint32_t)step_collisions(s, i, e.cell, u, (int32_t)e.g),
                         e.g + 1 + (uint32_t)s->h[u], e.g + 1, u, e.cell };
            /* (an entry no better than one the cell has: it would come
             * out later, and find the cell closed) */
            key = (uint64_t)o.collisions << 32 | o.f;
            if (key >= s->best[u])
                continue;
            s->best[u] = key;
            push(s, o);
        }
    }
    if (s->closed[goal] != s->stamp)
        return 0;
    for (uint32_t v = goal; v != UINT32_MAX; v = s->parent[v])
        s->back[len++] = v;
    if (!(path = malloc(len * sizeof *path)))
        return -1;
    for (size_t k = 0; k < len; k++)
        path[k] = s->back[len - 1 - k];
    free(s->sc->path[i]);
    s->sc->path[i] = path;
    s->sc->len[i] = len;
    return 1;
}

void ff_mapf_scatter_free(ff_mapf_scatter *sc)
{
    size_t k;
    for (k = 0; sc->path && k < sc->n; k++)
        free(sc->path[k]);
    free(sc->path);
    free(sc->len);
    memset(sc, 0, sizeof *sc);
}

ff_status ff_mapf_scatter_make(const ff_grid *g, size_t n, const uint32_t *start, const uint32_t *goal,
                               ff_mapf_steps_fn steps, void *ctx, long margin, unsigned long long work,
                               uint64_t seed, ff_mapf_scatter *sc, ff_error *err)
{
    scatter s;
    long *bound = malloc((n ? n : 1) * sizeof *bound);
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);
    uint64_t rng = seed;
    long long last;
    size_t k, longest = 0;
    int failed = 0, cut = 0;

    memset(&s, 0, sizeof s);
    memset(sc, 0, sizeof *sc);
    s.g = g;
    s.n = sc->n = n;
    s.cells = (size_t)g->w * (size_t)g->h;
    s.goal = goal;
    s.sc = sc;
    sc->path = calloc(n ? n : 1, sizeof *sc->path);
    sc->len = calloc(n ? n : 1, sizeof *sc->len);
    for (k = 0; bound && k < n; k++) {
        long h = steps(ctx, k, start[k]);
        bound[k] = h < 0 ? -1 : h + margin;
        if (bound[k] >= 0 && (size_t)bound[k] + 1 > longest)
            longest = (size_t)bound[k] + 1;
    }
    if (longest > 0 && s.cells > TABLE_MAX / longest) {
        for (k = 0; bound && k < n; k++)
            bound[k] = -1;  /* (too large a table: no paths) */
        longest = 0;
    }
    s.ticks = (int32_t)longest;
    s.at = calloc(longest * s.cells + 1, sizeof *s.at);
    s.goal_first = malloc(s.cells * sizeof *s.goal_first);
    s.goal_next = malloc((n ? n : 1) * sizeof *s.goal_next);
    s.heap = malloc((4 * s.cells + 1) * sizeof *s.heap);
    s.parent = malloc(s.cells * sizeof *s.parent);
    s.closed = calloc(s.cells, sizeof *s.closed);
    s.seen = calloc(s.cells, sizeof *s.seen);
    s.h = malloc(s.cells * sizeof *s.h);
    s.best = malloc(s.cells * sizeof *s.best);
    s.back = malloc(s.cells * sizeof *s.back);
    s.step = malloc(s.cells);
    if (!bound || !order || !sc->path || !sc->len || !s.at || !s.goal_first || !s.goal_next ||
        !s.heap || !s.parent || !s.closed || !s.seen || !s.h || !s.best || !s.back || !s.step) {
        failed = 1;
        goto done;
    }
    ff_grid_step_masks(g, s.step);
    for (k = 0; k < s.cells; k++)
        s.goal_first[k] = UINT32_MAX;
    for (k = n; k-- > 0;) {
        s.goal_next[k] = s.goal_first[goal[k]];
        s.goal_first[goal[k]] = (uint32_t)k;
        order[k] = (uint32_t)k;
    }
    do {
        last = s.collisions;
        sc->rounds++;
        for (k = n; k > 1; k--) {  /* (Fisher-Yates) */
            size_t j = (size_t)(ff_splitmix64(&rng) % k);
            uint32_t t = order[k - 1];
            order[k - 1] = order[j];
            order[j] = t;
        }
        for (k = 0; k < n && !cut; k++) {
            uint32_t i = order[k];
            int found;
            if (bound[i] < 0)
                continue;
            hold(&s, i, 0);
            if ((found = search(&s, i, start[i], bound[i], steps, ctx, &work)) < 0) {
                failed = 1;
                goto done;
            }
            cut = !found && work == 0;
            hold(&s, i, 1);
        }
    } while (!cut && s.collisions > 0 && sc->rounds < ROUNDS_MAX && (sc->rounds < 2 || s.collisions < last));
    sc->collisions = (unsigned long long)s.collisions;
done:
    free(bound);
    free(order);
    free(s.at);
    free(s.goal_first);
    free(s.goal_next);
    free(s.heap);
    free(s.parent);
    free(s.closed);
    free(s.seen);
    free(s.h);
    free(s.best);
    free(s.back);
    free(s.step);
    if (failed) {
        ff_mapf_scatter_free(sc);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the plan's scatter");
    }
    return FF_OK;
}
