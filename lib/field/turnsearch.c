/* turnsearch.c - the distances of a turn-cost field; see turn.h.
 *
 * The state graph has 8 states a cell.  A turn of t * 45 degrees costs
 * C * t, which is the cost of t single turns: so instead of an edge from
 * each state to the 8 states of the next cell (64 a cell), each state
 * has one step edge, straight on to the next cell in its own heading, and
 * two turn edges, to the states of the same cell 45 degrees either side,
 * each of cost C.  A state's least cost is then the same (the cheapest
 * chain of single turns between two headings is the short way round the
 * ring of eight), and a settled state relaxes 3 edges instead of 8.
 *
 * The queue is the cell search's (searchcore.h): a ring of buckets as wide
 * as the least edge (the least step or C), every state of the lowest
 * bucket final; costs too spread for buckets, or zero-cost cells, take a
 * binary heap.  A state's 8 distances lie in one 64-byte line, so a turn
 * edge costs no cache miss.
 */
#include "turn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hugepage.h"
#include "search.h"
#include "searchcore.h"

const int ff_heading_clockwise[8] = { FF_DIR_N, FF_DIR_NE, FF_DIR_E, FF_DIR_SE,
                                     FF_DIR_S, FF_DIR_SW, FF_DIR_W, FF_DIR_NW };
/* Each code's place in ff_heading_clockwise. */
static const int ring_place[8] = { 0, 2, 4, 6, 1, 3, 5, 7 };

int ff_turns(int a, int b)
{
    int t = ring_place[a] - ring_place[b];

    t = t < 0 ? -t : t;
    return t > 4 ? 8 - t : t;
}

/* What both queue kinds share. */
typedef struct {
    const ff_grid *g;
    const uint8_t *entry;  /* entry masks of the cells (searchcore.h) */
    uint8_t *done;         /* bit h of cell v: state (v, h) is settled */
    double *hdist;
    double turn_cost;
    ptrdiff_t from[8];     /* offset to the cell that enters in direction d */
    double half_len[8];    /* cell_size * length(d) / 2 */
    int side[8][2];        /* the two headings 45 degrees either side of h */
} turn_ctx;

/* The edges into settled state s = 8 * v + d, of distance dv: push each
 * state whose distance they lower with push(q, to, state).  Returns -1
 * when a push runs out of memory. */
#define RELAX_INTO(ctx, s, dv, push, q)                                          \
    do {                                                                         \
        size_t v_ = (s) >> 3, u_, t_;                                            \
        int d_ = (int)((s)&7), k_;                                               \
        double to_;                                                              \
        if ((ctx)->entry[v_] >> d_ & 1) {                                        \
            u_ = (size_t)((ptrdiff_t)v_ + (ctx)->from[d_]);                      \
            to_ = (dv) + (ctx)->half_len[d_] * ((double)(ctx)->g->cost[u_] +     \
                                                (double)(ctx)->g->cost[v_]);     \
            t_ = 8 * u_ + (size_t)d_;                                            \
            if (to_ < (ctx)->hdist[t_]) {                                        \
                (ctx)->hdist[t_] = to_;                                          \
                push(q, to_, t_);                                                \
            }                                                                    \
        }                                                                        \
        to_ = (dv) + (ctx)->turn_cost;                                           \
        for (k_ = 0; k_ < 2; k_++) {                                             \
            t_ = 8 * v_ + (size_t)(ctx)->side[d_][k_];                           \
            if (to_ < (ctx)->hdist[t_]) {                                        \
                (ctx)->hdist[t_] = to_;                                          \
                push(q, to_, t_);                                                \
            }                                                                    \
        }                                                                        \
    } while (0)

/* Settle state s: 0 when it was settled already (a stale queue entry). */
static inline int settle(uint8_t *done, size_t s)
{
    uint8_t bit = (uint8_t)(1u << (s & 7));

    if (done[s >> 3] & bit)
        return 0;
    done[s >> 3] |= bit;
    return 1;
}

/* How far ahead in a bucket to ask the memory for what settling a state
 * reads: its cell's line of distances, done bits and entry mask, and the
 * line of the cell its step comes from.  On a large map these are cache
 * misses, and the bucket says which come next. */
#define PREFETCH_AHEAD 8

#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* A macro's worth of prefetches, always inlined: GCC drops the prefetches
 * of a function it does not inline. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void prefetch_state(const turn_ctx *ctx, size_t s)
{
    size_t v = s >> 3;
    /* through integers: at the map's edge the step's cell lies outside */
    uintptr_t u = (uintptr_t)(ctx->hdist + 8 * v) +
                  (uintptr_t)(8 * ctx->from[s & 7] * (ptrdiff_t)sizeof(double));

    PREFETCH(ctx->hdist + 8 * v);
    PREFETCH(ctx->done + v);
    PREFETCH(ctx->entry + v);
    PREFETCH((const void *)u);
}

#define RING_PUSH(r, to, s) ring_push((r), ring_bucket((r), (to)), (s))

/* Edges of positive cost within a spread the ring spans: the buckets. */
static ff_status search_ring(const turn_ctx *ctx, ring *r)
{
    size_t empty_run = 0;

    while (empty_run <= r->mask) {
        bucket *b = &r->slot[r->cur & r->mask];
        size_t j;
        empty_run = b->n ? 0 : empty_run + 1;
        for (j = 0; j < b->n; j++) {
            size_t s = b->cell[j];
            if (j + PREFETCH_AHEAD < b->n)
                prefetch_state(ctx, b->cell[j + PREFETCH_AHEAD]);
            if (settle(ctx->done, s))
                RELAX_INTO(ctx, s, ctx->hdist[s], RING_PUSH, r);
        }
        if (r->failed)
            return FF_ENOMEM;
        b->n = 0;
        r->cur++;
    }
    return FF_OK;
}

#define HEAP_PUSH(h, to, s)                                          \
    do {                                                             \
        if (heap_push((h), (to), (uint32_t)(s)) < 0)                 \
            failed = 1;                                              \
    } while (0)

/* Zero-cost cells, or edges too spread for buckets: Dijkstra's algorithm
 * with a binary heap. */
static ff_status search_heap(const turn_ctx *ctx)
{
    const ff_grid *g = ctx->g;
    heap h = { NULL, 0, 0 };
    size_t k;
    int failed = 0, d;

    for (k = 0; k < g->ngoals && !failed; k++)
        for (d = 0; d < 8; d++)
            HEAP_PUSH(&h, 0.0, 8 * (size_t)g->goals[k] + (size_t)d);
    while (h.n > 0 && !failed) {
        heap_item top = heap_pop(&h);
        size_t s = top.cell;
        if (settle(ctx->done, s))
            RELAX_INTO(ctx, s, ctx->hdist[s], HEAP_PUSH, &h);
    }
    heap_free(&h);
    return failed ? FF_ENOMEM : FF_OK;
}

/* The bucket ring for the edges of ctx, or 0 when they need the heap. */
static size_t ring_buckets(const ff_grid *g, double turn_cost, cost_range range,
                           double *width)
{
    double least, largest;
    size_t nb = 1;

    if (!(range.cmin > 0) || !(turn_cost > 0))
        return 0;
    least = g->cell_size * range.cmin;
    least = turn_cost < least ? turn_cost : least;
    largest = FF_SQRT2 * g->cell_size * range.cmax;
    largest = turn_cost > largest ? turn_cost : largest;
    if (!(largest / least <= 8192))
        return 0;
    while (nb < (size_t)ceil(largest / least) + 2)
        nb *= 2;
    *width = least;
    return nb;
}

/* The distances with turn_cost > 0; dist holds +inf after the first
 * pass and gets each cell's least at the end. */
static ff_status search_states(const ff_grid *g, double turn_cost, double *hdist, double *dist)
{
    size_t n = (size_t)g->w * (size_t)g->h, i, k, nb;
    uint8_t *entry = malloc(n), *done = calloc(n, 1);
    cost_range range;
    turn_ctx ctx;
    double width = 0;
    ff_status st = FF_ENOMEM;
    int d;

    if (!entry || !done || ff_search_first_pass(g, dist, entry, &range) < 0)
        goto out;
    ff_want_huge_pages(hdist, 8 * n * sizeof *hdist);
    for (i = 0; i < 8 * n; i++)
        hdist[i] = INFINITY;
    ctx.g = g;
    ctx.entry = entry;
    ctx.done = done;
    ctx.hdist = hdist;
    ctx.turn_cost = turn_cost;
    for (d = 0; d < 8; d++) {
        ctx.from[d] = -((ptrdiff_t)ff_dir_dy[d] * g->w + ff_dir_dx[d]);
        ctx.half_len[d] = ff_step_length(d) * g->cell_size * 0.5;
        ctx.side[d][0] = ff_heading_clockwise[(ring_place[d] + 1) & 7];
        ctx.side[d][1] = ff_heading_clockwise[(ring_place[d] + 7) & 7];
    }
    for (k = 0; k < g->ngoals; k++)
        for (d = 0; d < 8; d++)
            hdist[8 * (size_t)g->goals[k] + (size_t)d] = 0.0;
    if ((nb = ring_buckets(g, turn_cost, range, &width)) > 0) {
        ring r;
        st = ring_init(&r, nb, width) < 0 ? FF_ENOMEM : FF_OK;
        for (k = 0; k < g->ngoals && st == FF_OK; k++)
            for (d = 0; d < 8 && st == FF_OK; d++)
                if (bucket_push(&r.slot[0], 8 * (size_t)g->goals[k] + (size_t)d) < 0)
                    st = FF_ENOMEM;
        if (st == FF_OK)
            st = search_ring(&ctx, &r);
        ring_free(&r);
    } else {
        st = search_heap(&ctx);
    }
    for (i = 0; i < n && st == FF_OK; i++) {
        const double *h = hdist + 8 * i;
        double least = h[0];
        for (d = 1; d < 8; d++)
            least = h[d] < least ? h[d] : least;
        dist[i] = least;
    }
out:
    free(entry);
    free(done);
    return st;
}

ff_status ff_turn_search(const ff_grid *g, double turn_cost, double *hdist, double *dist,
                         ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h, i;
    ff_status st;
    int h;

    if (g->ngoals == 0)
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0,
                            "no goal: give -g X,Y, --goals FILE or goal tiles in the map");
    if ((uint64_t)n > FF_TURN_MAX_CELLS)
        return ff_error_set(err, FF_EINPUT, NULL, 0, 0,
                            "map of %zu cells is too large for a turn-cost field (at most %llu)",
                            n, (unsigned long long)FF_TURN_MAX_CELLS);
    if (!(turn_cost >= 0 && turn_cost < INFINITY))
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0,
                            "turn cost %g: it must be a finite number >= 0", turn_cost);
    if (turn_cost == 0) {
        /* No turn costs anything: every heading has the cell's distance. */
        if ((st = ff_search(g, dist, err)) != FF_OK)
            return st;
        for (i = 0; i < n; i++)
            for (h = 0; h < 8; h++)
                hdist[8 * i + (size_t)h] = dist[i];
        return FF_OK;
    }
    if (search_states(g, turn_cost, hdist, dist) != FF_OK)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0,
                            "out of memory for the search of %zu cells", n);
    return FF_OK;
}
