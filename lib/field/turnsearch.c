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
 * binary heap.
 *
 * Speed (tests/bench/bench_turn.sh): on a large map the search waits on
 * memory, so what settling a state reads is kept to three lines, each
 * prefetched a bucket ahead: the line of its cell's 8 distances (one line
 * when the caller's array is 64-byte aligned, ff_turn_distances_alloc(),
 * which took about a quarter off; a turn edge then costs no miss), the
 * line of the cell its step comes from, and its cell's two flag bytes
 * (entry mask and settled bits side by side, which took another tenth or
 * so off).  With one cost for every open cell the step costs are
 * constants and the cost array is never read (about half the time off on
 * 4096 x 4096); otherwise both cells' costs are prefetched too.
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

double *ff_turn_distances_alloc(size_t cells)
{
    if (cells == 0 || cells > SIZE_MAX / (8 * sizeof(double)))
        return NULL;
    return aligned_alloc(8 * sizeof(double), cells * 8 * sizeof(double));
}

/* What both queue kinds share. */
typedef struct {
    const ff_grid *g;
    /* Two bytes a cell, side by side so that settling a state reads one
     * line: flags[2 * v] the entry mask of cell v (searchcore.h), bit h of
     * flags[2 * v + 1] set when state (v, h) is settled. */
    uint8_t *flags;
    double *hdist;
    double turn_cost;
    ptrdiff_t from[8];     /* offset to the cell that enters in direction d */
    double half_len[8];    /* cell_size * length(d) / 2 */
    double step[8];        /* with uniform costs: every step's cost in d */
    int side[8][2];        /* the two headings 45 degrees either side of h */
} turn_ctx;

/* The cost of the step u -> v in direction d, as ff_grid_step_cost()
 * computes it: the same operations in the same order, so both round
 * alike.  With uniform (a constant), every open cell costs the same and
 * the cost is ctx->step[d], which rounds the same: c + c is exact. */
static ALWAYS_INLINE double step_cost(const turn_ctx *ctx, size_t u, size_t v, int d,
                                      int uniform)
{
    if (uniform)
        return ctx->step[d];
    return ctx->half_len[d] * ((double)ctx->g->cost[u] + (double)ctx->g->cost[v]);
}

/* The edges into settled state s = 8 * v + d, of distance dv: push each
 * state whose distance they lower with push(q, to, state); uniform as
 * step_cost() takes it. */
#define RELAX_INTO(ctx, s, dv, push, q, uniform)                                 \
    do {                                                                         \
        size_t v_ = (s) >> 3, u_, t_;                                            \
        int d_ = (int)((s)&7), k_;                                               \
        double to_;                                                              \
        if ((ctx)->flags[2 * v_] >> d_ & 1) {                                        \
            u_ = (size_t)((ptrdiff_t)v_ + (ctx)->from[d_]);                      \
            to_ = (dv) + step_cost((ctx), u_, v_, d_, (uniform));                \
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
static inline int settle(uint8_t *flags, size_t s)
{
    uint8_t bit = (uint8_t)(1u << (s & 7)), *done = flags + 2 * (s >> 3) + 1;

    if (*done & bit)
        return 0;
    *done |= bit;
    return 1;
}

/* Ask the memory for what settling state s reads (PREFETCH_AHEAD places
 * on in a bucket): its cell's line of distances, its flags, the line of
 * the cell its step comes from and, with costs that differ, both cells'
 * costs.  On a large map these are cache misses, and the bucket says
 * which come next.  Always inlined: GCC drops the prefetches of a
 * function it does not inline.  The step's cell is reached through
 * integers: at the map's edge it lies outside the arrays. */
static ALWAYS_INLINE void prefetch_state(const turn_ctx *ctx, size_t s, int uniform)
{
    size_t v = s >> 3;
    ptrdiff_t from = ctx->from[s & 7];
    uintptr_t u = (uintptr_t)(ctx->hdist + 8 * v) + (uintptr_t)(8 * from * (ptrdiff_t)sizeof(double));

    PREFETCH(ctx->hdist + 8 * v);
    PREFETCH(ctx->flags + 2 * v);
    PREFETCH((const void *)u);
    if (!uniform) {
        PREFETCH(ctx->g->cost + v);
        PREFETCH((const void *)((uintptr_t)(ctx->g->cost + v) +
                                (uintptr_t)(from * (ptrdiff_t)sizeof(float))));
    }
}

#define RING_PUSH(r, to, s) ring_push((r), ring_bucket((r), (to)), (s))

/* Edges of positive cost within a spread the ring spans: the buckets.
 * uniform: every open cell costs the same (step_cost()). */
static ALWAYS_INLINE ff_status search_ring(const turn_ctx *ctx, ring *r, int uniform)
{
    size_t empty_run = 0;

    while (empty_run <= r->mask) {
        bucket *b = &r->slot[r->cur & r->mask];
        size_t j;
        empty_run = b->n ? 0 : empty_run + 1;
        for (j = 0; j < b->n; j++) {
            size_t s = b->cell[j];
            if (j + PREFETCH_AHEAD < b->n)
                prefetch_state(ctx, b->cell[j + PREFETCH_AHEAD], uniform);
            if (settle(ctx->flags, s))
                RELAX_INTO(ctx, s, ctx->hdist[s], RING_PUSH, r, uniform);
        }
        if (r->failed)
            return FF_ENOMEM;
        b->n = 0;
        r->cur++;
    }
    return FF_OK;
}

/* search_ring() written out for uniform and for differing costs. */
static ff_status search_ring_uniform(const turn_ctx *ctx, ring *r)
{
    return search_ring(ctx, r, 1);
}

static ff_status search_ring_weighted(const turn_ctx *ctx, ring *r)
{
    return search_ring(ctx, r, 0);
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
        if (settle(ctx->flags, s))
            RELAX_INTO(ctx, s, ctx->hdist[s], HEAP_PUSH, &h, 0);
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
    uint8_t *flags = malloc(2 * n);
    cost_range range;
    turn_ctx ctx;
    double width = 0;
    ff_status st = FF_ENOMEM;
    int d;

    /* The first pass writes the entry masks into flags[0..n); spread them
     * to every other byte, from the end so that none is overwritten
     * before it is moved. */
    ff_want_huge_pages(flags, 2 * n);
    if (!flags || ff_search_first_pass(g, dist, flags, &range) < 0)
        goto out;
    for (i = n; i-- > 0;) {
        flags[2 * i] = flags[i];
        flags[2 * i + 1] = 0;
    }
    ff_want_huge_pages(hdist, 8 * n * sizeof *hdist);
    for (i = 0; i < 8 * n; i++)
        hdist[i] = INFINITY;
    ctx.g = g;
    ctx.flags = flags;
    ctx.hdist = hdist;
    ctx.turn_cost = turn_cost;
    for (d = 0; d < 8; d++) {
        ctx.from[d] = -((ptrdiff_t)ff_dir_dy[d] * g->w + ff_dir_dx[d]);
        ctx.half_len[d] = ff_step_length(d) * g->cell_size * 0.5;
        ctx.step[d] = ctx.half_len[d] * ((double)range.cmin + (double)range.cmin);
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
            st = range.cmin == range.cmax ? search_ring_uniform(&ctx, &r)
                                          : search_ring_weighted(&ctx, &r);
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
    free(flags);
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
